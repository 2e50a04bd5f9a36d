import type { RunStore } from '../store/types';
import type { MutationRecord } from '../core/mutation';
import type {
  ApprovedDiffNote,
  BranchRecord,
  ConfidenceRecord,
  Confinement,
  RunDecisions,
  RunRecord,
  RunReuse,
  SearchTotals,
} from '../core/run';
import type { RunStatus } from '../core/status';
import type { RunHealth, RunUsage } from '../core/usage';
import { runHealth, runUsage } from '../usage/health';
import { isExistenceOnly } from '../agents/generator/existence';
import { isCharacterizationCase } from '../frameworks/header';
import { isSequenceCase } from '../search/case';
import { testPlan } from './testPlan';
import { EXIT } from '../core/exitCodes';
import { docIssuesOf, type RunDocIssue } from '../core/docIssues';

type CoverageRecord = NonNullable<NonNullable<RunRecord['verification']>['coverage']>;

/** The `--json` contract of the CLI (README.md, docs/ci.md). CI scripts parse this; add fields, never rename. */
export interface RunSummary {
  runId: string;
  status: RunStatus;
  reason?: string;
  activities: {
    agent: string;
    status: string;
    attempts: number;
    artifactId?: string;
    errors: { kind: string; message: string; details?: unknown }[];
  }[];
  /** `sequence`: a test of a generated call sequence (docs/search.md), also a characterization test */
  cases: {
    id: string;
    priority: string;
    title: string;
    kind?: string;
    existenceOnly?: boolean;
    characterization?: boolean;
    sequence?: boolean;
  }[];
  /** share (0..1) of planned cases that only check an export exists or its arity: never coverage of behaviour */
  existenceOnlyShare?: number;
  /** `acceptedKept`: tests the person accepted that this run would have changed, left as they were (the change was not approved) */
  files: { path: string; action: string; acceptedKept?: string[] }[];
  /** why the project's own test command does not run the written files, and the command that does */
  layoutNote?: string;
  approvals: { id: string; tool: string; risk: string; decision: string; target?: string; summary?: string }[];
  /** present once the run reached the verify stage (or skipped it, with the reason) */
  verification?: {
    status: string;
    reason?: string;
    /** AMTP's own module loader ran the tests: what the project's own command needs to run them */
    loaderNote?: string;
    /** runs required per test */
    runs: number;
    /** runner invocations made */
    executions: number;
    /** wall seconds of each verifier phase (run, judge, mutation, coverage, rewrite, confirm, …) */
    phases?: Record<string, number>;
    filters: { step: string; kept: number; dropped: number; quarantined?: number; names: string[]; skipped?: string; rule?: string }[];
    results: {
      caseId: string;
      outcome: 'passing' | 'flaky' | 'quarantined' | 'dropped' | 'failing';
      reason?: string;
      /** for a test the keep filter dropped: existence_only, unique_coverage or unique_coverage_or_kill */
      rule?: string;
      /** a test you accepted that this run wrote again as it was: run, never repaired, removed, quarantined or tidied (a failing one stays as it was) */
      accepted?: boolean;
      test?: string;
      file?: string;
    }[];
    /** the run record's figures without its coverage map (which stays there, for --lcov) */
    coverage: Omit<CoverageRecord, 'map'> & {
      /** set by --min-coverage: the statement target and whether the kept suite met it */
      target?: { min: number; met: boolean };
      /** files written by --lcov / --cobertura */
      written?: string[];
    };
    /** mutation analysis (docs/mutation.md): score per run and per file, what was not mutated, surviving mutants */
    mutation?: MutationRecord & {
      /** set by --min-mutation-score: the target and whether the kept suite met it */
      target?: { min: number; met: boolean };
    };
    quarantineFiles: string[];
    /** files a person approved with a diff that verification then took tests out of: the tests gone and why */
    afterApproval?: ApprovedDiffNote[];
    /** the project's own Prettier/ESLint (ruff, black) over the kept files: whether they pass, and what is left when not */
    style?: NonNullable<NonNullable<RunRecord['verification']>['style']>;
    /** documentation issues, apart from possible bugs: documented examples that throw, quarantined tests you answered "docs are wrong" (core/docIssues.ts) */
    docIssues: RunDocIssue[];
    unmet: { caseId: string; priority: string; title: string; reason?: string }[];
    repairs: { caseId: string; attempt: number; outcome: string; error?: string }[];
    /** coverage rounds after verification: functions they aimed at, batches (sessions), new tests written and kept */
    rounds?: { round: number; targets: number; batches: number; written: number; kept: number }[];
    roundsStopped?: string;
  };
  /** present once the characterize stage ran or was skipped (with the reason): pinned current behaviour, docs/characterization.md */
  characterization?: {
    status: string;
    reason?: string;
    /** functions with no documented result that were run */
    targets: number;
    /** characterization cases in the plan the engineer got */
    planned: number;
    /** existence-only cases they replaced */
    replaced: number;
    /** calls whose two runs agreed, disagreed, or could not be pinned */
    stable: number;
    unstable: number;
    unusable: number;
    /** characterization tests the verifier kept (passing every run); absent before verification */
    kept?: number;
    /** of those planned and kept, the tests of generated call sequences (docs/search.md) */
    sequences?: { planned: number; kept?: number };
    /** wall time of the stage */
    seconds?: number;
    /** modules whose result came from the cache: not characterized or searched again */
    cached?: number;
    /** what the search of call sequences did: its budget, runs, statements and branches reached */
    search?: SearchTotals;
    /** modules whose search the wall-clock safety stop ended early: what they kept depends on the machine's speed */
    clockCut?: string[];
  };
  /** how the workspace code the run executes (characterization, the test runs) is confined: network namespace or Node guard */
  confinement?: Confinement;
  /** present when the run was asked to commit (--commit): the branch made, or why not */
  branch?: BranchRecord;
  /** the person's earlier per-test decisions as this run applied them: cases held back, quarantine answers, deletions found */
  decisions?: RunDecisions;
  /** the confidence gate (docs/confidence.md): each kept test's confidence, and those below the threshold that wait for review */
  confidence?: ConfidenceRecord;
  /** tokens the endpoints reported, per agent and in total; costUsd with a price table */
  usage: RunUsage;
  /** per agent wall time, attempts, error ratio and tokens */
  health: RunHealth;
  /** wall seconds of each stage of the run (crawler, generator, characterize, engineer, write, verify, …) */
  timings?: Record<string, number>;
  /** an incremental run: the earlier run it started from, what changed, what the changes reached and what was reused */
  reuse?: RunReuse;
}

export async function summarize(run: RunRecord, store: RunStore): Promise<RunSummary> {
  const gen = run.activities.find((a) => a.agent === 'generator');
  let cases: RunSummary['cases'] = [];
  if (gen?.artifactId) {
    // The plan the engineer got: characterization cases in place of the existence checks they replaced.
    const content = await testPlan(store, run);
    // A smoke case whose written test calls its target checks behaviour (verifier/existenceChecks.ts).
    const behaviour = new Set(run.verification?.behaviourChecks ?? []);
    cases = content.cases.map((c) => ({
      id: c.id,
      priority: c.priority,
      title: c.title,
      kind: c.kind,
      existenceOnly: isExistenceOnly(c) && !behaviour.has(c.id),
      ...(isCharacterizationCase(c) ? { characterization: true } : {}),
      ...(isSequenceCase(c) ? { sequence: true } : {}),
    }));
  }
  const planned = run.activities.some((a) => a.agent === 'engineer' && a.artifactId)
    ? (await store.agentOutput(run, 'engineer')).layout_note
    : undefined;
  // Files the runner did not collect where they were written, found by running them (verifier/placePhase.ts).
  const found = (run.verification?.places ?? []).map((p) => `${p.reason}.`);
  const layoutNote = [planned, ...found].filter(Boolean).join(' ') || undefined;
  return {
    runId: run.id,
    status: run.status,
    reason: run.reason,
    activities: run.activities.map((a) => ({
      agent: a.agent,
      status: a.status,
      attempts: a.attempts,
      artifactId: a.artifactId,
      errors: a.errors.map((e) => ({ kind: e.kind, message: e.message, ...(e.details ? { details: e.details } : {}) })),
    })),
    cases,
    ...(cases.length ? { existenceOnlyShare: Math.round((cases.filter((c) => c.existenceOnly).length / cases.length) * 1000) / 1000 } : {}),
    files: run.files.map(fileSummary),
    ...(layoutNote ? { layoutNote } : {}),
    approvals: run.approvals.map((a) => ({
      id: a.id,
      tool: a.tool,
      risk: a.risk,
      decision: a.decision,
      target: a.target,
      summary: a.summary,
    })),
    ...(run.verification ? { verification: verificationSummary(run.verification, run) } : {}),
    ...(run.characterization ? { characterization: characterizationSummary(run, cases) } : {}),
    ...confinementOf(run),
    ...(run.branch ? { branch: { ...run.branch, files: [...run.branch.files] } } : {}),
    ...(run.decisions ? { decisions: structuredClone(run.decisions) } : {}),
    ...(run.confidence ? { confidence: structuredClone(run.confidence) } : {}),
    usage: runUsage(run),
    health: runHealth(run),
    ...(run.timings ? { timings: { ...run.timings } } : {}),
    ...(run.reuse ? { reuse: structuredClone(run.reuse) } : {}),
  };
}

/** A written file, and the accepted tests the run left as they were (the change was not approved). */
function fileSummary(f: RunRecord['files'][number]): RunSummary['files'][number] {
  return { path: f.path, action: f.action, ...(f.acceptedKept?.length ? { acceptedKept: [...f.acceptedKept] } : {}) };
}

function confinementOf(run: RunRecord): Pick<RunSummary, 'confinement'> {
  const c = run.verification?.confinement ?? run.characterization?.confinement;
  return c ? { confinement: { ...c } } : {};
}

function characterizationSummary(run: RunRecord, cases: RunSummary['cases']): NonNullable<RunSummary['characterization']> {
  const c = run.characterization!;
  const ids = new Set(cases.filter((x) => x.characterization).map((x) => x.id));
  const seq = new Set(cases.filter((x) => x.sequence).map((x) => x.id));
  const v = run.verification?.status === 'done' ? run.verification : undefined;
  const keptOf = (set: Set<string>) => v!.results.filter((r) => set.has(r.caseId) && r.outcome === 'passing').length;
  return {
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    targets: c.targets,
    planned: ids.size,
    replaced: c.replaced,
    stable: c.stable,
    unstable: c.unstable,
    unusable: c.unusable,
    ...(v ? { kept: keptOf(ids) } : {}),
    ...(c.search ? { sequences: { planned: seq.size, ...(v ? { kept: keptOf(seq) } : {}) } } : {}),
    ...(c.seconds !== undefined ? { seconds: c.seconds } : {}),
    ...(c.cached ? { cached: c.cached } : {}),
    ...(c.search ? { search: c.search } : {}),
    ...(c.clockCut?.length ? { clockCut: c.clockCut } : {}),
  };
}

// The coverage map stays in the run record (for --lcov); the summary carries the figures only.
function coverageSummary(c: NonNullable<RunRecord['verification']>['coverage']): NonNullable<RunSummary['verification']>['coverage'] {
  const { map: _map, ...figures } = c ?? {};
  return figures;
}

function verificationSummary(v: NonNullable<RunRecord['verification']>, run: RunRecord): NonNullable<RunSummary['verification']> {
  return {
    status: v.status,
    reason: v.reason,
    ...(v.loaderNote ? { loaderNote: v.loaderNote } : {}),
    runs: v.runs,
    executions: v.executions,
    ...(v.phases ? { phases: { ...v.phases } } : {}),
    filters: v.filters.map((f) => ({ ...f })),
    results: v.results.map((r) => ({
      caseId: r.caseId,
      outcome: r.outcome,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.rule ? { rule: r.rule } : {}),
      ...(r.accepted ? { accepted: true } : {}),
      ...(r.test ? { test: r.test } : {}),
      ...(r.file ? { file: r.file } : {}),
    })),
    coverage: coverageSummary(v.coverage),
    ...(v.mutation ? { mutation: structuredClone(v.mutation) } : {}),
    quarantineFiles: v.quarantineFiles,
    ...(v.afterApproval?.length ? { afterApproval: structuredClone(v.afterApproval) } : {}),
    ...(v.style ? { style: v.style } : {}),
    docIssues: docIssuesOf(run),
    unmet: v.unmet,
    repairs: v.repairs.map((r) => ({ caseId: r.caseId, attempt: r.attempt, outcome: r.outcome, ...(r.error ? { error: r.error } : {}) })),
    ...(v.rounds
      ? {
          rounds: v.rounds.map((r) => ({
            round: r.round,
            targets: r.targets,
            batches: r.batches.filter((b) => b.status !== 'skipped').length,
            written: r.batches.reduce((n, b) => n + b.written, 0),
            kept: r.kept,
          })),
        }
      : {}),
    ...(v.roundsStopped ? { roundsStopped: v.roundsStopped } : {}),
  };
}

/** 130 = 128 + SIGINT: the shell convention for a command stopped by Ctrl-C. */

export function exitCodeFor(status: RunStatus): number {
  switch (status) {
    case 'completed':
      return EXIT.ok;
    case 'needs_review':
      return EXIT.needsReview;
    case 'awaiting_input':
      return EXIT.awaitingInput;
    default:
      return EXIT.failed; // failed, cancelled, awaiting_approval (no TTY)
  }
}
