// Tests the person accepted (`amtp review RUN --keep/--accept ID`) that this run wrote again exactly
// as they were (pipeline/writePlan.ts `acceptedSame`). A later run never changes an accepted test
// without an approved overwrite (issue 27), and a repair, a quarantine, a removal or a tidied first
// line would be such a change. So they run and are measured like any other test (passing, one is
// kept, whatever the coverage filter says), but one that fails, does not load, is flaky, skips itself
// or hangs is never handed to the judge: it stays in its file as it was, reported `failing` with what
// the person can do about it.
import { firstLine, meaningfulLine } from './classify';
import type { CaseResult } from '../core/run';
import type { VerifyState } from './state';

/** The result's reason: what is wrong with the test now, and the two ways the person can change that. */
export function acceptedReason(s: VerifyState, id: string, now: string): string {
  return `you accepted this test; it is left as you accepted it: ${now}. Reject it with \`amtp review ${s.ctx.run().id} --reject ${id}\`, or let a run change it with an approved overwrite`;
}

/**
 * After the run and place phases, before the judge: the accepted tests that did not pass every run
 * leave the judge's lists (failing, not loading) and the run phase's verdicts (flaky, skipping
 * itself, hanging, never run) for a `failing` result that says so.
 */
export function holdAccepted(s: VerifyState): void {
  if (!s.accepted.size) return;
  for (const id of s.accepted) {
    const r = s.results.get(id);
    if (r && r.outcome !== 'passing')
      fail(s, id, r.step ?? 'passes_every_run', `it does not pass every run now (${r.reason ?? r.outcome})`);
  }
  for (const [id, f] of [...s.failing])
    if (s.accepted.has(id)) {
      s.failing.delete(id);
      fail(
        s,
        id,
        'passes_every_run',
        `it fails now (${f.reported ? `expected ${f.reported.expected}, got ${f.reported.actual}` : firstLine(f.message)})`,
      );
    }
  for (const f of s.loadFailures) {
    for (const id of f.ids.filter((x) => s.accepted.has(x))) fail(s, id, 'loads', `it does not load now (${meaningfulLine(f.message)})`);
    f.ids = f.ids.filter((x) => !s.accepted.has(x));
  }
  s.loadFailures = s.loadFailures.filter((f) => f.ids.length);
}

function fail(s: VerifyState, id: string, step: NonNullable<CaseResult['step']>, now: string): void {
  s.results.set(id, { caseId: id, outcome: 'failing', step, reason: acceptedReason(s, id, now), test: s.names.get(id) ?? id });
}
