// Phase "judge": what each failure means. A test that does not load, or fails every run, is either a
// possible bug (quarantined) or a wrong test: repaired in fresh LLM sessions (repairLoop.ts), or,
// offline / with repairs off, dropped with its reason. Nothing is dropped without one.
import { classifyFailure, meaningfulLine } from './classify';
import type { Observation } from './execute';
import { repairLoop, type RepairOutcome } from './repairLoop';
import { settle } from './runPhase';
import { drop, nameOf, type LoadFailure, type TestFileState, type VerifyState } from './state';
import { findTests, testSource } from './testFile';

export async function judgePhase(s: VerifyState): Promise<void> {
  for (const failure of s.loadFailures) await judgeLoadFailure(s, failure);
  await judgeFailures(s);
}

function canRepair(s: VerifyState): boolean {
  return s.ctx.provider.name !== 'offline' && s.ctx.params.repairAttempts > 0;
}

function noRepairWhy(s: VerifyState): string {
  return s.ctx.provider.name === 'offline' ? 'the offline provider has no repair engine' : 'repairs are off';
}

/**
 * A file that does not load: the test the error points at (by line) is repaired, else the file's first.
 * Once the file loads, its other tests are run N times like any other.
 */
async function judgeLoadFailure(s: VerifyState, f: LoadFailure): Promise<void> {
  const line = meaningfulLine(f.message);
  if (!canRepair(s)) {
    for (const id of f.ids) drop(s, id, 'loads', `does not load: ${line} (${noRepairWhy(s)})`);
    return;
  }
  const culprit = culpritOf(f);
  const outcome = await repairLoop(s, f.file, culprit, f.message);
  record(s, f.file, culprit, outcome, 'loads', `does not load: ${line}; `);
  const others = f.ids.filter((id) => id !== culprit);
  if (outcome.kind !== 'fixed') {
    for (const id of others) drop(s, id, 'loads', `does not load: ${line}`);
    return;
  }
  if (!others.length) return;
  const seen = new Map<string, Observation[]>(others.map((id) => [id, []]));
  for (let r = 1; r <= s.ctx.params.runs; r++) {
    const { obs } = await s.runner.run(f.file.path, others);
    for (const id of others) seen.get(id)!.push(obs.get(id)!);
  }
  await s.flushPids();
  for (const id of others) settle(s, f.file, id, seen.get(id)!);
  await judgeFailures(s);
}

/** The test whose lines hold the error's `file:line`, else the first test of the file. */
function culpritOf(f: LoadFailure): string {
  const base = f.file.path
    .split('/')
    .pop()!
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = new RegExp(`${base}:(\\d+)`).exec(f.message);
  if (at) {
    const line = Number(at[1]);
    for (const t of findTests(f.file.path, f.file.content)) {
      const first = f.file.content.slice(0, t.start).split('\n').length;
      const last = f.file.content.slice(0, t.end).split('\n').length;
      if (f.ids.includes(t.caseId) && line >= first && line <= last) return t.caseId;
    }
  }
  return f.ids[0];
}

/** Tests that fail every run: possible bug → quarantine; otherwise repair, or drop with the reason. */
async function judgeFailures(s: VerifyState): Promise<void> {
  const failing = [...s.failing];
  s.failing.clear();
  for (const [id, { file, message }] of failing) {
    const verdict = classifyFailure({
      framework: s.ctx.plan.framework,
      testCase: s.caseOf.get(id),
      testText: testSource(file.path, file.content, id),
      fileText: file.content,
      message,
    });
    if (verdict.kind === 'possible_bug') {
      s.results.set(id, { caseId: id, outcome: 'quarantined', step: 'passes_every_run', reason: verdict.reason, test: nameOf(s, id) });
    } else if (verdict.kind === 'doc_issue') {
      // The documented example itself throws: no repair can make the docs' value true; reported apart.
      const test = nameOf(s, id);
      s.results.set(id, {
        caseId: id,
        outcome: 'dropped',
        step: 'passes_every_run',
        reason: verdict.reason,
        test,
        docIssue: verdict.docIssue,
      });
    } else if (!canRepair(s)) {
      drop(s, id, 'passes_every_run', `${verdict.reason} (${noRepairWhy(s)})`);
    } else {
      record(s, file, id, await repairLoop(s, file, id, message), 'passes_every_run', '');
    }
  }
}

/** A repaired test passed N runs alone: it joins the stable tests (the coverage filter still applies). */
function record(
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
