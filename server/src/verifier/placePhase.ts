// Phase "place": a test file the runner never collected where it was written (jest "No tests found":
// outside its roots or patterns). Its tests are not wrong, they were never looked at: one repair
// session is told what AMTP read of where the runner looks and may answer `wrong_place` with a path;
// AMTP moves the file there (relative imports rebased) and runs it like any other. Offline, or when
// no place works, its tests are dropped with the reason, and the run's summary says so (layoutNote).
import { posix } from 'node:path';
import { isAmtpTestPath } from '../agents/engineer/filePlan';
import { errorMessage } from '../core/errors';
import { meaningfulLine } from './classify';
import { putFile, readOrNull } from './files';
import { importHeader } from './importHeader';
import { canRepair, noRepairWhy, recordRepair } from './judgeShared';
import { repairLoop } from './repairLoop';
import { runFile } from './runPhase';
import { drop, type LoadFailure, type TestFileState, type VerifyState } from './state';
import { resolveInside } from '../util/safePath';

export async function placePhase(s: VerifyState): Promise<void> {
  const files = s.notCollected.splice(0);
  for (const f of files) await placeFile(s, f);
}

async function placeFile(s: VerifyState, f: LoadFailure): Promise<void> {
  const runner = s.ctx.plan.framework;
  const why = `${runner} does not collect ${f.file.path} (${meaningfulLine(f.message)})`;
  // A file holding a test the person accepted is not moved: that would change it (./acceptedTests.ts).
  const accepted = f.file.ids.some((id) => s.accepted.has(id));
  if (!canRepair(s) || f.file.personal || accepted) {
    await note(s, f.file.path, undefined, why);
    const whyNot = f.file.personal ? '' : accepted ? ' (it holds a test you accepted, so it is not moved)' : ` (${noRepairWhy(s)})`;
    for (const id of f.ids) drop(s, id, 'loads', `${why}${whyNot}`);
    return;
  }
  const setup = s.ctx.cases.project.test_setup;
  const outcome = await repairLoop(s, f.file, f.ids[0], `${why}\n${f.message}`, {
    collect: { runner, ...(setup.runs ? { runs: setup.runs } : {}), config_files: setup.config_files, test_dirs: setup.test_dirs },
  });
  if (outcome.kind !== 'wrong_place') {
    await note(s, f.file.path, undefined, why);
    recordRepair(s, f.file, f.ids[0], outcome, 'loads', `${why}; `);
    for (const id of f.ids.slice(1)) drop(s, id, 'loads', why);
    return;
  }
  const from = f.file.path;
  const moved = await moveFile(s, f.file, outcome.path, outcome.reason);
  if (moved) {
    await note(s, from, undefined, `${why}; the repair session's place ${outcome.path} ${moved}`);
    for (const id of f.ids) drop(s, id, 'loads', `${why}; the repair session's place ${outcome.path} ${moved}`);
    return;
  }
  await note(s, from, outcome.path, `${runner} does not collect ${from}; moved to ${outcome.path}: ${outcome.reason}`);
  // Run where it now is, like any file: its tests load, pass every run, or go to the judge phase.
  await runFile(s, f.file);
  for (const again of s.notCollected.splice(0))
    for (const id of again.ids)
      drop(s, id, 'loads', `${runner} does not collect it at ${outcome.path} either (${meaningfulLine(again.message)})`);
}

/** Moves a test file where the runner collects it; returns why it could not, or undefined once moved. */
async function moveFile(s: VerifyState, file: TestFileState, to: string, reason: string): Promise<string | undefined> {
  const { ctx } = s;
  const target = posix.normalize(to.replace(/\\/g, '/').replace(/^\.\//, ''));
  if (posix.isAbsolute(target) || target.startsWith('..') || target.split('/').some((p) => p.startsWith('.')))
    return 'is not a plain path inside the workspace';
  if (!isAmtpTestPath(target)) return "does not keep the `.amtp` part of AMTP's file names";
  if (posix.extname(target) !== posix.extname(file.path)) return `changes the file's extension (${posix.extname(file.path)})`;
  if (target === file.path) return 'is where it already is';
  try {
    if ((await readOrNull(await resolveInside(ctx.workspace, target))) !== null) return 'is taken by another file';
  } catch (e) {
    return `cannot be written: ${errorMessage(e)}`;
  }
  const content = rebaseImports(file.path, target, file.content);
  const put = (path: string, text: string | null, why: string) =>
    putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, path, text, why);
  const created = await put(target, content, `moves ${file.path} where ${ctx.plan.framework} collects it: ${reason}`);
  if (!created.done) return `was not written (${created.decision ?? 'refused'})`;
  await put(file.path, null, `moved to ${target}`);
  file.path = target;
  file.content = content;
  return undefined;
}

/** The file's relative imports (`'../src/x'`, `require('./y')`) as seen from its new folder. */
export function rebaseImports(from: string, to: string, content: string): string {
  if (from.endsWith('.py')) return content;
  const h = importHeader(from, content);
  const rebased = h.text.replace(/(['"])(\.\.?\/[^'"]*)\1/g, (_m, q: string, spec: string) => {
    let rel = posix.relative(posix.dirname(to), posix.join(posix.dirname(from), spec));
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `${q}${rel}${q}`;
  });
  return content.slice(0, h.start) + rebased + content.slice(h.end);
}

/** Says, in the run record, which file the runner did not collect and where it went (the summary's layoutNote). */
async function note(s: VerifyState, file: string, to: string | undefined, reason: string): Promise<void> {
  await s.ctx.update((v) => {
    (v.places ??= []).push({ file, ...(to ? { to } : {}), reason });
  });
}
