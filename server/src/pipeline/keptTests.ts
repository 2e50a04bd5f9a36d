// The tests earlier runs of this person left in AMTP's own files, and the cases they came from: what
// a run compares with the files when it starts, to find tests deleted (decisionStage.ts) or changed
// (editedTests.ts) by hand.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
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
function keptTests(runs: RunRecord[]): Map<string, Map<string, string>> {
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

/**
 * What a run compares with AMTP's files when it starts: the tests earlier runs left (keptTests), each
 * file as it is now, and the cases those runs planned, each file read and parsed once and each run's
 * plan loaded once for both looks (deletions and edits by hand).
 */
export class KeptFiles {
  /** file → case id → the run that left the test */
  readonly kept: Map<string, Map<string, string>>;
  private readonly runs: Map<string, RunRecord>;
  private readonly files = new Map<string, Promise<Map<string, string> | undefined>>();
  private readonly plans = new Map<string, Promise<Map<string, TestCase>>>();

  constructor(
    private readonly store: RunStore,
    runs: RunRecord[],
    private readonly find: FindTests,
  ) {
    this.kept = keptTests(runs);
    this.runs = new Map(runs.map((r) => [r.id, r]));
  }

  /** Each case's test text in the file now; undefined when the file is gone or does not parse. */
  testsNow(file: string): Promise<Map<string, string> | undefined> {
    let got = this.files.get(file);
    if (!got) this.files.set(file, (got = this.read(file)));
    return got;
  }

  /** The text the run's verification left for the case's test (verification.keptTexts). */
  keptText(runId: string, file: string, caseId: string): string | undefined {
    return this.runs.get(runId)?.verification?.keptTexts?.find((k) => k.file === file && k.caseId === caseId)?.text;
  }

  /** The case as the run that planned it had it; undefined when that run or its plan is gone. */
  async plannedCase(runId: string, caseId: string): Promise<TestCase | undefined> {
    let plan = this.plans.get(runId);
    if (!plan) this.plans.set(runId, (plan = this.planOf(runId)));
    return (await plan).get(caseId);
  }

  private async read(file: string): Promise<Map<string, string> | undefined> {
    const text = await fsp.readFile(path.join(this.store.workspace, file), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const out = new Map<string, string>();
      for (const t of this.find(file, text)) out.set(t.caseId, [out.get(t.caseId), t.text].filter(Boolean).join('\n'));
      return out;
    } catch {
      return undefined; // a file that does not parse says nothing about what the person did to it
    }
  }

  private async planOf(runId: string): Promise<Map<string, TestCase>> {
    const run = await this.store.getRun(runId);
    const plan = run && (await testPlan(this.store, { ...run, decisions: undefined }).catch(() => undefined));
    return new Map((plan?.cases ?? []).map((c) => [c.id, c]));
  }
}

/** What a decision says about the case it is about: its target, behaviour and title, as the run that planned it had them. */
export function caseAbout(c: TestCase | undefined): Pick<TestDecision, 'target' | 'title'> {
  return c
    ? { target: { file: c.target.file, symbol: c.target.symbol, behavior: behaviorOf(c) }, title: oneLine(c.title, 300) }
    : { target: { file: '', symbol: '' } };
}
