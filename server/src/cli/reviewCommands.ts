// `amtp review` and `amtp lessons`: the person's per-test decisions from a terminal, through the one
// application layer (app/review.ts, app/lessons.ts).
import { UsageError } from '../core/errors';
import { applyReview, reviewList, type ReviewAction, type ReviewResult, type ReviewTest } from '../app/review';
import { forgetLesson, listLessons } from '../app/lessons';
import type { Verdict } from '../pipeline/decisions';
import { openRunStore, storeUrl } from '../app/store';
import { EXIT } from '../core/exitCodes';
import { docIssueLine } from '../core/docIssues';
import type { FlagValues } from './flags';
import { err, workspaceArg } from './io';
import { askReview } from './reviewPrompt';

const out = (text: string) => process.stdout.write(text + '\n');

const VERDICT_FLAGS: [keyof FlagValues, Verdict][] = [
  ['keep', 'accepted'],
  ['accept', 'accepted'],
  ['drop', 'rejected'],
  ['reject', 'rejected'],
  ['real-bug', 'real_bug'],
  ['docs-wrong', 'docs_wrong'],
  ['wrong-test', 'wrong_test'],
];

export async function review(positionals: string[], v: FlagValues): Promise<number> {
  const store = openRunStore(await workspaceArg(positionals[1]), storeUrl(v.store));
  const actions: ReviewAction[] = VERDICT_FLAGS.flatMap(([flag, verdict]) =>
    ((v[flag] as string[] | undefined) ?? []).map((caseId) => ({ caseId, verdict, ...(v.reason ? { reason: v.reason } : {}) })),
  );
  const twice = actions.map((a) => a.caseId).filter((id, i, all) => all.indexOf(id) !== i);
  if (twice.length) throw new UsageError(`one decision per test: ${[...new Set(twice)].join(', ')} given more than once`);
  if (!actions.length) {
    if (v.reason)
      throw new UsageError('--reason goes with a decision: --keep (--accept), --drop (--reject), --real-bug, --docs-wrong or --wrong-test');
    const list = await reviewList(store, positionals[0]);
    if (list.ignoredDecisions) err(`amtp: ignoring ${list.ignoredDecisions} decision file(s) not taken by you here`);
    if (v.interactive || (!v.json && process.stdin.isTTY && process.stdout.isTTY)) {
      const asked = await askReview(list.tests, process.stdin, process.stdout);
      if (!asked.length) {
        out('nothing recorded');
        return EXIT.ok;
      }
      actions.push(...asked);
    } else {
      out(v.json ? JSON.stringify(list) : list.tests.map(testLine).join('\n') || `run ${list.runId} planned no test`);
      return EXIT.ok;
    }
  }
  const result = await applyReview(store, positionals[0], actions, 'cli');
  printResult(result, positionals[0], v);
  return EXIT.ok;
}

function printResult(result: ReviewResult, runId: string, v: FlagValues): void {
  if (v.json) out(JSON.stringify(result));
  else {
    for (const d of result.decided) out(`${d.caseId}: ${d.verdict}${d.reason ? ` (${d.reason})` : ''}`);
    for (const r of result.removed) out(`removed ${r.caseIds.length} test(s) from ${r.file}`);
    for (const s of result.skipped) out(`marked ${s.caseIds.length} quarantined test(s) skipped in ${s.file}`);
    for (const d of result.docIssues ?? []) out(`documentation issue ${d.caseId}: ${docIssueLine(d)}`);
    if (result.completed) out(`run ${runId}: no test waits for review any more; the run is completed`);
  }
}

function testLine(t: ReviewTest): string {
  const decision = t.decision ? `  [${t.decision.verdict}${t.decision.reason ? `: ${t.decision.reason}` : ''}]` : '';
  const waiting = t.awaitingReview ? `  [waits for review: confidence ${t.confidence}]` : '';
  return `${t.caseId}  ${t.outcome.padEnd(11)} ${t.priority} ${t.title}${t.file ? `  (${t.file})` : ''}${decision}${waiting}`;
}

export async function lessons(positionals: string[], v: FlagValues): Promise<number> {
  const [action, ...rest] = positionals;
  if (action === 'forget') {
    const store = openRunStore(await workspaceArg(rest[1]), storeUrl(v.store));
    if (!rest[0]) throw new UsageError('"lessons forget" needs the CASE_ID of the lesson');
    await forgetLesson(store, rest[0]);
    out(v.json ? JSON.stringify({ forgotten: rest[0] }) : `forgot ${rest[0]}: the next run may plan and write it again`);
    return EXIT.ok;
  }
  if (action !== undefined && action !== 'list' && rest.length)
    throw new UsageError(`unknown lessons action ${JSON.stringify(action)}: list or forget`);
  const dir = action === 'list' ? rest[0] : action;
  const store = openRunStore(await workspaceArg(dir), storeUrl(v.store));
  const list = await listLessons(store);
  if (v.json) out(JSON.stringify({ lessons: list }));
  else
    out(list.map((l) => `${l.id}  ${l.source.padEnd(13)} ${l.file ? `${l.file}#${l.symbol} ` : ''}${l.text}`).join('\n') || 'no lessons');
  return EXIT.ok;
}
