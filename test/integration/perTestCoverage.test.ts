// Per-test coverage from one process (docs/verifier.md, "Per-test coverage in one process"): what the
// preload takes at each test boundary must be what the test covers when it runs alone, less what
// loading the files covers, under mocha and node:test, for tests in describe() blocks and at the top.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runTests } from '../../server/src/frameworks/runner';
import { meaningfulLine } from '../../server/src/verifier/classify';
import { CaseRunner } from '../../server/src/verifier/execute';
import { testTexts } from '../../server/src/frameworks/testTexts';
import { perTestOfStable } from '../../server/src/verifier/perTestRun';
import type { VerifyState } from '../../server/src/verifier/state';

const REPO = path.resolve(__dirname, '../..');
const IDS = ['tc_aaaaaaaaaaaa', 'tc_bbbbbbbbbbbb', 'tc_cccccccccccc'];

describe('per-test coverage from one test process', function () {
  this.timeout(240_000);
  let ws: string;
  before(() => {
    ws = mkdtempSync(path.join(tmpdir(), 'amtp-pertest-'));
    writeFileSync(
      path.join(ws, 'lib.js'),
      'exports.a = function a(x) { return x + 1; };\nexports.b = function b(x) {\n  if (x) return 1;\n  return 2;\n};\nexports.c = (s) => s.split(",").map((x) => x.trim());\n',
    );
    // Case ids in a comment on each test's first line, as AMTP writes them (frameworks/caseMap.ts maps a take to its case).
    const body = (it: string, top: string) =>
      `describe('lib', () => {\n  ${it}('adds one', () => { // ${IDS[0]}\n    assert.equal(lib.a(1), 2);\n  });\n  ${it}('takes the branch', () => { // ${IDS[1]}\n    assert.equal(lib.b(0), 2);\n  });\n});\n${top}('splits and trims', () => { // ${IDS[2]}\n  assert.deepEqual(lib.c('x, y'), ['x', 'y']);\n});\n`;
    writeFileSync(path.join(ws, 'm.test.js'), `const assert = require('node:assert');\nconst lib = require('./lib');\n${body('it', 'it')}`);
    writeFileSync(
      path.join(ws, 'n.test.js'),
      `const { describe, it, test } = require('node:test');\nconst assert = require('node:assert');\nconst lib = require('./lib');\n${body('it', 'test')}`,
    );
  });
  after(() => rmSync(ws, { recursive: true, force: true }));

  for (const [framework, file] of [
    ['mocha', 'm.test.js'],
    ['node-test', 'n.test.js'],
  ] as const)
    it(`${framework}: each test's units in one run equal its units alone minus what loading covers`, async () => {
      const opts = { binDir: REPO, coverageOf: ['lib.js'] };
      const one = await runTests(framework, ws, [file], { ...opts, perTest: true });
      assert.equal(one.passed, 3, one.output);
      assert.ok(one.perTest, 'the run gave per-test coverage');
      const load = one.perTest.load;
      assert.ok(load.size > 0 && [...load].every((u) => u.startsWith('lib.js:')), [...load].join(' '));
      for (const [i, id] of IDS.entries()) {
        const alone = await runTests(framework, ws, [file], { ...opts, grep: [['adds one', 'takes the branch', 'splits and trims'][i]] });
        assert.equal(alone.passed, 1, alone.output);
        const want = [...(alone.units ?? [])].filter((u) => !load.has(u)).sort();
        assert.deepEqual([...(one.perTest.byTest.get(id) ?? [])].filter((u) => !load.has(u)).sort(), want, id);
        assert.ok(want.length > 0, `${id} covers something beyond loading`);
      }
      // The whole run's units are every test's and loading's together.
      const together = new Set([...load, ...[...one.perTest.byTest.values()].flatMap((u) => [...u])]);
      assert.deepEqual([...(one.units ?? [])].sort(), [...together].sort());
      // ...and what a plain coverage run of the same tests reports (the shared-state check reads one: verifier/coveragePhase.ts).
      const plain = await runTests(framework, ws, [file], opts);
      assert.equal(plain.perTest, undefined);
      assert.deepEqual([...(plain.units ?? [])].sort(), [...together].sort());
    });
});

describe('tests measured again after their file changed (verifier/perTestRun.ts)', function () {
  this.timeout(240_000);
  let ws: string;
  before(() => {
    ws = mkdtempSync(path.join(tmpdir(), 'amtp-pertest-'));
    writeFileSync(path.join(ws, 'lib.js'), 'let n = 0;\nexports.bump = () => ++n;\nexports.twice = (x) => x * 2;\n');
  });
  after(() => rmSync(ws, { recursive: true, force: true }));

  it('a test that passes only after another is kept unmeasured, and no file is measured apart again', async () => {
    // B needs A's bump first; A and B changed since the first run (repaired), so both are measured again, B alone.
    const [A, B, C] = IDS;
    const text =
      `const assert = require('node:assert');\nconst lib = require('./lib');\n` +
      `it('bumps', () => { // ${A}\n  assert.equal(lib.bump(), 1);\n});\n` +
      `it('bumps again', () => { // ${B}\n  assert.equal(lib.bump(), 2);\n});\n` +
      `it('doubles', () => { // ${C}\n  assert.equal(lib.twice(2), 4);\n});\n`;
    writeFileSync(path.join(ws, 'p.test.js'), text);
    const file = { path: 'p.test.js', content: text, ids: [A, B, C] };
    const runner = new CaseRunner({ framework: 'mocha', binDir: REPO, args: [], env: {} }, ws, 60_000, undefined, () => {});
    const s = {
      ctx: { plan: runner['plan'], productFiles: ['lib.js'] },
      runner,
      flushPids: async () => {},
      caseOf: new Map(IDS.map((id) => [id, { target: { file: 'lib.js' } }])),
      files: [file],
      // C was measured in the first run with the file as it is; A and B with an earlier text of it
      stable: [B, C].map((id) => ({ id, file })),
      measured: {
        ids: new Set(IDS),
        byTest: new Map([[C, new Set(['lib.js:s@1'])]]),
        load: new Set(),
        unitKeys: new Set(),
        // C's text (its own and the file's outside every test) as it is now; A's and B's as repaired since
        texts: new Map([...testTexts('p.test.js', text)].map(([id, t]) => [id, id === C ? t : 'earlier'])),
      },
    } as unknown as VerifyState;
    const m = await perTestOfStable(s, ['lib.js']);
    assert.ok(m, 'one unmeasured test does not make the whole phase fall back to a run per file');
    assert.equal(runner.executions, 1, 'the two tests measured again, in one invocation');
    assert.ok(m.ids.has(C), 'C passed alone: measured');
    assert.ok(!m.ids.has(B), 'B fails without A: not measured, so kept and never anyone’s cover');
  });
});

describe('a test file whose module does not load (verifier/execute.ts)', function () {
  this.timeout(120_000);
  let ws: string;
  before(() => {
    ws = mkdtempSync(path.join(tmpdir(), 'amtp-loaderr-'));
    // a browser script in node-forge@1.3.1's shape: `(function ($) { … })(jQuery);`, loaded through enough frames to fill the output's tail
    const depth = 14;
    for (let i = 0; i < depth; i++)
      writeFileSync(
        path.join(ws, `m${i}.js`),
        i < depth - 1 ? `module.exports = require('./m${i + 1}.js');\n` : '(function ($) {\n  module.exports = $;\n})(jQuery);\n',
      );
    writeFileSync(path.join(ws, 'x.test.js'), `const m = require('./m0.js');\nit('loads', () => { // ${IDS[0]}\n  m();\n});\n`);
  });
  after(() => rmSync(ws, { recursive: true, force: true }));

  it("says the error, not the last frame of mocha's stack", async () => {
    const runner = new CaseRunner({ framework: 'mocha', binDir: REPO, args: [], env: {} }, ws, 60_000, undefined, () => {});
    const { obs } = await runner.run('x.test.js', [IDS[0]]);
    const o = obs.get(IDS[0]);
    assert.equal(o?.status, 'load_error', JSON.stringify(o));
    assert.equal(meaningfulLine(o?.message ?? ''), 'ReferenceError: jQuery is not defined', o?.message);
  });

  it('measured per test, a run of several files is ONE process: the file that does not load fails alone, with its error', async () => {
    // y.test.js registers a test, then throws: mocha would have run none of its tests, so none is reported
    writeFileSync(path.join(ws, 'y.test.js'), `it('registered first', () => { // ${IDS[1]}\n});\nrequire('./m0.js');\n`);
    writeFileSync(path.join(ws, 'lib.js'), 'exports.twice = (n) => n * 2;\n');
    writeFileSync(
      path.join(ws, 'z.test.js'),
      `const assert = require('node:assert');\nconst lib = require('./lib.js');\nit('doubles', () => { // ${IDS[2]}\n  assert.equal(lib.twice(2), 4);\n});\n`,
    );
    const runner = new CaseRunner({ framework: 'mocha', binDir: REPO, args: [], env: {} }, ws, 60_000, undefined, () => {});
    const { obs, results } = await runner.runAll(
      [
        { file: 'x.test.js', ids: [IDS[0]] },
        { file: 'y.test.js', ids: [IDS[1]] },
        { file: 'z.test.js', ids: [IDS[2]] },
      ],
      { perTest: true, coverageOf: ['lib.js'] },
    );
    assert.equal(runner.executions, 1, 'no run to find the file, none of a file alone');
    assert.equal(results.length, 1);
    for (const id of [IDS[0], IDS[1]]) {
      assert.equal(obs.get(id)?.status, 'load_error', `${id}: ${JSON.stringify(obs.get(id))}`);
      assert.equal(meaningfulLine(obs.get(id)?.message ?? ''), 'ReferenceError: jQuery is not defined');
    }
    assert.equal(obs.get(IDS[2])?.status, 'passed', JSON.stringify(obs.get(IDS[2])));
    assert.ok(
      [...(results[0].perTest?.byTest.get(IDS[2]) ?? [])].some((u) => u.startsWith('lib.js:')),
      'the test that ran was measured',
    );
  });
});

describe("what a test's per-test measure depends on (frameworks/testTexts.ts)", () => {
  const ids = ['tc_aaaaaaaaaaaa', 'tc_bbbbbbbbbbbb', 'tc_cccccccccccc'];
  const file = (tests: string[], helper = 'const two = 2;') =>
    `const lib = require('./lib');\n${helper}\n\ndescribe('lib', () => {\n${tests.join('\n\n')}\n});\n`;
  const test = (i: number, body = 'assert.ok(lib)') => `  it('t${i}', () => { // ${ids[i]}\n    ${body};\n  });`;

  it('taking other tests out changes nothing; changing the test, or the text outside the tests, does', () => {
    const all = testTexts('t.test.js', file([test(0), test(1), test(2)]));
    const fewer = testTexts('t.test.js', file([test(0), test(2)]));
    assert.equal(fewer.get(ids[0]), all.get(ids[0]));
    assert.equal(fewer.get(ids[2]), all.get(ids[2]));
    assert.equal(fewer.has(ids[1]), false);
    const repaired = testTexts('t.test.js', file([test(0), test(1, 'assert.equal(lib.x, 2)'), test(2)]));
    assert.notEqual(repaired.get(ids[1]), all.get(ids[1]));
    assert.equal(repaired.get(ids[0]), all.get(ids[0]));
    const helper = testTexts('t.test.js', file([test(0), test(1), test(2)], 'const two = 3;'));
    for (const id of ids) assert.notEqual(helper.get(id), all.get(id));
  });
});
