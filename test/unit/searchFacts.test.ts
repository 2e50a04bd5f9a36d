// What a test of a sequence asserts, as facts (server/src/search/facts.ts): which checks notice a
// mutant's run, the fewest checks that still notice every mutant a test kills (assertion
// minimisation), and the oracle writing only those checks beside its main assertion.
import { strict as assert } from 'node:assert';
import { assertionsToKeep, factsOf, noticedBy, OUTCOME } from '../../server/src/search/facts';
import { factsToKeep } from '../../server/src/search/guided';
import { oracleFacts, sequenceOracle } from '../../server/src/search/oracle';
import type { Observation, Sequence } from '../../server/src/search/types';

const seq: Sequence = {
  id: '1',
  steps: [
    { op: 'new', path: ['Stack'], args: [] },
    { op: 'method', recv: 0, name: 'push', args: [{ lit: 3 }] },
    { op: 'method', recv: 0, name: 'peek', args: [] },
  ],
};

function observed(size: number, text: string, peek: number, pushed = 0): Observation {
  return {
    steps: [
      { ok: true, async: false },
      { ok: true, async: false },
      { ok: true, async: false },
    ],
    settled: true,
    values: [
      {
        shape: { t: 'object', cls: 'Stack' },
        why: 'an instance of Stack',
        obs: [
          { expr: '.size', v: size },
          { expr: 'String', v: text },
          { expr: '.isEmpty()', v: size === 0 },
        ],
      },
      { shape: { t: 'object', cls: 'Stack' }, same: pushed },
      { shape: { t: 'number' }, v: peek },
    ],
    mutated: [],
    callbacks: [],
    events: [],
  };
}

describe('search facts: which checks notice a mutant, and the fewest to keep', () => {
  it('names each assertable fact of an observation', () => {
    const f = factsOf(observed(1, 'Stack(3)', 3));
    assert.deepEqual([...f.keys()].sort(), [OUTCOME, 'o:0:.isEmpty()', 'o:0:.size', 'o:0:String', 'same:1', 'v:2'].sort());
  });

  it('a changed outcome is noticed by every test; otherwise the facts that differ', () => {
    const base = factsOf(observed(1, 'Stack(3)', 3));
    assert.deepEqual(noticedBy(base, factsOf(observed(1, 'Stack(3)', 3))), []);
    assert.deepEqual(noticedBy(base, factsOf(observed(2, 'Stack(3)', 3))), ['o:0:.size']);
    assert.deepEqual(noticedBy(base, factsOf(observed(0, 'Stack()', 3))).sort(), ['o:0:.isEmpty()', 'o:0:.size', 'o:0:String']);
    const threw = { ...observed(1, 'Stack(3)', 3), steps: [{ ok: true as const, async: false }] };
    assert.deepEqual(noticedBy(base, factsOf(threw)), [OUTCOME]);
    assert.deepEqual(noticedBy(base, undefined), [OUTCOME]);
  });

  it('keeps the main assertion and the fewest checks that notice every kill, in the oracle order on ties', () => {
    const order = ['v:2', 'o:0:.size', 'o:0:String', 'o:0:.isEmpty()'];
    const keep = assertionsToKeep([['o:0:.size', 'o:0:String'], ['o:0:String'], [OUTCOME], ['v:2']], ['v:2'], order);
    assert.deepEqual([...keep].sort(), [OUTCOME, 'o:0:String', 'v:2'].sort());
    assert.deepEqual([...assertionsToKeep([], ['v:2'], order)].sort(), [OUTCOME, 'v:2'].sort());
    const tie = assertionsToKeep([['o:0:.size', 'o:0:.isEmpty()']], ['v:2'], order);
    assert.ok(tie.has('o:0:.size') && !tie.has('o:0:.isEmpty()'));
  });

  it('the oracle lists its facts main first and writes only the kept checks', () => {
    const obs = observed(1, 'Stack(3)', 3);
    assert.deepEqual(oracleFacts(seq, obs, 'lib'), ['v:2', 'o:0:.size', 'o:0:String', 'o:0:.isEmpty()']);
    const all = sequenceOracle(seq, obs, 'lib', ['lib']);
    assert.deepEqual(
      all?.oracle.checks?.map((c) => c.call),
      ['stack.size', 'String(stack)', 'stack.isEmpty()'],
    );
    const few = sequenceOracle(seq, obs, 'lib', ['lib'], false, new Set([OUTCOME, 'v:2', 'o:0:.isEmpty()']));
    assert.equal(few?.oracle.call, 'stack.peek()');
    assert.deepEqual(
      few?.oracle.checks?.map((c) => [c.call, c.expected]),
      [['stack.isEmpty()', 'false']],
    );
    const none = sequenceOracle(seq, obs, 'lib', ['lib'], false, new Set([OUTCOME, 'v:2']));
    assert.equal(none?.oracle.checks, undefined);
  });

  it("keeps a callback's calls whatever the kills say: a test that passed a callback checks that it was called", () => {
    // wrap(callback) returns a function that calls it; calling that is the sequence's last step
    const cbSeq: Sequence = {
      id: '2',
      steps: [
        { op: 'call', path: ['wrap'], args: [{ cb: { id: 0 } }] },
        { op: 'callv', recv: 0, args: [{ lit: 1 }] },
      ],
    };
    const obs: Observation = {
      steps: [
        { ok: true, async: false },
        { ok: true, async: false },
      ],
      settled: true,
      values: [
        { shape: { t: 'function' }, why: 'a function' },
        { shape: { t: 'undefined' }, v: { $: 'undef' } },
      ],
      mutated: [],
      // called by the second step, after the first (which passed it) had settled with no call
      callbacks: [{ id: 0, step: 0, args: [[{ v: 1 }]], phases: ['sync'], settledAt: 0 }],
      events: [],
    };
    assert.deepEqual(oracleFacts(cbSeq, obs, 'lib'), ['v:1', 'cb:0']);
    const keep = factsToKeep(cbSeq, obs, 'lib', { goals: ['m1'], notice: [[OUTCOME]], complete: true });
    assert.ok(keep?.has('cb:0'), String([...(keep ?? [])]));
    const oracle = sequenceOracle(cbSeq, obs, 'lib', ['lib'], false, keep);
    assert.deepEqual(oracle?.oracle.checks, [{ call: 'calls0', kind: 'deep_equals', expected: '[[1]]' }]);
    assert.equal(oracle?.outcome.text, 'calls back once');
  });
});
