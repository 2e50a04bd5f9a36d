// Verdicts from real runner messages (test/fixtures/runner-messages.json, captured through runTests()
// from node:test, mocha, jest, vitest and pytest): the parsers, the test's own errors, and the rule
// that only the case's own documented call and value failing is a possible bug.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { TestCase } from '../../server/src/contracts/types';
import { parseAssertion } from '../../server/src/verifier/assertions';
import { sameLiteral } from '../../server/src/verifier/assertions/literal';
import { selfError } from '../../server/src/verifier/assertions/selfError';
import { classifyFailure, meaningfulLine } from '../../server/src/verifier/classify';
import { unmetCases } from '../../server/src/verifier/unmet';

const M = (
  JSON.parse(readFileSync(path.join(__dirname, '../fixtures/runner-messages.json'), 'utf8')) as { messages: Record<string, string> }
).messages;
const A = 'tc_aaaaaaaaaaaa';
const JS_FILE = "const { pad, obj } = require('../lib');\n";

describe('verdicts: failing assertions parsed from real runner messages', () => {
  it('one-line values: actual and expected for every runner', () => {
    assert.deepEqual(parseAssertion('node-test', M['node-test tc_aaaaaaaaaaaa: str']), { actual: "'7  '", expected: "'007'" });
    assert.deepEqual(parseAssertion('mocha', M['mocha tc_aaaaaaaaaaaa: str']), { actual: "'7  '", expected: "'007'" });
    assert.deepEqual(parseAssertion('jest', M['jest tc_aaaaaaaaaaaa: str']), { actual: '"7  "', expected: '"007"' });
    assert.deepEqual(parseAssertion('vitest', M['vitest tc_aaaaaaaaaaaa: str']), { actual: "'7  '", expected: "'007'" });
    assert.deepEqual(parseAssertion('pytest', M['pytest test_tc_aaaaaaaaaaaa_str']), { actual: "'7  '", expected: "'007'" });
  });

  it('multi-line values are kept whole, both sides of a diff rebuilt', () => {
    // node:test's TAP YAML arrives with its unchanged lines dedented by the TAP reader; the rest is as printed
    assert.deepEqual(parseAssertion('node-test', M['node-test tc_bbbbbbbbbbbb: deep']), {
      actual: "{\na: 1,\n    b: 'two\\nlines'\n}",
      expected: "{\na: 1,\n    b: 'two\\nline'\n}",
    });
    assert.deepEqual(parseAssertion('mocha', M['mocha tc_bbbbbbbbbbbb: deep']), {
      actual: "{\n  a: 1,\n  b: 'two\\nlines'\n}",
      expected: "{\n  a: 1,\n  b: 'two\\nline'\n}",
    });
    assert.deepEqual(parseAssertion('jest', M['jest tc_bbbbbbbbbbbb: deep']), {
      actual: 'Object {\n  "a": 1,\n  "b": "two\nlines",\n}',
      expected: 'Object {\n  "a": 1,\n  "b": "two\nline",\n}',
    });
    assert.deepEqual(parseAssertion('vitest', M['vitest tc_bbbbbbbbbbbb: deep']), {
      actual: "{ a: 1, b: 'two\\nlines' }",
      expected: "{ a: 1, b: 'two\\nline' }",
    });
    assert.deepEqual(parseAssertion('pytest', M['pytest test_tc_bbbbbbbbbbbb_deep']), {
      actual: "{'a': 1, 'b': 'two\\nlines'}",
      expected: "{'a': 1, 'b': 'two\\nline'}",
    });
  });

  it('an error that is not an assertion parses to nothing', () => {
    for (const k of [
      'node-test tc_cccccccccccc: ref',
      'jest tc_cccccccccccc: ref',
      'vitest tc_cccccccccccc: ref',
      'mocha tc_dddddddddddd: notfn',
    ])
      assert.equal(parseAssertion(k.split(' ')[0] as 'jest', M[k]), undefined, k);
    assert.equal(parseAssertion('pytest', M['pytest test_tc_cccccccccccc_name']), undefined);
  });

  it('literals compare across quote styles and dialects, never across values', () => {
    assert.ok(sameLiteral("'007'", '"007"'));
    assert.ok(sameLiteral("{'a': 1, 'b': True}", '{ a: 1, b: true }'));
    assert.ok(sameLiteral('Object {\n  "a": 1,\n}', '{a: 1}'));
    assert.ok(!sameLiteral("'007'", "'7007'"));
    assert.ok(!sameLiteral("'a b'", "'ab'"), 'whitespace inside a string is part of the value');
  });
});

describe("verdicts: errors raised by the test's own code", () => {
  it('ReferenceError, NameError, ImportError, Cannot find module', () => {
    assert.equal(selfError(M['node-test tc_cccccccccccc: ref'], JS_FILE), 'paad is not defined');
    assert.equal(selfError(M['jest tc_cccccccccccc: ref'], JS_FILE), 'ReferenceError: paad is not defined');
    assert.equal(selfError(M['pytest test_tc_cccccccccccc_name'], ''), "NameError: name 'pkg' is not defined");
    assert.match(selfError(M['pytest load pyt/test_load.py'], '')!, /^ImportError: cannot import name 'nope' from 'pkg'/);
  });
  it('"x is not a function" only when the test file bound x itself', () => {
    const file = "const { pud } = require('../lib');\n";
    assert.equal(selfError(M['mocha tc_dddddddddddd: notfn'], file), 'TypeError: pud is not a function');
    assert.equal(
      selfError('TypeError: cb is not a function\n    at lib.js:3', JS_FILE),
      undefined,
      'raised inside the library on its own binding',
    );
  });
});

describe('verdicts: the first meaningful line of a load error', () => {
  it('picks the error, not the noise around it', () => {
    assert.equal(meaningfulLine(M['node-test load t/load.test.js']), "Cannot find module './nope'");
    assert.equal(meaningfulLine(M['mocha load t/load.test.js']), "Cannot find module './nope'");
    assert.equal(meaningfulLine(M['jest load t/load.test.js']), "Cannot find module './nope' from 't/load.test.js'");
    assert.match(meaningfulLine(M['pytest load pyt/test_load.py']), /^ImportError: cannot import name 'nope' from 'pkg'/);
    assert.equal(meaningfulLine('SyntaxError: Unexpected token )\n    at x'), 'SyntaxError: Unexpected token )');
    assert.equal(meaningfulLine("E   ModuleNotFoundError: No module named 'pkgx'"), "ModuleNotFoundError: No module named 'pkgx'");
  });
});

describe('verdicts: possible bug only for the case’s own documented call and value', () => {
  const documented: TestCase = {
    id: A,
    title: "pad('7', 3) returns '007'",
    target: { file: 'index.js', symbol: 'pad' },
    kind: 'example',
    priority: 'P0',
    preconditions: [],
    steps: ['x'],
    expected: ['y'],
    rationale: 'r',
    evidence: { source: 'readme', location: 'README.md:3' },
    oracle: { kind: 'equals', language: 'javascript', call: "pad('7', 3)", expected: "'007'" },
  };
  const body = (expected: string) => `it('${A}: pad', () => {\n  assert.equal(pad('7', 3), ${expected});\n});`;
  const fail = (over: Partial<Parameters<typeof classifyFailure>[0]>) =>
    classifyFailure({
      framework: 'node-test',
      testCase: documented,
      testText: body("'007'"),
      fileText: JS_FILE,
      message: M['node-test tc_aaaaaaaaaaaa: str'],
      ...over,
    });

  it('documented call and value, code disagrees → possible bug, observed vs documented verbatim (JSON-quoted)', () => {
    const c = fail({});
    assert.equal(c.kind, 'possible_bug');
    assert.equal(c.reason, `possible bug in pad (index.js): documented pad('7', 3) → "'007'" (readme README.md:3); observed: "'7  '"`);
    const j = fail({
      framework: 'jest',
      message: M['jest tc_aaaaaaaaaaaa: str'],
      testText: `test('${A}', () => { expect(pad("7", 3)).toBe("007"); })`,
    });
    assert.equal(j.kind, 'possible_bug');
    assert.match(j.reason, /observed: "\\"7 {2}\\""$/);
  });

  it('a multi-line observed value is kept whole', () => {
    const deep: TestCase = {
      ...documented,
      oracle: { kind: 'equals', language: 'javascript', call: 'obj()', expected: "{ a: 1, b: 'two\\nline' }" },
      target: { file: 'index.js', symbol: 'obj' },
    };
    const c = classifyFailure({
      framework: 'mocha',
      testCase: deep,
      testText: `it('${A}', () => { assert.deepEqual(obj(), { a: 1, b: 'two\\nline' }); })`,
      fileText: JS_FILE,
      message: M['mocha tc_bbbbbbbbbbbb: deep'],
    });
    assert.equal(c.kind, 'possible_bug');
    assert.ok(c.reason.endsWith(`observed: ${JSON.stringify("{\n  a: 1,\n  b: 'two\\nlines'\n}")}`), c.reason);
  });

  it('a wrong test whose body contains the documented literal is not a possible bug', () => {
    const msg = "Expected values to be strictly equal:\n\n'7  ' !== '0007'\n\nexpected: '0007'\nactual: '7  '";
    const c = fail({
      message: msg,
      testText: `it('${A}', () => {\n  // README: pad('7', 3) gives '007'\n  assert.equal(pad('7', 3), '0007');\n});`,
    });
    assert.equal(c.kind, 'test_wrong');
    assert.equal(c.reason, `test is wrong: it expects "'0007'", the documentation says "'007'"; observed: "'7  '"`);
  });

  it("the test's own NameError / ReferenceError is never a possible bug", () => {
    assert.match(
      fail({ framework: 'pytest', message: M['pytest test_tc_cccccccccccc_name'] }).reason,
      /^test is wrong: its own code raised "NameError: name 'pkg' is not defined"/,
    );
    assert.equal(fail({ message: M['node-test tc_cccccccccccc: ref'] }).kind, 'test_wrong');
  });

  it('the documented call throws where the docs show a value: a documentation issue with the error, never a possible bug', () => {
    // As mocha reported dlv@1.1.3's README call `delve(obj, undefined, 'foo') === 'foo'`.
    const c = fail({
      framework: 'mocha',
      message: "TypeError: Cannot read properties of undefined (reading 'split')\n    at module.exports (dist/dlv.js:1:44)",
    });
    assert.equal(c.kind, 'doc_issue');
    assert.deepEqual(c.docIssue, {
      symbol: 'pad',
      file: 'index.js',
      call: "pad('7', 3)",
      documented: "'007'",
      error: "TypeError: Cannot read properties of undefined (reading 'split')",
      where: 'readme README.md:3',
    });
    assert.match(c.reason, /^documentation issue in pad \(index\.js\): documented pad\('7', 3\) → "'007'"/);
  });

  it("the same text across types ('9' against 9) is not a possible bug", () => {
    const nine: TestCase = { ...documented, oracle: { kind: 'equals', language: 'javascript', call: "pad('7', 3)", expected: '9' } };
    const c = fail({
      testCase: nine,
      testText: body('9'),
      message: "Expected values to be strictly equal:\n\n'9' !== 9\n\nexpected: 9\nactual: '9'",
    });
    assert.equal(c.kind, 'test_wrong');
    assert.match(c.reason, /compares across types/);
    // @eluvio/elv-js-helpers@3.2.3: `PersonNameModel({first: 'A'}) //=> {first: 'A'} // proxied by ObjectModel`.
    const obj: TestCase = {
      ...documented,
      oracle: { kind: 'deep_equals', language: 'javascript', call: "pad('7', 3)", expected: "{first: 'A'}" },
    };
    const inst = fail({
      testCase: obj,
      testText: `it('${A}: pad', () => {\n  assert.deepStrictEqual(pad('7', 3), {first: 'A'});\n});`,
      message: "Expected values to be strictly deep-equal:\n+ actual - expected\n\n+ PersonName {\n- {\n    first: 'A'\n  }",
    });
    assert.equal(inst.kind, 'test_wrong', inst.reason);
    assert.match(inst.reason, /compares across types/);
  });

  it("the report's own expected/actual come first: a message no parser reads still classifies, and the text never overrides them", () => {
    // node:assert with a message of the test's own: the text says nothing of the values, the report does
    const unreadable = 'AssertionError [ERR_ASSERTION]: pad pads with zeros';
    assert.match(fail({ message: unreadable }).reason, /the failure is not an assertion of the documented value/);
    const c = fail({ message: unreadable, reported: { expected: "'007'", actual: "'7  '" } });
    assert.equal(c.kind, 'possible_bug');
    assert.match(c.reason, /observed: "'7 {2}'"$/);
    // a text that would read another expected value does not win over the report
    const text = "Expected values to be strictly equal:\n\n'7  ' !== '0007'";
    assert.equal(fail({ message: text }).kind, 'test_wrong');
    assert.equal(fail({ message: text, reported: { expected: "'007'", actual: "'7  '" } }).kind, 'possible_bug');
    // the type the report keeps: the number 9 observed where the docs show the string '9'
    const nine: TestCase = { ...documented, oracle: { kind: 'equals', language: 'javascript', call: "pad('7', 3)", expected: "'9'" } };
    const across = fail({ testCase: nine, testText: body("'9'"), message: unreadable, reported: { expected: "'9'", actual: '9' } });
    assert.equal(across.kind, 'test_wrong');
    assert.match(across.reason, /compares across types/);
  });

  it('characterization cases, undocumented evidence, another call, or no case: the test is wrong', () => {
    assert.match(fail({ testCase: { ...documented, priority: 'P3', rationale: 'pins current behaviour' } }).reason, /characterization/);
    assert.match(fail({ testCase: { ...documented, evidence: { source: 'llm' } } }).reason, /not a documented result/);
    assert.match(
      fail({ testText: `it('${A}: pad('7', 3)', () => { assert.equal(pad('7', 4), '007'); })` }).reason,
      /does not make the documented call/,
    );
    assert.match(fail({ testCase: undefined }).reason, /no planned case/);
  });
});

describe('verdicts: P0/P1 goals', () => {
  const c = (id: string, priority: string) => ({ id, priority, title: `case ${id}` });
  const plan = {
    cases: [
      c('tc_000000000001', 'P0'),
      c('tc_000000000002', 'P1'),
      c('tc_000000000003', 'P0'),
      c('tc_000000000004', 'P2'),
      c('tc_000000000005', 'P1'),
      c('tc_000000000006', 'P0'),
      c('tc_000000000007', 'P1'),
    ],
  } as unknown as Parameters<typeof unmetCases>[0];
  const eng = {
    files: [
      { path: 't.test.js', caseIds: ['tc_000000000001', 'tc_000000000002', 'tc_000000000003', 'tc_000000000004', 'tc_000000000005'] },
    ],
    not_written: [{ caseId: 'tc_000000000006', reason: 'no oracle' }],
  } as unknown as Parameters<typeof unmetCases>[1];
  const run = { files: [{ path: 't.test.js', action: 'created' }] } as unknown as Parameters<typeof unmetCases>[2];
  it('a written P0/P1 test must end passing or quarantined; a reason alone does not meet the goal', () => {
    const unmet = unmetCases(plan, eng, run, [
      { caseId: 'tc_000000000001', outcome: 'dropped', step: 'loads', reason: "does not load: Cannot find module './x'" },
      { caseId: 'tc_000000000002', outcome: 'quarantined', reason: 'possible bug' },
      { caseId: 'tc_000000000003', outcome: 'flaky', step: 'passes_every_run', reason: 'flaky: passed 2 of 3 runs' },
      { caseId: 'tc_000000000004', outcome: 'dropped', reason: 'P2: not a goal' },
      { caseId: 'tc_000000000005', outcome: 'dropped', step: 'adds_coverage', reason: 'adds no coverage' },
    ]);
    assert.deepEqual(unmet, [
      {
        caseId: 'tc_000000000001',
        priority: 'P0',
        title: 'case tc_000000000001',
        reason: "dropped: does not load: Cannot find module './x'",
      },
      { caseId: 'tc_000000000003', priority: 'P0', title: 'case tc_000000000003', reason: 'flaky: flaky: passed 2 of 3 runs' },
      {
        caseId: 'tc_000000000007',
        priority: 'P1',
        title: 'case tc_000000000007',
        reason: 'no test was written and no reason was recorded',
      },
    ]);
  });
});
