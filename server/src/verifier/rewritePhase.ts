// Phases "rewrite" and "confirm": only assured tests stay in each file; quarantined ones move to a
// skipped quarantine file next to it. Then the suite as it is on disk runs once more (with coverage:
// the "after" figure), and a kept test that fails there is reported `failing`.
import type { CoverageUnits, RunResult } from '../frameworks/runner';
import type { CaseResult } from '../core/run';
import { acceptedReason } from './acceptedTests';
import { firstLine } from './classify';
import { putFile } from './files';
import type { TestFileState, VerifyState } from './state';
import { findTests, keepOnlyTests, quarantinePath, realBugNote, removeTests, replaceTest, skipTests } from './testFile';

export async function rewritePhase(s: VerifyState): Promise<string[]> {
  const { ctx, results } = s;
  const put = (path: string, content: string | null, why: string) =>
    putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, path, content, why);
  const quarantineFiles: string[] = [];
  for (const file of s.files) {
    // A test the person accepted stays in its file whatever its result (./acceptedTests.ts).
    const off = file.ids.filter((id) => results.get(id)?.outcome !== 'passing' && !s.accepted.has(id));
    const q = file.ids.filter((id) => results.get(id)?.outcome === 'quarantined');
    const { kept, empty } = keptText(file, off);
    const main = await put(file.path, kept, `keeps ${file.ids.length - off.length} assured test(s) of ${file.ids.length}`);
    if (!main.done) for (const id of off) leftInPlace(results.get(id)!, main.decision);
    for (const id of file.ids) locate(results.get(id)!, file.path, empty ? undefined : (kept ?? undefined));
    if (q.length) {
      const qPath = quarantinePath(file.personal ? amtpNamed(file.path) : file.path);
      const bugs = realBugs(s);
      const reasons = new Map(q.map((id) => [id, [results.get(id)!.reason!, ...(bugs.has(id) ? [bugs.get(id)!] : [])].join('; ')]));
      const qContent = quarantineHeader(file.path) + skipTests(qPath, keepOnlyTests(file.path, quarantineSource(file, q), q), reasons);
      const quarantine = await put(qPath, qContent, `${q.length} skipped test(s) that may reveal bugs`);
      if (quarantine.done) {
        quarantineFiles.push(qPath);
        for (const id of q) locate(results.get(id)!, qPath, qContent);
      }
    }
    if (kept !== null) file.content = kept;
    if (empty) file.ids = [];
  }
  return quarantineFiles;
}

/** The person's "real bug" answers this run applied: their note stays on the test in each quarantine file written again. */
function realBugs(s: VerifyState): Map<string, string> {
  const answered = s.ctx.run().decisions?.answered ?? [];
  return new Map(answered.filter((a) => a.verdict === 'real_bug').map((a) => [a.caseId, realBugNote(a.reason)]));
}

/**
 * The file without the tests that go. A file left with no test is removed, except the person's own:
 * with none of this run's tests left it is put back as it was before the run (or, when that is not
 * known, left without this run's tests); their own tests are never touched either way.
 */
function keptText(file: TestFileState, off: string[]): { kept: string | null; empty: boolean } {
  const kept = removeTests(file.path, file.content, off);
  if (!file.personal) return findTests(file.path, kept).length ? { kept, empty: false } : { kept: null, empty: true };
  const none = off.length === file.ids.length;
  return { kept: none ? (file.personal.before ?? kept) : kept, empty: none };
}

/** The quarantined tests with the imports and helpers of AMTP's own text: a person's tests never go into a quarantine file. */
function quarantineSource(file: TestFileState, q: string[]): string {
  if (!file.personal) return file.content;
  let out = file.personal.own;
  // A repair may have changed a test since the engineer wrote it: the current text is the one kept.
  for (const id of q) {
    const now = lineText(
      file.content,
      findTests(file.path, file.content).find((b) => b.caseId === id),
    );
    const then = lineText(
      out,
      findTests(file.path, out).find((b) => b.caseId === id),
    );
    if (now !== undefined && then !== undefined && now !== then) out = replaceTest(file.path, out, id, now);
  }
  return out;
}

/** A test's text from the start of its first line, so its lines keep their indentation relative to each other. */
function lineText(content: string, b: { start: number; end: number } | undefined): string | undefined {
  return b && content.slice(content.lastIndexOf('\n', b.start - 1) + 1, b.end);
}

/** `x.test.js` → `x.amtp.test.js`, `test_x.py` → `test_x_amtp.py` (same folder), for the quarantine file's name. */
function amtpNamed(path: string): string {
  return path.endsWith('.py') ? path.replace(/\.py$/, '_amtp.py') : path.replace(/((?:\.(?:test|spec))?\.[^./]+)$/, '.amtp$1');
}

/**
 * The confirmation run: every file with kept tests, together in one process as the project's command
 * runs them (file by file when that run cannot be read: a timeout, a file that does not load). A kept
 * test that fails there is reported `failing` and taken out of its file, and the suite runs again (at
 * most three times), so what stays passes the project's own command. Returns the units the kept tests
 * cover (adding every reported unit to `universe`).
 */
export async function confirmPhase(
  s: VerifyState,
  coverageOf: string[] | undefined,
  universe: CoverageUnits,
): Promise<{ after: CoverageUnits[]; runs: RunResult[] }> {
  for (let round = 1; ; round++) {
    const { after, runs, failed } = await confirmOnce(s, coverageOf, universe);
    if (!failed || round === 3) return { after, runs };
    s.ctx.info(`verify: ${failed} kept test(s) failed the final run of the whole suite; they are taken out and the suite runs again`);
    await rewritePhase(s);
  }
}

async function confirmOnce(
  s: VerifyState,
  coverageOf: string[] | undefined,
  universe: CoverageUnits,
): Promise<{ after: CoverageUnits[]; runs: RunResult[]; failed: number }> {
  const suite = s.files
    .map((file) => ({ file: file.path, ids: file.ids.filter((id) => s.results.get(id)?.outcome === 'passing') }))
    .filter((f) => f.ids.length);
  // All kept files in one invocation (a file the run says nothing of is run on its own: execute.ts runAll).
  const { obs, results: runs } = await s.runner.runAll(suite, coverageOf ? { coverageOf } : {});
  const after: CoverageUnits[] = [];
  for (const result of runs) {
    if (result.units) after.push(result.units);
    for (const k of result.unitKeys ?? []) universe.add(k);
  }
  const together = runs.length === 1 && suite.length > 1;
  let failed = 0;
  for (const id of suite.flatMap((f) => f.ids)) {
    const o = obs.get(id);
    if (o?.status === 'passed') continue;
    const now = `passed ${s.ctx.params.runs} runs but not the final run of the kept suite${together ? ' (all its files in one process, as the project runs them)' : ''}: ${o?.status}${o?.message ? `: ${firstLine(o.message)}` : ''}`;
    // A test the person accepted is not taken out, so the suite need not run again for it.
    if (!s.accepted.has(id)) failed++;
    Object.assign(s.results.get(id)!, { outcome: 'failing', reason: s.accepted.has(id) ? acceptedReason(s, id, `it ${now}`) : now });
  }
  await s.flushPids();
  return { after, runs, failed };
}

function leftInPlace(r: CaseResult, decision: string | undefined): void {
  r.reason = `${r.reason ?? r.outcome}; still in the file: its rewrite was ${decision ?? 'refused'}`;
  if (r.outcome !== 'quarantined') r.outcome = 'failing';
}

export function locate(r: CaseResult, file: string, content: string | undefined): void {
  if (!content) return;
  const at = findTests(file, content).find((b) => b.caseId === r.caseId);
  if (!at) return;
  r.file = file;
  r.line = content.slice(0, at.start).split('\n').length - 1;
}

function quarantineHeader(from: string): string {
  const c = from.endsWith('.py') ? '#' : '//';
  return `${c} AMTP quarantine for ${from}: these tests fail against the code as it is and may reveal bugs.\n${c} They are skipped so the suite stays green; each one says what was documented and what was observed.\n`;
}
