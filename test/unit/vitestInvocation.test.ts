// The vitest command line follows the installed version: vitest 0.x has no --pool (its argument
// parser refused the whole final run of hookable@5.5.3's kept tests under vitest 0.29.8: "Unknown
// option `--pool`"), and runs in worker threads already, which is what coverage needs.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vitestRunner } from '../../server/src/frameworks/vitest/runner';

function withVitest(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'amtp-vitest-'));
  mkdirSync(join(dir, 'node_modules/vitest'), { recursive: true });
  writeFileSync(join(dir, 'node_modules/vitest/package.json'), JSON.stringify({ name: 'vitest', version, bin: { vitest: 'vitest.mjs' } }));
  writeFileSync(join(dir, 'node_modules/vitest/vitest.mjs'), '');
  return dir;
}

describe('vitest invocation by installed version', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const [version, pooled] of [
    ['0.29.8', false],
    ['1.6.1', true],
    ['3.2.4', true],
  ] as const) {
    it(`vitest ${version} with coverage: ${pooled ? 'worker threads asked for' : 'no --pool flag'}`, () => {
      const dir = withVitest(version);
      dirs.push(dir);
      const inv = vitestRunner.invocation(['test/a.test.js'], dir, { binDir: dir, coverageOf: ['src/a.js'] } as never);
      assert.equal(inv.args.includes('--pool=threads'), pooled, inv.args.join(' '));
      assert.equal(inv.args[0], join(dir, 'node_modules/vitest/vitest.mjs'));
      assert.deepEqual(inv.args.slice(-1), ['test/a.test.js']);
    });
  }
});
