// Trivial values (undefined, null, '', -1, 0, [], {}) and engine errors ("Cannot read properties of
// undefined") say little about what code does. A sequence whose last call takes one, or ends in an
// engine error, is kept only for code nothing else reaches (select.ts picks such sequences last).
import type { Arg, Observation, Sequence } from './types';
import { key, type Tagged } from './values';

const TRIVIAL = new Set<string>([{ $: 'undef' }, null, '', -1, 0, [], { $: 'obj', v: {} }].map((v) => key(v as Tagged)));

function isTrivialArg(a: Arg): boolean {
  return 'lit' in a && TRIVIAL.has(key(a.lit));
}

export function isTrivialArgs(seq: Sequence, obs: Observation): boolean {
  const last = seq.steps[obs.steps.length - 1] ?? seq.steps[seq.steps.length - 1];
  const end = obs.steps[obs.steps.length - 1];
  const engineError = !!end && 'ok' in end && !end.ok && (end.error.engine || !end.error.own);
  return engineError || (last.args ?? []).some(isTrivialArg);
}
