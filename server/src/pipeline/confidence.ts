// How sure AMTP is that a test asserts the right value, in [0, 1] (docs/confidence.md). A planned
// case's confidence follows from its evidence (a documented value is high; a value pinned from a
// generated sequence is lower, the more steps it took and the more it looks like an accident of the
// inputs); a model reports its own. After verification it is reconciled with what the test did: a
// test that passed every run under the project's own runner, or that kills a mutant, has shown more.
// Below the run's threshold a kept test waits for a person (pipeline/confidenceStage.ts).
import type { TestCase } from '../contracts/types';

export const DEFAULT_CONFIDENCE_THRESHOLD = 0.75;

export interface Confidence {
  value: number;
  /** what the value rests on, for people */
  basis: string;
}

/** Titles of pinned (characterization) tests start with this (frameworks/header.ts CHAR_PREFIX). */
const PINNED = 'pins current behaviour: ';
const DOCUMENTED = new Set(['readme', 'jsdoc', 'docstring', 'doctest']);
/** a pinned error a wrong input provoked inside the code: more likely an accident of the inputs than a contract */
const CRASH = /\b(TypeError|ReferenceError|RangeError: Maximum call stack|AttributeError|KeyError|IndexError)\b/;

/** a value pinned from one call, the same over 3 runs */
const PINNED_ONE_CALL = 0.8;

/** a test a model rewrote to pass, before verification shows it stable */
const REPAIRED = 0.7;

const round2 = (n: number) => Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;

/** A planned case's confidence: the one it carries when a model reported another than its evidence gives, else from its evidence. */
function plannedConfidence(c: TestCase): Confidence {
  const evidence = evidenceConfidence(c);
  if (c.confidence === undefined || c.confidence === evidence.value) return evidence;
  return { value: round2(c.confidence), basis: `reported by the model (${evidence.basis}: ${evidence.value})` };
}

/** What the evidence alone says (the offline engine's value; docs/confidence.md). */
export function evidenceConfidence(c: TestCase): Confidence {
  const o = c.oracle;
  const source = c.evidence?.source;
  if (source === 'llm') return { value: 0.6, basis: 'a model inferred it' };
  if (o && (o.kind === 'type' || o.kind === 'arity' || o.kind === 'exports'))
    return { value: 0.9, basis: 'checks that the export exists (no value to get wrong)' };
  if (c.title.startsWith(PINNED) || source === 'source') return pinnedConfidence(c);
  if (c.kind === 'property' || c.kind === 'combinatorial') return { value: 0.85, basis: 'a property of documented calls' };
  if (source && DOCUMENTED.has(source))
    return { value: 0.95, basis: `a value documented in the ${source === 'readme' ? 'README' : source}` };
  if (source === 'throws') return { value: 0.85, basis: 'an error the docs state' };
  return { value: 0.7, basis: 'inferred from the code' };
}

/**
 * A pinned value: observed the same over three runs of its sequence (search/stability.ts), so it is
 * what the code does today; how likely it is what the code should do is lower for a sequence than
 * for one call, and lower still when what it pins is a crash on odd inputs, or an empty result
 * with nothing else checked.
 */
function pinnedConfidence(c: TestCase): Confidence {
  const sequence = c.evidence?.snippet?.includes('sequence') ?? false;
  let value = sequence ? 0.75 : PINNED_ONE_CALL;
  const notes = [`a value pinned from ${sequence ? 'a generated call sequence' : 'one call'}, the same over 3 runs`];
  const expected = `${c.expected.join(' ')} ${c.oracle?.error ?? ''}`;
  if (c.oracle?.kind === 'throws' && CRASH.test(expected)) {
    value -= 0.15;
    notes.push('it pins a crash on these inputs');
  } else if ((c.oracle?.expected === 'undefined' || c.oracle?.expected === 'None') && !c.oracle?.checks?.length) {
    value -= 0.1;
    notes.push('it pins an empty result and checks nothing else');
  }
  return { value: round2(value), basis: notes.join('; ') };
}

/** A model's case with no value of its own (0.60 by default) whose test was not rewritten and no model rated lower. */
function modelGuessHeld(c: TestCase, seen: TestEvidence): boolean {
  return c.evidence?.source === 'llm' && c.confidence === undefined && !seen.repaired && seen.engineer === undefined;
}

/** What verification showed of a test. */
export interface TestEvidence {
  /** passed every run under the project's runner (the verifier's reruns) */
  stable: boolean;
  /** mutants it kills */
  kills: number;
  /** a model rewrote it to make it pass */
  repaired: boolean;
  /** the Test Engineer's reported confidence (a model's) */
  engineer?: number;
}

/** A written test's confidence: its case's, reconciled with what verification showed (absent: not verified). */
export function testConfidence(c: TestCase, seen: TestEvidence | undefined): Confidence {
  const planned = plannedConfidence(c);
  let value = seen?.engineer !== undefined ? Math.min(planned.value, seen.engineer) : planned.value;
  const notes = [
    seen?.engineer !== undefined && seen.engineer < planned.value
      ? `${planned.basis}; the engineer reported ${seen.engineer}`
      : planned.basis,
  ];
  if (!seen) return { value: round2(value), basis: `${notes[0]}; not verified` };
  if (seen.repaired) {
    // Its value is now what the code did in a run (as a pin), chosen by a model that first expected another.
    value = Math.min(REPAIRED, seen.engineer ?? REPAIRED);
    notes.push('a model rewrote it to pass');
  }
  if (seen.stable && modelGuessHeld(c, seen)) {
    // The model wrote its expected value before the code ran, and every run agreed: an independent
    // prediction confirmed, at least as strong as a value pinned from one call.
    value = Math.max(value + 0.1, PINNED_ONE_CALL);
    notes.push("the model's expected value, written before the code ran, held in every run");
  } else if (seen.stable && value < 0.95) {
    value += 0.1;
    notes.push('passed every run');
  }
  if (seen.kills > 0 && value < 0.95) {
    value += 0.1;
    notes.push(`kills ${seen.kills} mutant(s)`);
  }
  return { value: round2(Math.min(value, Math.max(planned.value, 0.95))), basis: notes.join('; ') };
}
