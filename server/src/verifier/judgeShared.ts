// What the judge and place phases share: whether a failing test can be repaired here, and how a
// repair's outcome becomes the test's result.
import type { RepairOutcome } from './repairLoop';
import { nameOf, type TestFileState, type VerifyState } from './state';

export function canRepair(s: VerifyState): boolean {
  return s.ctx.provider.name !== 'offline' && s.ctx.params.repairAttempts > 0;
}

export function noRepairWhy(s: VerifyState): string {
  return s.ctx.provider.name === 'offline' ? 'the offline provider has no repair engine' : 'repairs are off';
}

/** A repaired test passed N runs alone: it joins the stable tests (the coverage filter still applies). */
export function recordRepair(
  s: VerifyState,
  file: TestFileState,
  id: string,
  o: RepairOutcome,
  step: 'loads' | 'passes_every_run',
  prefix: string,
): void {
  const test = nameOf(s, id);
  if (o.kind === 'fixed') s.stable.push({ id, file });
  if (o.kind === 'fixed') s.results.set(id, { caseId: id, outcome: 'passing', reason: `${prefix}${o.reason}`, test, repairs: o.attempts });
  else if (o.kind === 'code_bug')
    s.results.set(id, { caseId: id, outcome: 'quarantined', step: 'passes_every_run', reason: o.reason, test, repairs: o.attempts });
  else s.results.set(id, { caseId: id, outcome: 'dropped', step, reason: `${prefix}${o.reason}`, test, repairs: o.attempts });
}
