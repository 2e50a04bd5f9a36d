// A kept sequence as a test (server/src/search/render.ts, oracle.ts, case.ts) and how the JavaScript
// frameworks write its oracle: setup statements, the main assertion, `checks` after it, a thrown
// error's message, and a temporary folder created before and removed after (frameworks/jsChecks.ts).
import { strict as assert } from 'node:assert';
import type { TestCase, TestCases } from '../../server/src/contracts/types';
import { validate } from '../../server/src/contracts/validate';
import { callsTarget, isSequenceCase, sequenceCase, type CaseContext } from '../../server/src/search/case';
import type { Observation, Sequence, ValueSeen } from '../../server/src/search/types';
import { engineerTests } from '../helpers/offlineEngineer';

const CTX: CaseContext = { file: 'lib/stack.js', language: 'javascript', binding: { local: 'stackLib', import: 'module' } };
const stackShape = { t: 'object', cls: 'Stack', methods: [{ name: 'push', kind: 'method' as const, arity: 1 }] };
const instance = (obs: ValueSeen['obs'], same?: number): ValueSeen => ({
  shape: stackShape,
  why: 'an instance of Stack',
  obs,
  ...(same !== undefined ? { same } : {}),
});
const ok = { ok: true as const, async: false };

function observation(over: Partial<Observation>): Observation {
  return { steps: [], settled: true, values: [], mutated: [], callbacks: [], events: [], ...over };
}

function planOf(cases: TestCase[]): TestCases {
  return {
    schema_version: '1',
    depth_level: 'standard',
    project: {
      name: 'stack-lib',
      language: 'javascript',
      module_system: 'cjs',
      typescript: false,
      test_setup: { framework: 'none', test_dirs: ['test'], config_files: [] },
    },
    cases,
  };
}

const chain: Sequence = {
  id: '1',
  steps: [
    { op: 'new', path: ['Stack'], args: [{ lit: [1] }] },
    { op: 'method', recv: 0, name: 'push', args: [{ lit: 2 }] },
  ],
};
const chainObs = observation({
  steps: [ok, ok],
  values: [
    instance([
      { expr: 'spread', v: { $: 'obj', v: { items: [1, 2] } } },
      { expr: '.size', v: 2 },
    ]),
    instance(undefined, 0),
  ],
});

const popEmpty: Sequence = {
  id: '2',
  steps: [
    { op: 'new', path: ['Stack'], args: [] },
    { op: 'method', recv: 0, name: 'pop', args: [] },
  ],
};
const popObs = observation({
  steps: [
    ok,
    { ok: false, async: false, error: { name: 'EmptyStackError', message: 'the stack is empty', engine: false, own: true, error: true } },
  ],
  values: [instance([{ expr: '.size', v: 0 }])],
});

const readJson: Sequence = {
  id: '3',
  steps: [{ op: 'call', path: ['readJson'], args: [{ tmp: 'data.json' }, { cb: { id: 0 } }] }],
  files: [{ path: 'data.json', content: '{"a":1}' }],
};
const readObs = observation({
  steps: [ok],
  values: [{ shape: { t: 'undefined' }, v: { $: 'undef' } }],
  callbacks: [{ id: 0, step: 0, args: [[{ v: null }, { v: { $: 'obj', v: { a: 1 } } }]], phases: ['later'], settledAt: 1 }],
});

const sort: Sequence = { id: '4', steps: [{ op: 'call', path: ['sortInPlace'], args: [{ lit: [3, 1, 2] }] }] };
const sortObs = observation({
  steps: [ok],
  values: [{ shape: { t: 'undefined' }, v: { $: 'undef' } }],
  mutated: [{ step: 0, arg: 0, v: [1, 2, 3] }],
});

describe('search cases', () => {
  it('a method that returns its object is checked to do so, then the object is observed by its state', () => {
    const c = sequenceCase(chain, chainObs, CTX)!;
    assert.equal(c.title, 'pins current behaviour: new Stack([1]).push(2) returns itself');
    assert.deepEqual(c.oracle, {
      setup: 'const stack = new stackLib.Stack([1]);\nconst stack2 = stack.push(2);',
      kind: 'equals',
      call: 'stack2 === stack',
      expected: 'true',
      checks: [
        { call: '{ ...stack }', kind: 'deep_equals', expected: '{ items: [1, 2] }' },
        { call: 'stack.size', kind: 'equals', expected: '2' },
      ],
      language: 'javascript',
      bindings: [CTX.binding],
    });
    assert.equal(c.evidence?.source, 'source');
    assert.ok(isSequenceCase(c));
    assert.equal(c.target.symbol, 'Stack.push');
  });

  it("an error the code throws is pinned by class and message, with the object's state after it", () => {
    const c = sequenceCase(popEmpty, popObs, CTX)!;
    assert.equal(c.title, 'pins current behaviour: new Stack().pop() throws EmptyStackError');
    assert.equal(c.oracle!.kind, 'throws');
    assert.equal(c.oracle!.call, 'stack.pop()');
    assert.equal(c.oracle!.error, 'EmptyStackError');
    assert.equal(c.oracle!.expected, '"the stack is empty"');
    assert.deepEqual(c.oracle!.checks, [{ call: 'stack.size', kind: 'equals', expected: '0' }]);
    assert.equal(c.priority, 'P3');
  });

  it("an engine error (a bad value) is pinned by its class only: V8's wording changes with the JIT's state", () => {
    // mnemonist@0.40.8: `Symbol.iterator in true` reads "Cannot use 'in' operator…" alone and
    // "boolean true is not iterable…" after other tests in the same mocha process.
    const from: Sequence = { id: '5', steps: [{ op: 'call', path: ['from'], args: [{ lit: true }] }] };
    const message = "Cannot use 'in' operator to search for 'Symbol(Symbol.iterator)' in true";
    const c = sequenceCase(
      from,
      observation({ steps: [{ ok: false, async: false, error: { name: 'TypeError', message, engine: true, own: false, error: true } }] }),
      CTX,
    )!;
    assert.equal(c.oracle!.kind, 'throws');
    assert.equal(c.oracle!.error, 'TypeError');
    assert.equal(c.oracle!.expected, undefined);
  });

  it('a callback called later is awaited, its calls checked; the files the sequence read are made in a temporary folder', () => {
    const c = sequenceCase(readJson, readObs, CTX)!;
    assert.equal(c.title, 'pins current behaviour: readJson(tmp/data.json, callback) calls back once');
    assert.equal(
      c.oracle!.setup,
      [
        'const calls0 = [];',
        'let called0;',
        'const waited0 = new Promise((resolve) => (called0 = resolve));',
        'const callback0 = function (...args) {',
        '  calls0.push(args);',
        '  if (calls0.length === 1) called0();',
        '};',
        'const readJsonResult = stackLib.readJson(`${tmp}/data.json`, callback0);',
        'await waited0;',
      ].join('\n'),
    );
    assert.deepEqual(c.oracle!.temp_dir, { name: 'tmp', files: [{ path: 'data.json', content: '{"a":1}' }] });
    // The callback is a function expression, as the search ran it: code that treats it as a class
    // (`instanceof`, `prototype`) sees what the search saw; an arrow would throw (the is-what relay run, F6).
    const lines = c.oracle!.setup!.split('\n');
    const decl = lines.slice(0, lines.indexOf('};') + 1).join('\n');
    assert.equal(new Function(`${decl}\nreturn ({}) instanceof callback0;`)(), false);
    assert.deepEqual(c.oracle!.checks, [{ call: 'calls0', kind: 'deep_equals', expected: '[[null, { a: 1 }]]' }]);
    assert.deepEqual(c.preconditions, ['a temporary folder the test creates and removes']);
  });

  it('a callback only a later step calls (a debounced function, by timer) is not waited for after the step that passed it', () => {
    // throttle-debounce@5.0.2: `debounce(10, callback0)` calls nothing; the returned function's timer
    // calls it. Waiting for "0 calls" after the first step resolved never, and every test timed out.
    const debounce: Sequence = {
      id: '5',
      steps: [
        { op: 'call', path: ['debounce'], args: [{ lit: 10 }, { cb: { id: 0 } }] },
        { op: 'callv', recv: 0, args: [] },
      ],
    };
    const obs = observation({
      steps: [ok, ok],
      values: [{ shape: { t: 'function' }, why: 'a function' } as unknown as ValueSeen, { shape: { t: 'undefined' }, v: { $: 'undef' } }],
      callbacks: [{ id: 0, step: 0, args: [], phases: ['later'], settledAt: 0 }],
    });
    const c = sequenceCase(debounce, obs, CTX)!;
    assert.doesNotMatch(c.oracle!.setup!, /waited0|called0/, c.oracle!.setup);
  });

  it('an argument the code changes is held in a variable and checked after the call', () => {
    const c = sequenceCase(sort, sortObs, CTX)!;
    assert.equal(c.oracle!.setup, 'const arg = [3, 1, 2];');
    assert.equal(c.oracle!.call, 'stackLib.sortInPlace(arg)');
    assert.deepEqual(c.oracle!.checks, [{ call: 'arg', kind: 'deep_equals', expected: '[1, 2, 3]' }]);
    assert.ok(!isSequenceCase(c), 'one call with no callback counts as a pinned value, not a sequence');
  });

  it('the cases are valid planned cases', () => {
    const cases = [sequenceCase(chain, chainObs, CTX)!, sequenceCase(popEmpty, popObs, CTX)!, sequenceCase(readJson, readObs, CTX)!];
    const r = validate('test-cases', planOf(cases));
    assert.ok(r.ok, JSON.stringify(r));
  });
});

describe('search cases in every JavaScript framework', () => {
  const cases = [
    sequenceCase(chain, chainObs, CTX)!,
    sequenceCase(popEmpty, popObs, CTX)!,
    sequenceCase(readJson, readObs, CTX)!,
    sequenceCase(sort, sortObs, CTX)!,
  ];

  for (const fw of ['node-test', 'mocha', 'jest', 'vitest', 'ava', 'node-tap'] as const) {
    it(`${fw} writes the setup, the main assertion, the checks, the message and the temporary folder`, () => {
      const out = engineerTests(planOf(cases), fw);
      assert.deepEqual(out.not_written, []);
      const text = out.files.map((f) => f.content).join('\n');
      assert.match(text, /const stack = new stackLib\.Stack\(\[1\]\);/);
      assert.match(text, /stack2 === stack/);
      assert.match(text, /\{ \.\.\.stack \}/);
      assert.match(text, /'the stack is empty'/);
      assert.match(text, /const tmp = nodeFs\.mkdtempSync\(nodePath\.join\(nodeOs\.tmpdir\(\), 'amtp-'\)\);/);
      assert.match(text, /nodeFs\.writeFileSync\(nodePath\.join\(tmp, 'data\.json'\), '\{"a":1\}'\);/);
      assert.match(text, /finally \{\s+nodeFs\.rmSync\(tmp, \{ recursive: true, force: true \}\);/);
      assert.match(text, /await waited0;/);
      assert.match(text, /(import \* as nodeFs from 'fs'|const nodeFs = require\('fs'\))/);
    });
  }

  it('node:test and jest compare with their own assertions', () => {
    const nodeTest = engineerTests(planOf(cases), 'node-test').files[0].content;
    assert.match(nodeTest, /assert\.deepStrictEqual\(calls0, \[\[null, \{ 'a': 1 \}\]\]\);/);
    assert.match(nodeTest, /assert\.strictEqual\(thrown\.message, 'the stack is empty'\);/);
    const jest = engineerTests(planOf(cases), 'jest').files.find((f) => /test/.test(f.path))!.content;
    assert.match(jest, /expect\(calls0\)\.toEqual\(\[\[null, \{ 'a': 1 \}\]\]\);/);
    assert.match(jest, /expect\(arg\)\.toEqual\(\[1, 2, 3\]\);/);
  });
});

describe('search cases: a case whose code never calls its target is not emitted', () => {
  it('callsTarget: a call, a construction or a member read of the binding counts; callbacks built and checked alone do not', () => {
    assert.equal(callsTarget('const r = isOneOf(callback0, callback1)(42);', 'isOneOf'), true);
    assert.equal(callsTarget('const s = new Stack();\ns.push(1);', 'Stack'), true);
    assert.equal(callsTarget('const v = stackLib.readJson(x);', 'stackLib'), true);
    const never = [
      'const calls0 = [];',
      'const callback0 = function (...args) {',
      '  calls0.push(args);',
      '};',
      'const isOneOfName = 1;',
    ].join('\n');
    assert.equal(callsTarget(never, 'isOneOf'), false);
    assert.equal(callsTarget('const x = other.isOneOf(1);', 'isOneOf'), false);
  });
});
