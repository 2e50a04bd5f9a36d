// Incremental runs (docs/architecture.md, "Incremental runs"). Every run keeps the content hash of
// each source file it started from (`RunRecord.sources`). A new `amtp generate` with the same settings
// as the latest run with them compares the workspace with it, when that run finished all it set out
// to do (unfinishedWork, below):
// - nothing changed (sources, AMTP's kept test files, the person's decisions and lessons): the earlier
//   run's results stand; a run record says so and nothing runs;
// - some files changed: the run is scoped to what the change reaches, the changed files and every
//   file that imports one of them, directly or not (their pinned behaviour may have moved with it).
//   It re-crawls, re-plans, re-characterizes and re-verifies those only; their AMTP test files are
//   merged (pipeline/writePlan.ts), every other kept test stays as it is;
// - no such earlier run, one another AMTP made (an upgrade or a rebuild), `--full`, or too much
//   changed to gain anything: a full run.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../core/canonical';
import { AMTP_ENGINE } from '../core/engine';
import { type RunParams, type RunRecord, type RunReuse, WRITTEN_ACTIONS } from '../core/run';
import type { RunScope } from '../core/scope';
import { walkTree } from '../mcp/walk';
import type { RunStore } from '../store/types';
import { isTestPath, reachedBy } from '../util/importGraph';

const SOURCE = /\.(?:[cm]?[jt]sx?|py)$/;
/** Beyond this many source files hashing costs more than a scoped run saves: always a full run. */
const MAX_FILES = 20_000;

export type IncrementalPlan =
  | { kind: 'full'; why: string }
  | { kind: 'unchanged'; from: RunRecord; reuse: RunReuse }
  | { kind: 'scoped'; scope: RunScope; reuse: RunReuse };

/** The content hash of every source file of the workspace (tests included), by workspace-relative path; undefined when too many. */
export function sourceHashes(ws: string): Record<string, string> | undefined {
  const walk = walkTree(ws, { sizes: false });
  const files = walk.entries.filter((e) => e.type === 'file' && SOURCE.test(e.path)).map((e) => e.path);
  if (files.length > MAX_FILES || walk.truncated) return undefined;
  const out: Record<string, string> = {};
  for (const f of files.sort()) {
    try {
      out[f] = createHash('sha1')
        .update(readFileSync(`${ws}/${f}`))
        .digest('hex');
    } catch {
      // Unreadable now: it counts as changed against a run that read it.
    }
  }
  return out;
}

/**
 * What of the run's settings must match for its results to stand: everything but what says which
 * part of the workspace a run is about and what is taken fresh at every start (the person's decisions
 * and lessons are compared on their own, below).
 */
export function settingsKey(p: RunParams): string {
  const { scope: _s, decided: _d, lessons: _l, prices: _p, pricesAsOf: _a, commit: _c, ...rest } = p;
  return canonicalJson(rest);
}

/** Decisions and lessons that act on a run, as a comparable text (dates and detection of deletions aside). */
function decisionsKey(p: RunParams): string {
  const decided = (p.decided?.decisions ?? []).map((d) => `${d.caseId}:${d.verdict}:${d.sourceHash ?? ''}`).sort();
  const lessons = (p.lessons ?? []).map((l) => `${l.id}:${l.source}:${l.file ?? ''}:${l.text}`).sort();
  return JSON.stringify({ decided, lessons, detected: [...(p.decided?.detected ?? [])].sort() });
}

/**
 * The plan for a run with `params` (decisions and lessons already taken: pipeline/orchestrator.ts prepareParams)
 * given the workspace's `sources` now and this person's runs in `store`.
 */
export async function planIncremental(
  store: RunStore,
  params: RunParams,
  sources: Record<string, string> | undefined,
): Promise<IncrementalPlan> {
  if (params.scope) return { kind: 'full', why: 'the run is scoped by --only / --changed-since' };
  if (!sources) return { kind: 'full', why: `more than ${MAX_FILES} source files` };
  const key = settingsKey(params);
  // The latest run with these settings is the one to compare with: an older one's results may have
  // been undone since (a test dropped in review, then its decision forgotten).
  const earlier = (await store.listRuns())
    .filter((r) => settingsKey(r.params) === key)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .pop();
  if (!earlier) return { kind: 'full', why: 'no earlier run with the same settings' };
  if (earlier.engine !== AMTP_ENGINE)
    return {
      kind: 'full',
      why: `the earlier run ${earlier.id} was made by ${earlier.engine ? `AMTP ${earlier.engine}` : 'an older AMTP'}; this is AMTP ${AMTP_ENGINE}`,
    };
  const unfinished = unfinishedWork(earlier);
  if (unfinished) return { kind: 'full', why: `the earlier run ${earlier.id} ${unfinished}` };
  const before = earlier.sources!;
  const changed = Object.keys(sources).filter((f) => before[f] !== sources[f]);
  const removed = Object.keys(before).filter((f) => !(f in sources));
  const base = { from: earlier.id, changed, removed };
  const sameDecisions = decisionsKey(earlier.params) === decisionsKey(params);
  if (!changed.length && !removed.length && sameDecisions)
    return { kind: 'unchanged', from: earlier, reuse: { ...base, reached: [], reused: productCount(sources), unchanged: true } };
  if (!sameDecisions) return { kind: 'full', why: 'your decisions or lessons changed since the earlier run' };
  const tests = new Set(earlier.files.map((f) => f.path));
  // A change to a test file AMTP wrote is the person's edit (decisions see it); a change to another test file reaches nothing.
  const product = changed.filter((f) => !tests.has(f) && !isTestPath(f));
  const reached = reachedBy(store.workspace, sources, product);
  if (!reached.length && removed.every((f) => isTestPath(f) || tests.has(f)))
    return { kind: 'unchanged', from: earlier, reuse: { ...base, reached: [], reused: productCount(sources), unchanged: true } };
  if (!reached.length) return { kind: 'full', why: `source files were removed (${removed.join(', ')})` };
  // A scoped run gates only the tests it verifies: the earlier run's other tests would stop waiting for review.
  if (earlier.status === 'awaiting_input') return { kind: 'full', why: `tests of the earlier run ${earlier.id} still wait for review` };
  const reuse: RunReuse = { ...base, reached, reused: Math.max(0, productCount(sources) - reached.length) };
  return { kind: 'scoped', scope: { files: reached.map((path) => ({ path })) }, reuse };
}

/**
 * Why a run's results are not on disk as it meant them (so they cannot stand for a new run), or
 * undefined when they are: it finished, wrote every file and ran what it set out to run. A person's
 * "no" to any of its actions is asked again by a new run, not carried over as a result.
 */
function unfinishedWork(r: RunRecord): string | undefined {
  // A run that ended needs_review after its verification (an unmet P0/P1 goal) left its results on disk as well,
  // and so did one whose low-confidence tests wait for review (the new run waits for the same review).
  const verified = r.verification?.status === 'done';
  const ended = r.status === 'completed' || ((r.status === 'needs_review' || r.status === 'awaiting_input') && verified);
  if (!ended) return `ended ${r.status}`;
  if (!r.sources) return 'kept no source hashes (a recorded or scoped run)';
  if (r.approvals.some((a) => a.decision === 'rejected')) return 'had an action rejected';
  const unwritten = r.files.find((f) => !WRITTEN_ACTIONS.has(f.action));
  if (unwritten) return `left ${unwritten.path} ${unwritten.action}`;
  if (r.verification && r.verification.status !== 'done' && r.verification.status !== 'skipped')
    return `has verification ${r.verification.status}`;
  if (r.characterization && r.characterization.status !== 'done' && r.characterization.status !== 'skipped')
    return `has characterization ${r.characterization.status}`;
  return undefined;
}

function productCount(sources: Record<string, string>): number {
  return Object.keys(sources).filter((f) => !isTestPath(f)).length;
}
