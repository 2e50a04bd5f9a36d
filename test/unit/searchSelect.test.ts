// Feedback and selection of the offline search: statements and branches from the syntax tree and V8's
// block counts (server/src/search/probes.ts), greedy selection over goals of any kind (select.ts), the
// runs a budget gives (budget.ts) and what two runs must agree on (stability.ts fingerprint).
import { strict as assert } from 'node:assert';
import { loadJsParser, type JsParser } from '../../server/src/util/jsParser';
import { clockCut, searchedDoc } from '../../server/src/characterize/stageJobs';
import { validate } from '../../server/src/contracts/validate';
import type { ModuleCharacterizationDoc } from '../../server/src/contracts/types';
import { runsPerModule, safetyClockSeconds, MAX_RUNS, MIN_RUNS } from '../../server/src/search/budget';
import { errorGoal, messageShape } from '../../server/src/search/goals';
import { mutantGoal } from '../../server/src/search/mutants';
import { countAt, fileProbes, reached } from '../../server/src/search/probes';
import { selectByGoals, type Selectable } from '../../server/src/search/select';
import { fingerprint } from '../../server/src/search/stability';
import type { Observation } from '../../server/src/search/types';

let parser: JsParser;
before(async () => {
  parser = await loadJsParser();
});

const cand = (order: number, goals: string[], trivial = false, length = 1): Selectable & { name: string } => ({
  name: `c${order}`,
  order,
  goals,
  trivial,
  length,
});

describe('search selection', () => {
  it('keeps the fewest candidates that reach every goal, in run order', () => {
    const picked = selectByGoals([cand(0, ['a']), cand(1, ['a', 'b', 'c']), cand(2, ['c', 'd']), cand(3, ['b'])]);
    assert.deepEqual(
      picked.map((c) => c.name),
      ['c1', 'c2'],
    );
  });

  it('a candidate with trivial arguments is kept only for goals no other candidate reaches', () => {
    const picked = selectByGoals([cand(0, ['a', 'b', 'x'], true), cand(1, ['a']), cand(2, ['b'])]);
    // c0 alone reaches x: it stays, though picked last (the kept ones come back in run order)
    assert.deepEqual(
      picked.map((c) => c.name),
      ['c0', 'c1', 'c2'],
    );
    assert.deepEqual(
      selectByGoals([cand(0, ['a', 'b'], true), cand(1, ['a']), cand(2, ['b'])]).map((c) => c.name),
      ['c1', 'c2'],
    );
  });

  it('ties go to the shorter sequence, then the earlier one', () => {
    assert.deepEqual(
      selectByGoals([cand(0, ['a'], false, 3), cand(1, ['a'], false, 1), cand(2, ['a'], false, 1)]).map((c) => c.name),
      ['c1'],
    );
  });

  it('killed mutants are goals like any other: a test that kills a mutant no other kills is kept', () => {
    const sameCode = ['f.js:s@10', 'f.js:s@20'];
    const picked = selectByGoals([cand(0, [...sameCode, mutantGoal('3')]), cand(1, [...sameCode, mutantGoal('7')])]);
    assert.equal(picked.length, 2);
    assert.equal(selectByGoals([cand(0, sameCode), cand(1, sameCode)]).length, 1);
  });

  it('a library error is a goal per callable and message shape; an engine error is not', () => {
    const own = { name: 'RangeError', message: 'bad size: 12', engine: false, own: true, error: true };
    assert.equal(errorGoal('parse', own), 'error:parse:RangeError:bad size: …');
    assert.equal(errorGoal('parse', { ...own, message: 'bad size: 99' }), errorGoal('parse', own));
    assert.equal(
      errorGoal('parse', { ...own, name: 'TypeError', message: "Cannot read properties of undefined (reading 'x')", engine: true }),
      undefined,
    );
    assert.equal(errorGoal('parse', { ...own, own: false }), undefined);
    assert.equal(messageShape(`no "x" in 'y' at 3.5`), 'no …');
    assert.equal(
      messageShape('val is not a non-empty string or a valid number. val={"a":1}'),
      'val is not a non-empty string or a valid number. val…',
    );
    assert.equal(messageShape('the stack is empty'), 'the stack is empty');
  });
});

describe('search probes', () => {
  const code = `function f(a, b) {
  if (a) { b = 1; }
  const c = a && b;
  return c ? 'yes' : 'no';
}
`;

  it('lists statements and branch arms, implicit arms included', () => {
    const fp = fileProbes(parser, 'f.js', code);
    const kinds = fp.probes.map((p) => `${p.kind}@${code.slice(p.at, p.at + 6).replace(/\n/g, ' ')}`);
    assert.deepEqual(kinds, [
      's@functi',
      'e@if (a)', // the if without else has an implicit arm
      's@if (a)',
      'b@{ b = ',
      's@b = 1;',
      's@const ',
      'e@a && b', // so has the short-circuit of &&
      'b@b;   r', // and the right side of && is an arm
      's@return',
      "b@'yes' ",
      "b@'no'; ",
    ]);
  });

  it('a statement counts as reached when the innermost count at its start is above zero; an implicit arm when its parent ran more often', () => {
    const fp = fileProbes(parser, 'f.js', code);
    const start = code.indexOf('{ b = 1; }');
    const end = start + '{ b = 1; }'.length;
    // the whole function ran twice, the if-block once: the else path was taken once
    const segs: [number, number, number][] = [
      [0, start, 2],
      [start, end, 1],
      [end, code.length, 2],
    ];
    assert.equal(countAt(segs, start + 2), 1);
    assert.equal(countAt(segs, code.length + 5), 0);
    const goals = reached('f.js', fp, segs);
    assert.ok(goals.includes(`f.js:e@${code.indexOf('if (a)')}`));
    // the if-block ran every time: the implicit else was not taken
    const always: [number, number, number][] = [[0, code.length, 1]];
    assert.ok(!reached('f.js', fp, always).includes(`f.js:e@${code.indexOf('if (a)')}`));
    // nothing ran in the block: its statement is not reached
    const never: [number, number, number][] = [
      [0, start, 1],
      [end, code.length, 1],
    ];
    assert.ok(!reached('f.js', fp, never).includes(`f.js:s@${code.indexOf('b = 1')}`));
  });
});

describe('search budget', () => {
  it('turns seconds into runs per module before anything runs, shared by weight within a floor and a ceiling', () => {
    assert.deepEqual(runsPerModule(60, [1, 1]), [MAX_RUNS, MAX_RUNS]);
    const many = runsPerModule(
      60,
      Array.from({ length: 50 }, (_, i) => (i === 0 ? 10 : 1)),
    );
    assert.ok(many[0] > many[1]);
    assert.ok(many.every((n) => n >= MIN_RUNS && n <= MAX_RUNS));
    assert.deepEqual(runsPerModule(60, [3, 1, 2]), runsPerModule(60, [3, 1, 2]));
    assert.deepEqual(runsPerModule(0.1, [1, 1, 1]), [MIN_RUNS, MIN_RUNS, MIN_RUNS]);
  });

  it('the safety clock is three times the budget, never under two minutes', () => {
    assert.deepEqual([safetyClockSeconds(6), safetyClockSeconds(60), safetyClockSeconds(100)], [120, 180, 300]);
  });

  it('the modules the wall-clock safety stop cut, of any language, are listed for the record and the summary', () => {
    const doc = (module: string, cut?: boolean): ModuleCharacterizationDoc => ({
      module,
      targets: 1,
      cases: [],
      replaces: [],
      stable: 0,
      unstable: 0,
      unusable: 0,
      ...(cut ? { cut_by_clock: true } : {}),
    });
    assert.deepEqual(clockCut([doc('a.js'), doc('b.py', true), doc('c.ts', true)]), { clockCut: ['b.py', 'c.ts'] });
    assert.deepEqual(clockCut([doc('a.js')]), {});
  });

  it('a searched module the clock cut is a valid characterization document that says so', () => {
    const job = {
      module: 'lib/a.js',
      job: { file: 'lib/a.js', language: 'javascript' as const, binding: { local: 'lib', import: 'module' as const }, seeds: new Map() },
      weight: 1,
      existence: [],
    };
    const m = {
      module: '/w/lib/a.js',
      cases: [],
      symbols: [],
      callables: 2,
      executed: 0,
      candidates: 0,
      unstable: 0,
      unusable: 0,
      sideEffects: 0,
      reached: 0,
      probes: 0,
    };
    const cut = searchedDoc(job, 80, { ...m, cutByClock: true });
    assert.deepEqual(validate('characterization', { schema_version: '1', modules: [cut] }), { ok: true });
    assert.deepEqual([cut.cut_by_clock, cut.search], [true, { runs: 80, executed: 0, reached: 0, probes: 0, side_effects: 0 }]);
    assert.equal('cut_by_clock' in searchedDoc(job, 80, m), false);
  });
});

describe('search stability', () => {
  const obs = (v: number, phases: ('sync' | 'later')[] = []): Observation => ({
    steps: [{ ok: true, async: false }],
    settled: true,
    values: [{ shape: { t: 'number' }, v }],
    mutated: [],
    callbacks: phases.length ? [{ id: 0, step: 0, args: [[{ v: 1 }]], phases, settledAt: 1 }] : [],
    events: [],
  });

  it('two runs agree only when everything a test compares is the same', () => {
    assert.equal(fingerprint(obs(1)), fingerprint(obs(1)));
    assert.notEqual(fingerprint(obs(1)), fingerprint(obs(2)));
    // a callback called synchronously in one run and later in the other is rendered differently: unstable
    assert.notEqual(fingerprint(obs(1, ['sync'])), fingerprint(obs(1, ['later'])));
  });
});
