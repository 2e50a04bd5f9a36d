// Phase "judge": what each failure means. A test that does not load, or fails every run, is either a
// possible bug (quarantined) or a wrong test: repaired in fresh LLM sessions (repairLoop.ts), or,
// offline / with repairs off, dropped with its reason. Nothing is dropped without one.
import { classifyFailure, meaningfulLine } from './classify';
import { putFile } from './files';
import { canRepair, noRepairWhy, recordRepair } from './judgeShared';
import { repairLoop } from './repairLoop';
import { runFile } from './runPhase';
import { drop, nameOf, type LoadFailure, type TestFileState, type VerifyState } from './state';
import { findTests, removeTests, replaceTests, testSource } from './testFile';

export async function judgePhase(s: VerifyState): Promise<void> {
  // A file that loads after its culprits are out goes through the run phase again, which may find more.
  for (let f = s.loadFailures.shift(); f; f = s.loadFailures.shift()) await judgeLoadFailure(s, f);
  await judgeFailures(s);
}

/**
 * A file that does not load. When the error points at tests (a syntax error, or type errors: ts-jest
 * reports every one of the file's), those tests are taken out, the rest run like any file, and each
 * culprit is then repaired on its own: one bad test never costs the others. An error outside every
 * test (the imports) gets one repair through the file's first test; if that fails, its tests go.
 */
async function judgeLoadFailure(s: VerifyState, f: LoadFailure): Promise<void> {
  const line = meaningfulLine(f.message);
  const errorOf = culpritsOf(f);
  const culprits = [...errorOf.keys()];
  // The error is only in tests the person accepted, which stay as they were (./acceptedTests.ts): no repair of the others helps.
  const inAccepted = culprits.length ? [] : [...culpritsOf({ ...f, ids: [...s.accepted] }).keys()];
  if (inAccepted.length) {
    const why = `does not load: ${line} (the error is in ${inAccepted.join(', ')}, which you accepted: it stays as it was)`;
    for (const id of f.ids) drop(s, id, 'loads', why);
    return;
  }
  if (!canRepair(s)) {
    for (const id of f.ids) drop(s, id, 'loads', `does not load: ${line} (${noRepairWhy(s)})`);
    return;
  }
  if (!culprits.length) return judgeHeaderFailure(s, f, line);
  const original = f.file.content;
  const others = f.ids.filter((id) => !culprits.includes(id));
  if (others.length) {
    await write(s, f.file, removeTests(f.file.path, original, culprits), `sets aside ${culprits.length} test(s) that keep it from loading`);
    // The others run alone first; a file still not loading goes to the judge again (culprits found anew).
    await runFile(s, f.file, others);
  }
  const fixed = new Map<string, string>();
  for (const id of culprits) {
    // The original file without the other culprits not fixed yet, nor tests the run of the others took out (hanging).
    const present = new Set(findTests(f.file.path, f.file.content).map((t) => t.caseId));
    const gone = f.ids.filter((x) => !culprits.includes(x) && !present.has(x));
    let content = removeTests(f.file.path, original, [...culprits.filter((c) => c !== id && !fixed.has(c)), ...gone]);
    if (fixed.size) content = replaceTests(f.file.path, content, fixed);
    await write(s, f.file, content, `puts back ${id} to repair it alone`);
    // The session sees its own test's error first, then the runner's whole report.
    const outcome = await repairLoop(s, f.file, id, `${errorOf.get(id)}\n${f.message}`);
    recordRepair(s, f.file, id, outcome, 'loads', `does not load: ${errorOf.get(id)}; `);
    if (outcome.kind === 'fixed') fixed.set(id, testSource(f.file.path, f.file.content, id) ?? '');
    else await write(s, f.file, removeTests(f.file.path, f.file.content, [id]), `takes out ${id}, which does not load`);
  }
}

/** The error is in no test (the imports, the file's top): one repair through the first test, then the others run again. */
async function judgeHeaderFailure(s: VerifyState, f: LoadFailure, line: string): Promise<void> {
  const first = f.ids[0];
  const outcome = await repairLoop(s, f.file, first, f.message);
  recordRepair(s, f.file, first, outcome, 'loads', `does not load: ${line}; `);
  const others = f.ids.filter((id) => id !== first);
  if (outcome.kind !== 'fixed') {
    for (const id of others) drop(s, id, 'loads', `does not load: ${line}`);
    return;
  }
  if (others.length) await runFile(s, f.file, others);
}

/** Tests whose lines hold a `file:line` of the error (each one, for runners that report every error), with that error's line. */
function culpritsOf(f: LoadFailure): Map<string, string> {
  const base = f.file.path
    .split('/')
    .pop()!
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // ts-jest colours its diagnostics: the escapes sit between the file, the line and the column.
  const plain = f.message.replace(/\u001b\[[0-9;]*m/g, '');
  const errors = [...plain.matchAll(new RegExp(`${base}[:(](\\d+)[^\\n]*`, 'g'))].map((m) => ({ line: Number(m[1]), text: m[0].trim() }));
  const tests = findTests(f.file.path, f.file.content).map((t) => ({
    id: t.caseId,
    first: f.file.content.slice(0, t.start).split('\n').length,
    last: f.file.content.slice(0, t.end).split('\n').length,
  }));
  const hit = new Map<string, string>();
  for (const e of errors)
    for (const t of tests)
      if (f.ids.includes(t.id) && e.line >= t.first && e.line <= t.last && !hit.has(t.id)) hit.set(t.id, e.text.slice(0, 400));
  return new Map(f.ids.filter((id) => hit.has(id)).map((id) => [id, hit.get(id)!]));
}

async function write(s: VerifyState, file: TestFileState, content: string, why: string): Promise<void> {
  if (content === file.content) return;
  await putFile(s.ctx.gateway, s.ctx.workspace, s.ctx.log, s.ctx.run().id, file.path, content, why);
  file.content = content;
}

/** Tests that fail every run: possible bug → quarantine; otherwise repair, or drop with the reason. */
async function judgeFailures(s: VerifyState): Promise<void> {
  const failing = [...s.failing];
  s.failing.clear();
  for (const [id, { file, message, reported }] of failing) {
    const verdict = classifyFailure({
      framework: s.ctx.plan.framework,
      testCase: s.caseOf.get(id),
      testText: testSource(file.path, file.content, id),
      fileText: file.content,
      message,
      ...(reported ? { reported } : {}),
    });
    if (verdict.kind === 'possible_bug') {
      s.results.set(id, {
        caseId: id,
        outcome: 'quarantined',
        step: 'passes_every_run',
        reason: verdict.reason,
        test: nameOf(s, id),
        ...(verdict.finding ? { finding: verdict.finding } : {}),
      });
    } else if (verdict.kind === 'doc_issue') {
      // The documented example itself throws: no repair can make the docs' value true; reported apart.
      const test = nameOf(s, id);
      s.results.set(id, {
        caseId: id,
        outcome: 'dropped',
        step: 'passes_every_run',
        reason: verdict.reason,
        test,
        docIssue: verdict.docIssue,
      });
    } else if (!canRepair(s)) {
      drop(s, id, 'passes_every_run', `${verdict.reason} (${noRepairWhy(s)})`);
    } else {
      recordRepair(s, file, id, await repairLoop(s, file, id, message), 'passes_every_run', '');
    }
  }
}
