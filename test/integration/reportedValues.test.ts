// A failing assertion's expected/actual values as the real runners report them (docs/verifier.md,
// "Classifying a failure"): literals that keep their type (the string '9' quoted, the number 9 bare),
// carried from the report through the verifier's CaseRunner to the classifier, which reads them
// before the failure text. The tests give node:assert a message of their own, which leaves the text
// nothing to parse: only the report's values can say what was compared.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestCase } from '../../server/src/contracts/types';
import type { Framework } from '../../server/src/core/frameworks';
import { classifyFailure } from '../../server/src/verifier/classify';
import { CaseRunner, type Observation } from '../../server/src/verifier/execute';
import { testSource } from '../../server/src/verifier/testFile';

const REPO = resolve(__dirname, '../..');
// Under the repo so a test file resolves 'tap' like in a real project.
const WORK = join(REPO, 'test-output');
const PAD = 'tc_aaaaaaaaaaaa';
const NINE = 'tc_bbbbbbbbbbbb';
// pad('7', 3) pads on the right where its docs show zeros on the left; nine() returns the number its docs show as a string.
const LIB = 'exports.pad = (s, n) => String(s).padEnd(n);\nexports.nine = () => 9;\n';

const documented = (id: string, symbol: string, call: string, expected: string): TestCase => ({
  id,
  title: `${call} returns ${expected}`,
  target: { file: 'lib.js', symbol },
  kind: 'example',
  priority: 'P0',
  preconditions: [],
  steps: ['x'],
  expected: ['y'],
  rationale: 'r',
  evidence: { source: 'readme', location: 'README.md:3' },
  oracle: { kind: 'equals', language: 'javascript', call, expected },
});
const CASES = new Map([
  [PAD, documented(PAD, 'pad', "pad('7', 3)", "'007'")],
  [NINE, documented(NINE, 'nine', 'nine()', "'9'")],
]);

const NODE_ASSERT = (head: string, it: string) =>
  `${head}const assert = require('node:assert');\nconst { pad, nine } = require('./lib');\n` +
  `${it}('${PAD}: pad', () => {\n  assert.strictEqual(pad('7', 3), '007', 'pad pads with zeros');\n});\n` +
  `${it}('${NINE}: nine', () => {\n  assert.strictEqual(nine(), '9', 'nine is nine');\n});\n`;

const FILES: Record<string, { path: string; text: string }> = {
  'node-test': { path: 'nt.test.js', text: NODE_ASSERT("const test = require('node:test');\n", 'test') },
  mocha: { path: 'm.test.js', text: NODE_ASSERT('', 'it') },
  jest: {
    path: 'j.test.js',
    text:
      "const { pad, nine } = require('./lib');\n" +
      `test('${PAD}: pad', () => {\n  expect(pad('7', 3)).toBe('007');\n});\n` +
      `test('${NINE}: nine', () => {\n  expect(nine()).toBe('9');\n});\n`,
  },
  vitest: {
    path: 'v.test.mjs',
    text:
      "import { test, expect } from 'vitest';\nimport { pad, nine } from './lib.js';\n" +
      `test('${PAD}: pad', () => {\n  expect(pad('7', 3)).toBe('007');\n});\n` +
      `test('${NINE}: nine', () => {\n  expect(nine()).toBe('9');\n});\n`,
  },
  ava: {
    path: 'a.test.mjs',
    text:
      "import test from 'ava';\nimport { pad, nine } from './lib.js';\n" +
      `test('${PAD}: pad', (t) => {\n  t.is(pad('7', 3), '007');\n});\n` +
      `test('${NINE}: nine', (t) => {\n  t.is(nine(), '9');\n});\n`,
  },
  'node-tap': {
    path: 't.test.mjs',
    text:
      "import { test } from 'tap';\nimport { pad, nine } from './lib.js';\n" +
      `test('${PAD}: pad', async (t) => {\n  t.equal(pad('7', 3), '007');\n});\n` +
      `test('${NINE}: nine', async (t) => {\n  t.equal(nine(), '9');\n});\n`,
  },
};

describe('reported values: real runners give expected/actual that keep their type, and the classifier reads them first', function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  async function observe(framework: Framework): Promise<{ obs: Map<string, Observation>; file: { path: string; text: string } }> {
    mkdirSync(WORK, { recursive: true });
    const dir = mkdtempSync(join(WORK, `values-${framework}-`));
    dirs.push(dir);
    const file = FILES[framework];
    writeFileSync(join(dir, 'lib.js'), LIB);
    // the workspace's own root: tap writes its .tap folder here, not in the repo
    writeFileSync(join(dir, 'package.json'), '{"name": "values", "private": true}\n');
    writeFileSync(join(dir, file.path), file.text);
    const runner = new CaseRunner({ framework, binDir: REPO, args: [], env: {} }, dir, 120_000, undefined, () => {});
    const { obs } = await runner.run(file.path, [PAD, NINE]);
    return { obs, file };
  }

  function verdict(framework: Framework, file: { path: string; text: string }, id: string, o: Observation, withValues = true) {
    return classifyFailure({
      framework,
      testCase: CASES.get(id),
      testText: testSource(file.path, file.text, id),
      fileText: file.text,
      message: o.message ?? '',
      ...(withValues && o.reported ? { reported: o.reported } : {}),
    });
  }

  for (const framework of ['node-test', 'mocha', 'jest'] as const) {
    it(`${framework}: the string '7  ' against '007', and the number 9 against the string '9'`, async () => {
      const { obs, file } = await observe(framework);
      const pad = obs.get(PAD)!;
      const nine = obs.get(NINE)!;
      assert.equal(pad.status, 'failed', pad.message);
      assert.deepEqual(pad.reported, { expected: "'007'", actual: "'7  '" });
      assert.deepEqual(nine.reported, { expected: "'9'", actual: '9' });

      const bug = verdict(framework, file, PAD, pad);
      assert.equal(bug.kind, 'possible_bug', bug.reason);
      assert.match(bug.reason, /documented pad\('7', 3\) → "'007'" \(readme README\.md:3\); observed: "'7 {2}'"$/);
      const across = verdict(framework, file, NINE, nine);
      assert.equal(across.kind, 'test_wrong');
      assert.match(across.reason, /compares across types: the documentation shows "'9'", the call returned "9"/);
      if (framework !== 'jest') {
        // node:assert's message is the test's own: its text alone says nothing of the values
        assert.match(verdict(framework, file, PAD, pad, false).reason, /the failure is not an assertion of the documented value/);
      }
    });
  }

  for (const framework of ['vitest', 'ava'] as const) {
    it(`${framework}: its report has no values, so the failure text is parsed as before`, async () => {
      const { obs, file } = await observe(framework);
      const pad = obs.get(PAD)!;
      assert.equal(pad.status, 'failed', pad.message);
      assert.equal(pad.reported, undefined);
      assert.equal(verdict(framework, file, PAD, pad).kind, 'possible_bug');
      assert.match(verdict(framework, file, NINE, obs.get(NINE)!).reason, /compares across types/);
    });
  }

  it('node-tap: wanted/found only for values of two types; a diff of one type is left to the text parser', async () => {
    const { obs, file } = await observe('node-tap');
    const nine = obs.get(NINE)!;
    assert.equal(nine.status, 'failed', nine.message);
    assert.deepEqual(nine.reported, { expected: "'9'", actual: '9' });
    // tap's message is "should be equal", with no diff for two types: the report's values are all there is
    assert.match(verdict('node-tap', file, NINE, nine, false).reason, /the failure is not an assertion of the documented value/);
    assert.match(verdict('node-tap', file, NINE, nine).reason, /compares across types/);
    const pad = obs.get(PAD)!;
    assert.equal(pad.status, 'failed', pad.message);
    assert.equal(pad.reported, undefined);
    assert.match(pad.message ?? '', /--- expected\n\+\+\+ actual/);
  });
});
