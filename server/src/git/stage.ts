// The 'branch' stage, after 'verify', only when the run was asked to commit (--commit): a new
// branch named from the engineer's PR metadata, with one commit of exactly the files the run kept.
// `git.branch` is high risk, so it waits for a person like a file overwrite. Re-entrant: a branch
// this run already created (its commit carries the run id) is adopted, never made twice.
import type { EngineerOutput } from '../contracts/types';
import { sha256 } from '../core/canonical';
import type { BranchRecord, RunRecord } from '../core/run';
import type { GatewayResult, ToolCallInfo } from '../gateway/gateway';
import type { Stage, StageContext } from '../pipeline/stage';
import { branchNameFor } from './branchName';
import { branchTip, commitOnNewBranch, ignoredPaths, repoOf, type CommitFile } from './commit';
import { readKept } from './keptFiles';

const FINAL = new Set<BranchRecord['status']>(['created', 'skipped', 'rejected']);

type Settle = (b: BranchRecord, status?: Pick<RunRecord, 'status' | 'reason'>) => Promise<unknown>;

export const branchStage: Stage = async (ctx) => {
  const run = ctx.state.run;
  // A run that stopped (needs review, waiting, failed) gets no branch.
  if (!run.params.commit || run.status !== 'running') return;
  if (run.branch && FINAL.has(run.branch.status)) return;
  const settle: Settle = (b, status) =>
    ctx.save((r) => {
      r.branch = b;
      if (status) Object.assign(r, status);
    });

  const repo = await repoOf(ctx.deps.workspace);
  if ('cannot' in repo) return void (await settle({ status: 'skipped', reason: repo.cannot, files: [] }));
  const { files, note } = await committableFiles(ctx.deps.workspace, repo.root, run);
  if (!files.length)
    return void (await settle({ status: 'skipped', reason: `no kept file to commit${note || ' (none is on disk)'}`, files: [] }));

  const engineer = await engineerOutput(ctx);
  const pr = engineer.pr;
  const { name, exists } = await branchNameFor(repo.root, pr.branch, run.id, async (n) => {
    const tip = await branchTip(repo.root, n);
    return !tip ? 'free' : trailer(tip.message) === run.id ? 'this-run' : 'other';
  });
  const made: BranchRecord = {
    status: 'created',
    name,
    base: repo.head,
    files: files.map((f) => f.path),
    title: pr.title,
    labels: pr.labels,
  };
  if (exists) return void (await settle({ ...made, commit: (await branchTip(repo.root, name))!.commit }));

  const result = await ctx.gateway
    .execute('git.branch', branchRequest(run.id, pr, name, repo.head, files, note), () =>
      commitOnNewBranch(repo.root, repo.head, name, files, commitMessage(pr, run.id)),
    )
    .catch((e: Error) => ({ failed: e.message }) as const);
  await settleBranch(settle, made, run.id, result);
};

/** The kept files git does not ignore, and a note naming the ones it does (they are left out). */
async function committableFiles(workspace: string, root: string, run: RunRecord): Promise<{ files: CommitFile[]; note: string }> {
  const all = await readKept(workspace, root, run);
  const ignored = await ignoredPaths(
    root,
    all.map((f) => f.path),
  );
  const files = all.filter((f) => !ignored.has(f.path));
  const note = ignored.size ? ` (left out, git ignores them: ${[...ignored].join(', ')})` : '';
  return { files, note };
}

function branchRequest(
  runId: string,
  pr: EngineerOutput['pr'],
  name: string,
  head: string,
  files: CommitFile[],
  note: string,
): ToolCallInfo {
  return {
    summary: `Create branch ${name} on ${head.slice(0, 10)} with one commit "${pr.title}" of ${files.length} file(s): ${files.map((f) => f.path).join(', ')}${note}. Nothing is pushed; your checkout, staged changes and working tree are left as they are. No git hook runs, nor any command the repository's git config names (hooks, fsmonitor and filters are switched off).`,
    target: name,
    // Stable across resumes: `amtp approve` decides this same request when the bytes are unchanged.
    approvalId:
      'ap_' +
      sha256(`${runId}\ngit.branch\n${pr.branch}\n${files.map((f) => `${f.path}:${sha256(f.bytes.toString('base64'))}`).join('\n')}`).slice(
        0,
        24,
      ),
  };
}

/** Records how the `git.branch` call ended: created, nothing to commit, failed, waiting for approval or refused. */
async function settleBranch(
  settle: Settle,
  made: BranchRecord,
  runId: string,
  result: GatewayResult<string | undefined> | { failed: string },
): Promise<void> {
  if ('failed' in result) {
    const reason = `the tests are written, but the branch could not be created: ${result.failed}`;
    return void (await settle({ ...made, status: 'failed', reason, name: undefined }, { status: 'failed', reason }));
  }
  if (result.ran) {
    if (!result.value)
      return void (await settle({
        ...made,
        status: 'skipped',
        reason: 'the kept files are already committed as they are on HEAD',
        name: undefined,
      }));
    return void (await settle({ ...made, commit: result.value }));
  }
  const decision = result.approval.decision;
  if (decision === 'pending') {
    const reason = `the branch waits for approval: amtp approve ${runId} [--reject]`;
    return void (await settle({ ...made, status: 'awaiting_approval', reason, name: undefined }, { status: 'awaiting_approval', reason }));
  }
  await settle({
    ...made,
    status: 'rejected',
    reason: `creating the branch was ${decision === 'timeout' ? 'not approved in time' : 'rejected'}: nothing was committed`,
    name: undefined,
  });
}

async function engineerOutput(ctx: StageContext): Promise<EngineerOutput> {
  const id = ctx.state.run.activities.find((a) => a.agent === 'engineer')!.artifactId!;
  return (await ctx.deps.store.getArtifact(ctx.state.run.id, id)).content as unknown as EngineerOutput;
}

/** Title, body, then git trailers: the run (to recognise this run's branch on resume) and the PR labels. */
export function commitMessage(pr: EngineerOutput['pr'], runId: string): string {
  // Title and labels are model-written: one line each, so they cannot forge a subject or a trailer.
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  const labels = pr.labels.map(oneLine).filter(Boolean);
  const trailers = [`AMTP-Run: ${runId}`, ...(labels.length ? [`AMTP-Labels: ${labels.join(', ')}`] : [])];
  return `${oneLine(pr.title)}\n\n${pr.body.trim() ? pr.body.trim() + '\n\n' : ''}${trailers.join('\n')}\n`;
}

/** The last AMTP-Run trailer: the body above it is model-written and may contain anything. */
function trailer(message: string): string | undefined {
  return [...message.matchAll(/^AMTP-Run: (\S+)$/gm)].at(-1)?.[1];
}
