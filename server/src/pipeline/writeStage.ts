import { promises as fsp } from 'node:fs';
import { PathEscapeError, atomicWrite, normalizeTestDir, protectedPath, resolveInside, workspaceRelative } from '../util/safePath';
import { realpath } from 'node:fs/promises';
import { sha256 } from '../core/canonical';
import { crashPoint } from '../core/faults';
import { isWritten, type FileAction, type RunRecord } from '../core/run';
import type { CrawlerOutput } from '../contracts/types';
import { runDirs } from '../frameworks/layout';
import type { RunStore } from './store';
import type { Stage } from './stage';

const DEFAULT_TEST_DIRS = ['test', 'tests', '__tests__', 'spec'];
const DONE: FileAction[] = ['created', 'overwritten', 'merged', 'unchanged', 'rejected'];

/** Merges a rendered test file into the one on disk (verifier/testMerge.ts); undefined when it cannot. */
export type MergeTests = (path: string, existing: string, incoming: string) => string | undefined;

/**
 * Applies the engineer's files through the gateway. Re-entrant: files already
 * settled before a crash are skipped, and decisions taken with `amtp approve`
 * are honoured on resume. A test file an earlier run of this person wrote is merged
 * (`merge`), never replaced: a scoped run keeps every other test in it.
 */
export const writeStage =
  (merge?: MergeTests): Stage =>
  async ({ deps, state, save, gateway }) => {
    await save((r) => {
      r.stage = 'write';
    });
    const engineer = await deps.store.agentOutput(state.run, 'engineer');
    const testDirs = await riskTestDirs(deps.store, state.run);

    for (const file of [...engineer.files].sort((a, b) => a.path.localeCompare(b.path))) {
      const settled = state.run.files.find((f) => f.path === file.path);
      if (settled && DONE.includes(settled.action)) continue;
      let content = file.content;
      const record = (action: FileAction) =>
        save((r) => {
          r.files = r.files.filter((f) => f.path !== file.path);
          r.files.push({
            path: file.path,
            action,
            caseIds: file.caseIds,
            sha256: sha256(content),
            ...(content !== file.content ? { written: content } : {}),
          });
        });

      let abs: string;
      try {
        abs = await resolveInside(deps.workspace, file.path);
        // VCS metadata, AMTP's own store and dependencies are never a test file, whoever approves.
        const why = protectedPath(workspaceRelative(await realpath(deps.workspace), abs));
        if (why) throw new PathEscapeError(`${JSON.stringify(file.path)} is refused: ${why}`);
      } catch (e) {
        if (!(e instanceof PathEscapeError)) throw e;
        await save((r) => {
          r.audit.push({
            at: new Date().toISOString(),
            tool: 'fs.write_outside_tests',
            risk: 'high',
            target: file.path,
            outcome: 'refused',
            detail: e.message,
          });
        });
        await record('failed');
        continue;
      }
      const before = await fsp.readFile(abs, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
      const merged =
        before !== null && merge && (await writtenBefore(deps.store, state.run.id, file.path))
          ? merge(file.path, before, file.content)
          : undefined;
      if (merged !== undefined) content = merged;
      if (before === content) {
        // Killed between the write and its record? The audit already says this run wrote it.
        const wrote = state.run.audit.find((a) => a.target === file.path && a.outcome === 'executed' && a.tool.startsWith('fs.'));
        await record(wrote ? (ACTION_OF[wrote.tool] ?? 'created') : 'unchanged');
        continue;
      }
      const rel = workspaceRelative(await realpath(deps.workspace), abs);
      const inTests = testDirs.some((d) => rel.startsWith(d + '/'));
      const tool =
        merged !== undefined ? 'fs.merge_tests' : before !== null ? 'fs.overwrite' : inTests ? 'fs.create_test' : 'fs.write_outside_tests';
      const verb = merged !== undefined ? 'Merge tests into' : before !== null ? 'Overwrite' : 'Create';
      const result = await gateway.execute(
        tool,
        {
          summary: `${verb} ${file.path} (${file.caseIds.length} test case${file.caseIds.length === 1 ? '' : 's'})`,
          target: file.path,
          diff: { path: file.path, before, after: content },
          // Stable id: a decision taken later with `amtp approve` finds the same request on resume.
          approvalId: 'ap_' + sha256(`${state.run.id}\n${tool}\n${file.path}\n${sha256(content)}`).slice(0, 24),
        },
        () => atomicWrite(abs, content),
      );
      crashPoint('write:file');
      if (result.ran) await record(ACTION_OF[tool] ?? 'created');
      else await record(result.approval.decision === 'pending' ? 'pending' : 'rejected');
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

const ACTION_OF: Partial<Record<string, FileAction>> = {
  'fs.overwrite': 'overwritten',
  'fs.merge_tests': 'merged',
  'fs.create_test': 'created',
  'fs.write_outside_tests': 'created',
};

/** An earlier run of this person (records shipped with the repository do not count) wrote this file. */
async function writtenBefore(store: RunStore, runId: string, path: string): Promise<boolean> {
  return (await store.listRuns()).some((r) => r.id !== runId && r.files.some((f) => f.path === path && isWritten(f.action)));
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
