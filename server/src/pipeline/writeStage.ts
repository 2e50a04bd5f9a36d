import { promises as fsp } from 'node:fs';
import { PathEscapeError, atomicWrite, normalizeTestDir, protectedPath, resolveInside, workspaceRelative } from '../util/safePath';
import { realpath } from 'node:fs/promises';
import { sha256 } from '../core/canonical';
import { crashPoint } from '../core/faults';
import type { FileAction, RunRecord } from '../core/run';
import { testsInFile } from '../frameworks/caseMap';
import type { CrawlerOutput, EngineerOutput } from '../contracts/types';
import { runDirs } from '../frameworks/layout';
import type { RunStore } from '../store/types';
import type { Stage, StageContext } from './stage';
import { planWrite, type MergeTests, type WritePlan } from './writePlan';

export type { MergeTests } from './writePlan';

const DEFAULT_TEST_DIRS = ['test', 'tests', '__tests__', 'spec'];
const DONE: FileAction[] = ['created', 'overwritten', 'merged', 'unchanged', 'rejected'];

type EngineerFile = EngineerOutput['files'][number];
type FileRecord = RunRecord['files'][number];

/**
 * Applies the engineer's files through the gateway. Re-entrant: files already
 * settled before a crash are skipped, and decisions taken with `amtp approve`
 * are honoured on resume. A test file an earlier run of this person wrote is merged
 * (`merge`), never replaced: a scoped run keeps every other test in it. With `intoExisting`, the
 * person's own test file is merged into too, as an overwrite (writePlan.ts).
 */
export const writeStage =
  (merge?: MergeTests): Stage =>
  async (ctx) => {
    const { deps, state, save } = ctx;
    await save((r) => {
      r.stage = 'write';
    });
    const engineer = await deps.store.agentOutput(state.run, 'engineer');
    const testDirs = await riskTestDirs(deps.store, state.run);

    for (const file of [...engineer.files].sort((a, b) => a.path.localeCompare(b.path))) {
      const settled = state.run.files.find((f) => f.path === file.path);
      if (settled && DONE.includes(settled.action)) continue;
      await writeFile(ctx, file, merge, testDirs);
    }

    // With every file settled the run goes on (verification, then done); it never says "completed" mid-run.
    const pending = state.run.files.filter((f) => f.action === 'pending');
    if (pending.length) {
      await save((r) => {
        r.status = 'awaiting_approval';
        r.reason = `${pending.length} file(s) wait for approval: amtp approve ${r.id} [--reject]`;
      });
    }
  };

/** One engineer file: refused, already there, or written through the gateway once approved. */
async function writeFile(ctx: StageContext, file: EngineerFile, merge: MergeTests | undefined, testDirs: string[]): Promise<void> {
  const { deps, state } = ctx;
  const abs = await placeInside(ctx, file.path);
  if (abs === undefined) return record(ctx, file, file.content, 'failed');
  const before = await fsp.readFile(abs, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  const rel = workspaceRelative(await realpath(deps.workspace), abs);
  const plan = await planWrite({
    store: deps.store,
    run: state.run,
    file,
    before,
    merge,
    inTests: testDirs.some((d) => rel.startsWith(d + '/')),
  });
  if ('refused' in plan) {
    await refuse(ctx, 'fs.overwrite', file.path, plan.refused);
    return record(ctx, file, file.content, 'failed');
  }
  const result = await put(ctx, file, abs, before, plan);
  // A change to tests the person accepted that was refused (not waiting): the file is merged with them as they are.
  const fallback = plan.accepted?.fallback;
  if (result === 'rejected' && fallback) await put(ctx, file, abs, before, { ...fallback, accepted: plan.accepted }, true);
}

/** Writes one plan through the gateway (or records it as already there); returns what became of it. */
async function put(
  ctx: StageContext,
  file: EngineerFile,
  abs: string,
  before: string | null,
  plan: WritePlan,
  keptAccepted = false,
): Promise<FileAction> {
  const { state, gateway } = ctx;
  const { content, tool } = plan;
  const kept = { ...(keptAccepted ? { acceptedKept: plan.accepted?.held } : {}), acceptedSame: plan.acceptedSame };
  if (before === content) {
    // Killed between the write and its record? The audit already says this run wrote it.
    const wrote = state.run.audit.find((a) => a.target === file.path && a.outcome === 'executed' && a.tool.startsWith('fs.'));
    // (The person's file then already holds this run's tests: its text before them is not known any more.)
    const action = wrote ? (plan.personal !== undefined ? 'merged' : (ACTION_OF[wrote.tool] ?? 'created')) : 'unchanged';
    await record(ctx, file, content, action, wrote ? undefined : plan, {
      ...kept,
      ...(wrote ? approvedOf(ctx, wrote.approvalId, file.path, content) : {}),
    });
    return action;
  }
  const result = await gateway.execute(
    tool,
    {
      summary: `${plan.verb} ${file.path} (${file.caseIds.length} test case${file.caseIds.length === 1 ? '' : 's'})`,
      target: file.path,
      diff: { path: file.path, before, after: content },
      // Stable id: a decision taken later with `amtp approve` finds the same request on resume.
      approvalId: 'ap_' + sha256(`${state.run.id}\n${tool}\n${file.path}\n${sha256(content)}`).slice(0, 24),
    },
    () => atomicWrite(abs, content),
  );
  crashPoint('write:file');
  const action = result.ran ? plan.action : result.approval.decision === 'pending' ? 'pending' : 'rejected';
  await record(ctx, file, content, action, plan, {
    ...kept,
    ...(result.ran ? approvedOf(ctx, result.approval?.id, file.path, content) : {}),
  });
  return action;
}

/** What a write a person approved showed: its tests, so verification can say which of them did not land. */
function approvedOf(ctx: StageContext, approvalId: string | undefined, path: string, content: string): Pick<FileRecord, 'approved'> {
  const approval = approvalId && ctx.state.run.approvals.find((a) => a.id === approvalId && a.decision === 'approved');
  if (!approval) return {};
  const tests = testsInFile(path, content).map((t) => ({ ...(t.caseId ? { caseId: t.caseId } : {}), title: t.name }));
  return { approved: { approvalId: approval.id, tests } };
}

const ACTION_OF: Partial<Record<string, FileAction>> = {
  'fs.overwrite': 'overwritten',
  'fs.merge_tests': 'merged',
  'fs.create_test': 'created',
  'fs.write_outside_tests': 'created',
};

/** The file's record: a merged file keeps its text (and the person's file its text before) for the verifier. */
async function record(
  ctx: StageContext,
  file: EngineerFile,
  content: string,
  action: FileAction,
  plan?: Pick<WritePlan, 'personal'>,
  extra: Partial<Pick<FileRecord, 'approved' | 'acceptedKept' | 'acceptedSame'>> = {},
): Promise<void> {
  await ctx.save((r) => {
    r.files = r.files.filter((f) => f.path !== file.path);
    r.files.push({
      path: file.path,
      action,
      caseIds: file.caseIds,
      sha256: sha256(content),
      ...(content !== file.content ? { written: content } : {}),
      ...(plan?.personal !== undefined ? { before: plan.personal } : {}),
      ...(extra.approved ? { approved: extra.approved } : {}),
      ...(extra.acceptedKept?.length ? { acceptedKept: extra.acceptedKept } : {}),
      ...(extra.acceptedSame?.length ? { acceptedSame: extra.acceptedSame } : {}),
    });
  });
}

/** The file's absolute path, or undefined (with an audit row saying why) when it is outside the workspace or protected. */
async function placeInside(ctx: StageContext, path: string): Promise<string | undefined> {
  try {
    const abs = await resolveInside(ctx.deps.workspace, path);
    // VCS metadata, AMTP's own store and dependencies are never a test file, whoever approves.
    const why = protectedPath(workspaceRelative(await realpath(ctx.deps.workspace), abs));
    if (why) throw new PathEscapeError(`${JSON.stringify(path)} is refused: ${why}`);
    return abs;
  } catch (e) {
    if (!(e instanceof PathEscapeError)) throw e;
    await refuse(ctx, 'fs.write_outside_tests', path, e.message);
    return undefined;
  }
}

async function refuse(ctx: StageContext, tool: 'fs.write_outside_tests' | 'fs.overwrite', target: string, detail: string): Promise<void> {
  await ctx.save((r) => {
    r.audit.push({ at: new Date().toISOString(), tool, risk: 'high', target, outcome: 'refused', detail });
  });
}

/**
 * The folders where a new file is only medium risk. They come from AMTP's own static analysis (the
 * crawler's source map), never from a model: a model's patch or plan may move where tests go, and
 * then those writes wait for the person. Runs made before batching have no source map and use the
 * plan's folders. Only clean, relative, unprotected folders count either way.
 */
async function riskTestDirs(store: RunStore, run: RunRecord): Promise<string[]> {
  const source = run.activities.find((a) => a.agent === 'crawler')?.sourceArtifactId;
  const setup = source ? ((await store.getArtifact(run.id, source)).content as CrawlerOutput).test_setup : undefined;
  // The folders the project's own test command runs (frameworks/layout.ts places files there) count too.
  const dirs = setup
    ? [...setup.test_dirs, ...runDirs(setup.runs)]
    : (await store.agentOutput(run, 'generator')).project.test_setup.test_dirs;
  const clean = dirs.map(normalizeTestDir).filter((d): d is string => d !== undefined);
  return clean.length ? clean : DEFAULT_TEST_DIRS;
}
