// The Test Cases tree as plain data: runs → target files → cases. No 'vscode' import, so the
// grouping, ordering and status rules are unit-tested without an extension host.
import type * as P from '../../../server/src/protocol';
import { formatAgentHealth, formatRunHealth, formatRunUsage, formatUsd } from '../../../server/src/core/usageFormat';
import { describeTally, isKept, runTally } from './runTally';

export type CaseOutcome = 'passing' | 'failing';

/** `folder`: the workspace folder the run belongs to (its key), set when the model has one (multi-root). */
export type TreeNode =
  | { kind: 'run'; runId: string; run: P.RunView; folder?: string }
  | { kind: 'file'; runId: string; file: string; cases: P.CaseView[]; folder?: string }
  | { kind: 'case'; runId: string; case: P.CaseView; folder?: string };

type Listener = () => void;

/** Which cases the Test Cases tree shows (the view's filter). */
export type CaseFilter = 'all' | 'kept' | 'quarantined' | 'dropped';

const FILTERS: Record<CaseFilter, (c: P.CaseView) => boolean> = {
  all: () => true,
  kept: isKept,
  quarantined: (c) => c.status === 'quarantined',
  dropped: (c) => c.status === 'dropped' || c.status === 'not_written',
};

/** Kept tests first, then quarantined, then what is not in a file (planned, not written, dropped). */
const STATUS_ORDER: Record<P.CaseStatus, number> = {
  failing: 0,
  flaky: 0,
  passing: 0,
  written: 0,
  quarantined: 1,
  planned: 2,
  not_written: 3,
  dropped: 3,
};

const PRIORITY_ORDER: Record<P.CaseView['priority'], number> = { P0: 0, P1: 1, P2: 2, P3: 3 };

export class RunsModel {
  private readonly runs = new Map<string, P.RunView>();
  /** test results the client observed; they outlive server updates that still say 'written' */
  private readonly outcomes = new Map<string, Map<string, CaseOutcome>>();
  private readonly listeners = new Set<Listener>();
  private caseFilter: CaseFilter = 'all';
  /** stamped on every node, so a command from the tree reaches this folder's server */
  private readonly stamp: { folder?: string };

  /** `folder`: the key of the workspace folder whose runs these are (none in single-model tests). */
  constructor(folder?: string) {
    this.stamp = folder === undefined ? {} : { folder };
  }

  get filter(): CaseFilter {
    return this.caseFilter;
  }

  setFilter(filter: CaseFilter): void {
    this.caseFilter = filter;
    this.fire();
  }

  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(): void {
    for (const l of [...this.listeners]) l();
  }

  /** Replaces a run with the server's latest view of it (amtp/runChanged, amtp/runs). */
  upsert(run: P.RunView): void {
    this.runs.set(run.runId, run);
    this.fire();
  }

  replaceAll(runs: P.RunView[]): void {
    this.runs.clear();
    for (const r of runs) this.runs.set(r.runId, r);
    this.fire();
  }

  get(runId: string): P.RunView | undefined {
    const run = this.runs.get(runId);
    return run && this.withOutcomes(run);
  }

  /** Newest first, by createdAt then id (ids embed a timestamp). */
  list(): P.RunView[] {
    return [...this.runs.values()]
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.runId.localeCompare(a.runId))
      .map((r) => this.withOutcomes(r));
  }

  latest(): P.RunView | undefined {
    return this.list()[0];
  }

  /** The run the status bar shows: the newest one still running, else the newest. */
  active(): P.RunView | undefined {
    const all = this.list();
    return all.find((r) => r.status === 'running') ?? all[0];
  }

  /** Records test results by case id; unknown ids are ignored. */
  applyResults(runId: string, results: Map<string, CaseOutcome>): void {
    const run = this.runs.get(runId);
    if (!run) return;
    const known = new Set(run.cases.map((c) => c.id));
    const mine = this.outcomes.get(runId) ?? new Map<string, CaseOutcome>();
    for (const [id, outcome] of results) if (known.has(id)) mine.set(id, outcome);
    this.outcomes.set(runId, mine);
    this.fire();
  }

  private withOutcomes(run: P.RunView): P.RunView {
    const mine = this.outcomes.get(run.runId);
    if (!mine || mine.size === 0) return run;
    return {
      ...run,
      cases: run.cases.map((c) => {
        const o = mine.get(c.id);
        // A case the engineer did not write cannot pass; keep the server's word for it.
        return o && c.status !== 'not_written' && c.status !== 'planned' ? { ...c, status: o } : c;
      }),
    };
  }

  /** The tree's node for a run (TreeView.reveal and a node's parent), or undefined when unknown. */
  runNode(runId: string): TreeNode | undefined {
    const run = this.get(runId);
    return run && { kind: 'run', runId, run, ...this.stamp };
  }

  roots(): TreeNode[] {
    return this.list().map((run) => ({ kind: 'run', runId: run.runId, run, ...this.stamp }));
  }

  children(node: TreeNode): TreeNode[] {
    if (node.kind === 'case') return [];
    if (node.kind === 'file') return node.cases.map((c) => ({ kind: 'case', runId: node.runId, case: c, ...this.stamp }));
    const run = this.get(node.runId) ?? node.run;
    return groupByTarget(run.cases.filter(FILTERS[this.caseFilter])).map(([file, cases]) => ({
      kind: 'file',
      runId: run.runId,
      file,
      cases,
      ...this.stamp,
    }));
  }
}

/** Cases grouped by target file (sorted by path), each group kept tests first, then by priority and title. */
export function groupByTarget(cases: P.CaseView[]): [string, P.CaseView[]][] {
  const groups = new Map<string, P.CaseView[]>();
  for (const c of cases) {
    const key = c.target.file || '(no file)';
    const list = groups.get(key) ?? [];
    list.push(c);
    groups.set(key, list);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([file, list]) => [file, [...list].sort(compareCases)]);
}

function compareCases(a: P.CaseView, b: P.CaseView): number {
  return (
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
    PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] ||
    a.title.localeCompare(b.title) ||
    a.id.localeCompare(b.id)
  );
}

/** One line for a run: "completed · 12 tests kept in 3 files · 2 not written (14 planned)". */
export function describeRun(run: P.RunView): string {
  const t = runTally(run);
  // While it runs nothing is kept yet: what it has planned so far.
  if (run.status === 'running') return `${run.stage} · running · ${t.planned} planned${describeTokens(run)}`;
  return `${run.status} · ${describeTally(t)}${describeTokens(run)}`;
}

/** " · 3702+1701 tokens · $0.0016" when a model was asked anything (the offline provider spends none). */
function describeTokens(run: P.RunView): string {
  const u = run.usage;
  if (!u || u.total.promptTokens + u.total.completionTokens === 0) return '';
  return ` · ${u.total.promptTokens}+${u.total.completionTokens} tokens${u.costUsd !== undefined ? ` · ${formatUsd(u.costUsd)}` : ''}`;
}

/** The run's usage and health, one line each (the run's tooltip in the Test Cases view). */
export function runHealthLines(run: P.RunView): string[] {
  const lines: string[] = [];
  if (run.usage) lines.push(`tokens: ${formatRunUsage(run.usage)}`);
  if (run.health) lines.push(formatRunHealth(run.health), ...run.health.agents.map(formatAgentHealth));
  return lines;
}

/** The case's description in the tree: priority, whether it pins current behaviour, status and, when there is one, the reason. */
export function describeCase(c: P.CaseView): string {
  const waits = c.awaitingReview ? ` · waits for your review (confidence ${c.confidence})` : '';
  return `${c.priority}${c.pinned ? ' · pins current behaviour' : ''} · ${c.status.replace('_', ' ')}${waits}${c.reason ? ` — ${c.reason}` : ''}`;
}

/** What a characterization case's tooltip says it is, so it is never read as documented behaviour or a possible bug. */
export const PINNED_NOTE =
  'pins current behaviour: the expected value is what the code did when AMTP ran it, not what its docs promise; a failure means the code changed (or the test is flaky), never a possible bug';

/** The tree icon of a case: a pin for a characterization case that is planned, written or passing; otherwise its status icon. */
export function caseIcon(c: P.CaseView, statusIcon: string): string {
  return c.pinned && (c.status === 'planned' || c.status === 'written' || c.status === 'passing') ? 'pinned' : statusIcon;
}

/** What the person's earlier decisions did in the run: a "docs are wrong" answer is a documentation issue, reported. */
export function decisionLines(run: P.RunView): string[] {
  const d = run.decisions;
  if (!d) return [];
  const title = (id: string) => run.cases.find((c) => c.id === id)?.title ?? id;
  return [
    ...d.answered
      .filter((a) => a.verdict === 'docs_wrong')
      .map((a) => `documentation issue (you said the docs are wrong): ${title(a.caseId)}${a.reason ? ` — ${a.reason}` : ''}`),
    ...(d.heldBack.length ? [`held back by your decisions: ${d.heldBack.length} test(s) not written again`] : []),
    ...(run.confidence?.awaiting
      ? [`${run.confidence.awaiting} kept test(s) below confidence ${run.confidence.threshold} wait for your review`]
      : []),
  ];
}

/** What the verifier found, for the run's tooltip: coverage over the package's product files, untested files, the loader note, documentation issues. */
export function verificationLines(run: P.RunView): string[] {
  const v = run.verification;
  const decided = decisionLines(run);
  if (!v) return decided;
  const lines: string[] = [...decided];
  const c = v.coverage;
  if (c?.statements !== undefined)
    lines.push(
      `coverage: statements ${c.statements}%${c.branches !== undefined ? `, branches ${c.branches}%` : ''}${c.productFiles ? ` over ${c.productFiles} product file(s)` : ''}`,
    );
  if (c?.untestedFiles?.length)
    lines.push(
      `${c.untestedFiles.length} product file(s) have no test at all: ${c.untestedFiles.slice(0, 5).join(', ')}${c.untestedFiles.length > 5 ? ', …' : ''}`,
    );
  if (v.loaderNote) lines.push(`loader: ${v.loaderNote}`);
  // A "docs are wrong" answer an earlier decision gave is already a line of decisionLines.
  const answered = new Set(run.decisions?.answered.map((a) => a.caseId));
  const issues = (v.docIssues ?? []).filter((d) => d.reportedBy !== 'person' || !answered.has(d.caseId));
  if (issues.length) lines.push(`documentation issues: ${issues.map(docIssueText).join('; ')}`);
  return lines;
}

/** One documentation issue: the call that throws, or the documented value against what the code returned as the person reported it. */
function docIssueText(d: NonNullable<NonNullable<P.RunView['verification']>['docIssues']>[number]): string {
  if (d.error) return `${d.call} throws ${d.error}`;
  const returns = d.actual !== undefined ? `, returns ${d.actual}` : '';
  return `${d.call}: documented ${d.documented}${returns} (you said the docs are wrong${d.note ? `: ${d.note}` : ''})`;
}
