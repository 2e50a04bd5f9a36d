// "Load what the project loads" (docs/verifier.md): a TypeScript package with no TS loader of its own
// (fast-equals@5.0.1 ships its src/*.ts next to dist/, and no tsx) and an ESM package that imports
// JSON without an import attribute (test/fixtures/esm-json) are run by the real mocha and node:test
// with AMTP's own loader (server/src/frameworks/run/tsLoader.ts), and the plan says what the project
// needs for its own command. Each workspace lives in the system temp folder, so no tsx is found above it.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '../../server/src/frameworks/runner';
import { bareJsonImport } from '../../server/src/frameworks/run/tsLoader';
import { planRun, type RunPlan } from '../../server/src/verifier/runPlan';
import { unpackNpmPackage } from '../helpers/npmPack';

const REPO = resolve(__dirname, '../..');

function workspace(from: string, dirs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'amtp-loader-'));
  dirs.push(dir);
  cpSync(from, dir, { recursive: true });
  // Only the runner: mocha from this repo, linked (it resolves its own dependencies from its real path).
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules', 'mocha'), join(dir, 'node_modules', 'mocha'));
  return dir;
}

function plan(p: ReturnType<typeof planRun>): RunPlan {
  assert.ok(!('cannot' in p), 'cannot' in p ? p.cannot : '');
  return p as RunPlan;
}

const run = (p: RunPlan, dir: string, files: string[]) =>
  runTests(p.framework, dir, files, { binDir: p.binDir, args: p.args, env: p.env, timeoutMs: 60_000 });

describe('AMTP loads what the project loads (TypeScript without tsx, JSON imports in ESM)', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('fast-equals@5.0.1: its TypeScript sources run under mocha with no tsx installed, and the plan says the project needs tsx', async () => {
    const dir = workspace(await unpackNpmPackage('fast-equals@5.0.1'), dirs);
    const file = 'test/equals.amtp.test.ts';
    mkdirSync(join(dir, 'test'));
    writeFileSync(
      join(dir, file),
      [
        "import assert from 'node:assert/strict';",
        "import { describe, it } from 'mocha';",
        "import { deepEqual, circularDeepEqual } from '../src/index.js';",
        "describe('src/index.ts (AMTP)', () => {",
        "  it('tc_000000000001: deepEqual of equal nested values', () => assert.equal(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), true));",
        "  it('tc_000000000002: circularDeepEqual of a cycle', () => { const a: unknown[] = ['x']; a.push(a); const b: unknown[] = ['x']; b.push(b); assert.equal(circularDeepEqual(a, b), true); });",
        '});',
        '',
      ].join('\n'),
    );
    // The engineer's command for TypeScript under mocha names tsx, which this project does not have.
    const p = plan(planRun('mocha', dir, `npx mocha --node-option import=tsx ${file}`, [file]));
    assert.match(p.loaderNote ?? '', /no TypeScript loader.*needs tsx/);
    assert.ok(
      p.args.some((a) => /^import=file:.*amtp\.node-loader\.mjs$/.test(a)),
      p.args.join(' '),
    );
    const r = await run(p, dir, [file]);
    assert.deepEqual(r.fileErrors, [], r.output);
    assert.deepEqual(
      r.tests.map((t) => t.status),
      ['passed', 'passed'],
      r.output,
    );
  });

  it('an ESM package whose module imports JSON without `with { type: "json" }` loads under node:test and mocha', async () => {
    const dir = workspace(join(REPO, 'test/fixtures/esm-json'), dirs);
    assert.equal(bareJsonImport(dir), 'index.js');
    const file = 'test/index.amtp.test.mjs';
    mkdirSync(join(dir, 'test'));
    const body = (head: string) =>
      [
        "import assert from 'node:assert/strict';",
        head,
        "import { reason } from '../index.js';",
        "describe('index.js (AMTP)', () => {",
        "  it('tc_000000000003: reason(404) returns Not Found', () => assert.equal(reason(404), 'Not Found'));",
        '});',
        '',
      ].join('\n');
    writeFileSync(join(dir, file), body("import { describe, it } from 'node:test';"));
    const nodeTest = plan(planRun('node-test', dir, `node --test ${file}`, [file]));
    assert.match(nodeTest.loaderNote ?? '', /index\.js imports JSON without/);
    const a = await run(nodeTest, dir, [file]);
    assert.deepEqual(
      a.tests.map((t) => t.status),
      ['passed'],
      a.output,
    );
    writeFileSync(join(dir, file), body(''));
    const mocha = plan(planRun('mocha', dir, `npx mocha ${file}`, [file]));
    const b = await run(mocha, dir, [file]);
    assert.deepEqual(
      b.tests.map((t) => t.status),
      ['passed'],
      b.output,
    );
  });

  it('a TypeScript test written as CommonJS (require, no import) in a package that is not "type": "module" runs as CommonJS under mocha', async () => {
    // async-mutex@0.5.0's case: its project runs `mocha test/*.ts`, so its tests are .ts files; a
    // CommonJS package's tests use require, which an ES module does not define.
    const dir = mkdtempSync(join(tmpdir(), 'amtp-loader-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cjs-ts', main: 'lib/index.js' }));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib/index.js'), 'exports.twice = (n) => n * 2;\n');
    mkdirSync(join(dir, 'test'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(REPO, 'node_modules', 'mocha'), join(dir, 'node_modules', 'mocha'));
    const file = 'test/index.amtp.ts';
    writeFileSync(
      join(dir, file),
      [
        "const assert = require('node:assert/strict');",
        "const lib = require('../lib/index.js');",
        "describe('lib/index.js (AMTP)', () => {",
        "  it('tc_000000000004: twice(21) returns 42', () => { const n: number = lib.twice(21); assert.strictEqual(n, 42); });",
        '});',
        '',
      ].join('\n'),
    );
    const p = plan(planRun('mocha', dir, `npx mocha ${file}`, [file]));
    const r = await run(p, dir, [file]);
    assert.deepEqual(r.fileErrors, [], r.output);
    assert.deepEqual(
      r.tests.map((t) => t.status),
      ['passed'],
      r.output,
    );
  });

  it('a package whose JSON imports carry the attribute needs no loader', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-loader-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'index.js'), "import a from './a.json' with { type: 'json' };\nexport default a;\n");
    assert.equal(bareJsonImport(dir), undefined);
    assert.equal(plan(planRun('node-test', dir, 'node --test test/x.test.mjs', ['test/x.test.mjs'])).loaderNote, undefined);
  });
});
