// The tests earlier runs of this person left in AMTP's own files, and the cases they came from: what
// a run compares with the files when it starts, to find tests deleted (decisionStage.ts) or changed
// (editedTests.ts) by hand.
import { isWritten, type RunRecord } from '../core/run';
import type { TestCase } from '../contracts/types';
import type { RunStore } from '../store/types';
import { behaviorOf, oneLine, type TestDecision } from './decisions';
import { testPlan } from './testPlan';

/** The tests in a test file, by case id with their text, on its syntax tree (verifier/testFile.ts findTests); throws when it does not parse. */
export type FindTests = (path: string, content: string) => { caseId: string; text: string }[];

/**
 * Each file's tests that AMTP left there, by case id with the run that left it. Runs are read oldest
 * first and the latest run that wrote a case decides: a test a later run's verifier dropped or a later
 * run held back is not "deleted by hand", and a run whose verification has not settled says nothing.
 */
export function keptTests(runs: RunRecord[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const run of runs) {
    const v = run.verification;
    const settled = v ? v.status === 'done' || v.status === 'skipped' : run.status === 'completed';
    for (const f of run.files) {
      if (!isWritten(f.action)) continue;
      const ids = out.get(f.path) ?? new Map<string, string>();
      const passing = new Set(
        v?.status === 'done'
          ? v.results.filter((r) => r.outcome === 'passing' && (r.file ?? f.path) === f.path).map((r) => r.caseId)
          : f.caseIds,
      );
      for (const id of f.caseIds) {
        if (settled && passing.has(id)) ids.set(id, run.id);
        else ids.delete(id);
      }
      out.set(f.path, ids);
    }
    // A case a later run held back is no test of AMTP's any more: once its decision is forgotten, it may come back.
    for (const h of run.decisions?.heldBack ?? []) for (const ids of out.values()) ids.delete(h.caseId);
  }
  return out;
}

/** The case as the run that planned it had it; undefined when that run or its plan is gone. */
export async function plannedCase(store: RunStore, runId: string, caseId: string): Promise<TestCase | undefined> {
  const run = await store.getRun(runId);
  const plan = run && (await testPlan(store, { ...run, decisions: undefined }).catch(() => undefined));
  return plan?.cases.find((x) => x.id === caseId);
}

/** What a decision says about the case it is about: its target, behaviour and title, as the run that planned it had them. */
export async function caseAbout(store: RunStore, runId: string, caseId: string): Promise<Pick<TestDecision, 'target' | 'title'>> {
  const c = await plannedCase(store, runId, caseId);
  return c
    ? { target: { file: c.target.file, symbol: c.target.symbol, behavior: behaviorOf(c) }, title: oneLine(c.title, 300) }
    : { target: { file: '', symbol: '' } };
}
