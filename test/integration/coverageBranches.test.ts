// AMTP's branch units agree with istanbul's on TypeScript that a runner transformed (vitest runs it
// through node:vm with a source map): every leaf of `&&`/`||`/`??`, both arms of `?:` and of an `if`
// (its implicit `else` included), read from the syntax tree with V8's counts placed through the map
// (server/src/coverage/mappedCounts.ts). Before, V8's own blocks mapped back were the units: the
// operand arms of `&&`/`||` read as uncovered although both were taken (the is-what relay run, F8:
// 60.6% where istanbul said 100%), and the rounds and the keep rule were misled.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runTests } from '../../server/src/frameworks/runner';

const REPO = resolve(__dirname, '../..');

const SOURCE = `export type Guard = (x: unknown) => boolean;

export function isDate(payload: unknown): payload is Date {
  return payload instanceof Date && !isNaN(payload.valueOf());
}

export function isEmptyArray(payload: unknown): boolean {
  return Array.isArray(payload) && payload.length === 0;
}

export function either(a: Guard, b: Guard): Guard {
  return (x) => a(x) || b(x);
}

export function label(n: number | null | undefined): string {
  const v = n ?? 0;
  if (v > 10) return 'big';
  return v < 0 ? 'negative' : 'small';
}

export function unused(flag: boolean): number {
  if (flag && Math.random() > 2) return 1;
  return 0;
}
`;

const TEST = `import { describe, it, expect } from 'vitest';
import { isDate, isEmptyArray, either, label } from '../src/logic';

describe('logic', () => {
  it('isDate', () => {
    expect(isDate(new Date(0))).toBe(true);
    expect(isDate(new Date('x'))).toBe(false);
    expect(isDate(0)).toBe(false);
  });
  it('isEmptyArray', () => {
    expect(isEmptyArray([])).toBe(true);
    expect(isEmptyArray([1])).toBe(false);
  });
  it('either', () => {
    const g = either((x) => x === 1, (x) => x === 2);
    expect(g(1)).toBe(true);
    expect(g(2)).toBe(true);
  });
  it('label', () => {
    expect(label(11)).toBe('big');
    expect(label(null)).toBe('small');
  });
});
`;

describe("AMTP's branch units agree with istanbul's on TypeScript run through a source map", function () {
  this.timeout(300_000);
  let dir: string;
  before(() => {
    mkdirSync(join(REPO, 'test-output'), { recursive: true });
    dir = mkdtempSync(join(REPO, 'test-output', 'branches-'));
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'logic', version: '1.0.0', private: true }));
    writeFileSync(join(dir, 'src/logic.ts'), SOURCE);
    writeFileSync(join(dir, 'test/logic.test.ts'), TEST);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('vitest: the same arms, the same covered ones (operand arms of && and || included)', async () => {
    const r = await runTests('vitest', dir, ['test/logic.test.ts'], { binDir: REPO, coverageOf: ['src/logic.ts'] });
    assert.equal(r.exitCode, 0, r.output);
    const arms = [...r.unitKeys!].filter((k) => k.includes(':b@'));
    const covered = arms.filter((k) => r.units!.has(k));
    // istanbul through vitest's own provider, on the same test file.
    const out = join(dir, '.istanbul');
    const cmd = [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--root', '.', '--coverage.enabled=true'];
    cmd.push('--coverage.provider=istanbul', '--coverage.reporter=json', `--coverage.reportsDirectory=${out}`);
    cmd.push('--coverage.include=src/logic.ts', 'test/logic.test.ts');
    const ind = spawnSync(process.execPath, cmd, { cwd: dir, encoding: 'utf8', timeout: 200_000 });
    assert.equal(ind.status, 0, ind.stdout + ind.stderr);
    const file = Object.values(
      JSON.parse(readFileSync(join(out, 'coverage-final.json'), 'utf8')) as Record<string, { b: Record<string, number[]> }>,
    )[0];
    const counts = Object.values(file.b).flat();
    assert.deepEqual([covered.length, arms.length], [counts.filter((n) => n > 0).length, counts.length]);
    assert.deepEqual([covered.length, arms.length], [11, 16]);
    // Each leaf of a taken `&&`/`||` is covered; the arm nothing took (label's 'negative') is not.
    for (const at of ['4:9', '4:36', '8:9', '8:35', '12:16', '12:24', '16:17', '17:27'])
      assert.ok(r.units!.has(`src/logic.ts:b@${at}`), at);
    assert.ok(!r.units!.has('src/logic.ts:b@18:17'), "label's 'negative' arm was never taken");
  });
});
