// Real reporter outputs (test/fixtures/reports/, captured from the real runners) through each
// framework's parser: passed, failed with a multi-line message kept whole, skipped, and a file that
// throws at import reported as a file error, not as a test.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { avaResults } from '../../server/src/frameworks/ava/runner';
import { jestLikeResults } from '../../server/src/frameworks/run/jestLikeReport';
import { mochaResults } from '../../server/src/frameworks/mocha/runner';
import { nodeTapResults } from '../../server/src/frameworks/node-tap/runner';
import { nodeTestResults } from '../../server/src/frameworks/node-test/runner';
import { junitResults } from '../../server/src/frameworks/pytest/runner';
import type { Parsed } from '../../server/src/frameworks/run/results';

const report = (name: string) => readFileSync(join(__dirname, '../fixtures/reports', name), 'utf8');
const CAP = '/work/wt/runners/test-output/cap';
const statuses = (r: Parsed) => r.tests.map((t) => [t.name, t.status]);
const failed = (r: Parsed, id: string) => r.tests.find((t) => t.name.includes(id) && t.status === 'failed')!;

describe('runner reports: node:test TAP (tap-parser)', () => {
  const r = nodeTestResults(report('node-test.tap'), '/tmp/cap/nt');
  it('leaf tests under their describe, suites not counted, skipped kept', () => {
    assert.deepEqual(statuses(r), [
      ['mod c1: adds', 'passed'],
      ['mod c2: deep', 'failed'],
      ['mod c3: skipped', 'skipped'],
      ['mod c4: multi', 'failed'],
    ]);
    assert.deepEqual([r.total, r.passed, r.failed], [3, 1, 2]);
  });
  it('the whole assertion message, with expected/actual as literals of the YAML values (a string quoted)', () => {
    const t = failed(r, 'c4');
    assert.equal(t.expected, "'line one\\nline 2'");
    assert.equal(t.actual, "'line one\\nline two'");
    // node:test writes an array as a map in its YAML: objects are left to the message's parser
    assert.deepEqual([failed(r, 'c2').expected, failed(r, 'c2').actual], [undefined, undefined]);
    assert.equal(
      t.message,
      "Expected values to be strictly equal:\n+ actual - expected\n\n+ 'line one\\nline two'\n- 'line one\\nline 2'\n                  ^",
    );
    assert.match(
      failed(r, 'c2').message!,
      /^Expected values to be strictly deep-equal:\n\+ actual - expected\n\n {2}\{\n {4}a: \[\n {6}1,\n\+ {5}2\n- {5}3\n/,
    );
  });
  it('a file that throws at import is a file error with its stderr', () => {
    assert.deepEqual(
      r.fileErrors.map((e) => e.file),
      ['boom.test.mjs'],
    );
    assert.match(
      r.fileErrors[0].message,
      /^file:\/\/\/tmp\/cap\/nt\/boom\.test\.mjs:2\nthrow new Error\('boom at import'\);[\s\S]*Error: boom at import/,
    );
  });
});

describe('runner reports: ava --tap (tap-parser)', () => {
  const r = avaResults(report('ava.tap'), '/tmp/cap');
  it("tests with their status; ava's own points about a file are not tests", () => {
    assert.deepEqual(statuses(r), [
      ['pass › a3: skipped', 'skipped'],
      ['pass › a1: adds', 'passed'],
      ['pass › a2: deep', 'failed'],
      ['pass › a4: throws', 'passed'],
    ]);
    assert.deepEqual([r.total, r.passed, r.failed], [3, 2, 1]);
  });
  it('the failed assertion and its whole difference', () => {
    assert.equal(
      failed(r, 'a2').message,
      't.deepEqual()\nDifference (- actual, + expected):\n  {\n    a: [\n      1,\n-     2,\n+     3,\n    ],\n  }',
    );
  });
  it('the uncaught error and the exit of a file that throws at import, as one file error', () => {
    assert.deepEqual(r.fileErrors, [
      { file: 'boom.test.mjs', message: 'Error: boom at import\nboom.test.mjs exited with a non-zero exit code: 1' },
    ]);
  });
  it('one file: tests are named by title alone, and still are tests', () => {
    const one = avaResults(
      "TAP version 13\nok 1 - tc_1: a\nnot ok 2 - tc_2: b\n  ---\n    name: AssertionError\n    assertion: t.is()\n    message: ''\n  ...\n\n1..2\n",
      '/w',
    );
    assert.deepEqual(statuses(one), [
      ['tc_1: a', 'passed'],
      ['tc_2: b', 'failed'],
    ]);
    assert.deepEqual(one.fileErrors, []);
  });
});

describe('runner reports: node-tap --reporter=tap (tap-parser)', () => {
  const r = nodeTapResults(report('node-tap.tap'), '/tmp/cap/tapcase');
  it("each file's subtests are the tests (their assertions are not)", () => {
    assert.deepEqual(statuses(r), [
      ['b1: adds', 'passed'],
      ['b2: same', 'failed'],
      ['b3: skipped', 'skipped'],
      ['b4: throws', 'passed'],
      ['b5: multi', 'failed'],
    ]);
    assert.deepEqual([r.total, r.passed, r.failed], [4, 2, 2]);
    assert.ok(r.tests.every((t) => t.file === 'pass.test.mjs'));
  });
  it('the failing assertion with its whole diff', () => {
    assert.equal(failed(r, 'b5').message, 'should be equal\n--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n line one\n-line 2\n+line two\n');
  });
  it('a file that throws at import is a file error carrying its stderr', () => {
    assert.deepEqual(
      r.fileErrors.map((e) => e.file),
      ['boom.test.mjs'],
    );
    assert.match(r.fileErrors[0].message, /Error: boom at import/);
  });
});

describe('runner reports: pytest JUnit XML (fast-xml-parser)', () => {
  it('passed, failed with the message attribute and the traceback decoded, skipped', () => {
    const r = junitResults(report('pytest.junit.xml'));
    assert.deepEqual(statuses(r), [
      ['test_mod::test_d1_adds', 'passed'],
      ['test_mod::test_d2_multi', 'failed'],
      ['test_mod::test_d3_skipped', 'skipped'],
    ]);
    assert.deepEqual([r.total, r.passed, r.failed], [2, 1, 1]);
    const m = failed(r, 'd2').message!;
    assert.ok(m.startsWith("AssertionError: first line\n  second line\nassert 'line one\\nline two' == 'line one\\nline 2'\n"), m);
    assert.match(
      m,
      /\n> {7}assert "line one\\nline two" == "line one\\nline 2", "first line\\nsecond line"\nE {7}AssertionError: first line\nE {9}second line\n[\s\S]*test_mod\.py:5: AssertionError$/,
    );
  });
  it("a collection error is the file's error", () => {
    const r = junitResults(report('pytest-load-error.junit.xml'));
    assert.deepEqual(r.tests, []);
    assert.deepEqual(r.fileErrors, [
      {
        file: 'test_boom.py',
        message:
          "collection failure\ntest_boom.py:1: in <module>\n    raise RuntimeError('boom at import')\nE   RuntimeError: boom at import",
      },
    ]);
  });
  it('entities and attributes as data: a name that looks like a number stays text', () => {
    const r = junitResults(
      '<testsuite tests="1"><testcase classname="t" name="1e3"><failure message="a &lt;b&gt; &amp;&#10;c"/></testcase></testsuite>',
    );
    assert.deepEqual(r.tests, [{ name: 't::1e3', status: 'failed', file: 't.py', message: 'a <b> &\nc' }]);
  });
});

describe('runner reports: jest and vitest JSON', () => {
  it('jest: node:assert and expect failures whole; expect() gives expected/actual; a file that throws is a file error', () => {
    const r = jestLikeResults(report('jest.json'), CAP);
    assert.deepEqual(statuses(r), [
      ['mod e1: adds', 'passed'],
      ['mod e2: multi', 'failed'],
      ['mod e3: skipped', 'skipped'],
      ['mod2 e4: expect', 'failed'],
    ]);
    assert.match(
      failed(r, 'e2').message!,
      /^assert\.strictEqual\(received, expected\)\n\nExpected value to strictly be equal to:\n {2}"line one\nline 2"\nReceived:\n {2}"line one\nline two"\n\nDifference:\n\n- Expected\n\+ Received\n\n {2}line one\n- line 2\n\+ line two\n/,
    );
    const e4 = failed(r, 'e4');
    assert.equal(e4.expected, '{ a: [ 1, 3 ] }');
    assert.equal(e4.actual, '{ a: [ 1, 2 ] }');
    assert.deepEqual(
      r.fileErrors.map((e) => e.file),
      ['jboom.test.js'],
    );
    assert.match(r.fileErrors[0].message, /boom at import/);
  });
  it("vitest: the same report shape; the load error is the file's", () => {
    const r = jestLikeResults(report('vitest.json'), CAP);
    assert.deepEqual(statuses(r), [
      ['mod f1: adds', 'passed'],
      ['mod f2: multi', 'failed'],
      ['mod f3: skipped', 'skipped'],
      ['mod f4: expect', 'failed'],
    ]);
    assert.match(
      failed(r, 'f2').message!,
      /Expected values to be strictly equal:\n\+ actual - expected\n\n\+ 'line one\\nline two'\n- 'line one\\nline 2'\n/,
    );
    assert.deepEqual(
      r.fileErrors.map((e) => [e.file, e.message.split('\n')[0]]),
      [['vboom.test.mjs', 'boom at import']],
    );
  });
});

describe('runner reports: mocha JSON', () => {
  it("passed, failed (stack with the whole message), skipped; mocha's own err.expected/actual are not read", () => {
    const r = mochaResults(report('mocha.json'), CAP);
    assert.deepEqual(statuses(r), [
      ['mod e1: adds', 'passed'],
      ['mod e2: multi', 'failed'],
      ['mod e3: skipped', 'skipped'],
    ]);
    const t = failed(r, 'e2');
    assert.match(
      t.message!,
      /^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:\n\+ actual - expected\n\n\+ 'line one\\nline two'\n- 'line one\\nline 2'\n/,
    );
    // mocha's Base reporter made values of one type text for its diff: only AMTP's amtpValues (none in this capture) say their type
    assert.deepEqual([t.expected, t.actual], [undefined, undefined]);
    assert.equal(t.file, 'pass.test.js');
  });
});
