// `amtp review RUN_ID` on a terminal (or with --interactive): one test at a time, a key per decision
// and an optional reason, then one confirmation before anything is recorded or removed. Tests that
// wait for a person come first (low confidence, quarantined), then the rest; decided ones are skipped.
import * as readline from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { ReviewAction, ReviewTest } from '../app/review';
import type { Verdict } from '../pipeline/decisions';

interface Choice {
  key: string;
  label: string;
  verdict: Verdict;
  /** only for a quarantined test (app/review.ts checkAction) */
  quarantinedOnly?: true;
  asksReason?: true;
}

const CHOICES: Choice[] = [
  { key: 'k', label: 'keep', verdict: 'accepted' },
  { key: 'd', label: 'drop', verdict: 'rejected', asksReason: true },
  { key: 'b', label: 'real bug', verdict: 'real_bug', quarantinedOnly: true, asksReason: true },
  { key: 'w', label: 'docs wrong', verdict: 'docs_wrong', quarantinedOnly: true, asksReason: true },
  { key: 't', label: 'test wrong', verdict: 'wrong_test', asksReason: true },
];

/** The order a person reviews in: what waits for them first, then quarantined, then the other kept tests. */
export function reviewOrder(tests: ReviewTest[]): ReviewTest[] {
  const rank = (t: ReviewTest) => (t.awaitingReview ? 0 : t.outcome === 'quarantined' ? 1 : 2);
  const open = tests.filter(
    (t) => !t.decision && t.file && (t.outcome === 'passing' || t.outcome === 'quarantined' || t.outcome === 'written'),
  );
  return open
    .map((t, i) => ({ t, i }))
    .sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i)
    .map(({ t }) => t);
}

function choicesFor(t: ReviewTest): Choice[] {
  return CHOICES.filter((c) => !c.quarantinedOnly || t.outcome === 'quarantined');
}

function describe(t: ReviewTest, i: number, n: number): string {
  const why = t.awaitingReview ? `waits for review: confidence ${t.confidence}` : t.outcome;
  return `\n[${i + 1}/${n}] ${t.title}\n  ${t.caseId} · ${t.target.file} ${t.target.symbol} · ${t.file} · ${why}${t.reason ? `\n  ${t.reason}` : ''}`;
}

/**
 * Asks about each test and returns the decisions the person confirmed (none when they declined).
 * `s` skips a test, `q` stops asking; end of input stops too.
 */
export async function askReview(tests: ReviewTest[], input: Readable, output: Writable): Promise<ReviewAction[]> {
  const rl = readline.createInterface({ input, output, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (q: string): Promise<string | undefined> => {
    output.write(q);
    const next = await lines.next();
    return next.done ? undefined : String(next.value).trim();
  };
  const actions: ReviewAction[] = [];
  try {
    const order = reviewOrder(tests);
    if (!order.length) {
      output.write('no test waits for a decision in this run\n');
      return [];
    }
    ask: for (const [i, t] of order.entries()) {
      output.write(describe(t, i, order.length) + '\n');
      const choices = choicesFor(t);
      const menu = [...choices.map((c) => `${c.key} ${c.label}`), 's skip', 'q stop'].join(', ');
      for (;;) {
        const key = (await ask(`  ${menu}? `))?.toLowerCase();
        if (key === undefined || key === 'q') break ask;
        if (key === 's' || key === '') continue ask;
        const choice = choices.find((c) => c.key === key);
        if (!choice) {
          output.write(`  "${key}" is not one of: ${menu}\n`);
          continue;
        }
        const reason = choice.asksReason ? await ask('  reason (optional): ') : undefined;
        actions.push({ caseId: t.caseId, verdict: choice.verdict, ...(reason ? { reason } : {}) });
        continue ask;
      }
    }
    if (!actions.length) return [];
    const counts = CHOICES.map((c) => [c.label, actions.filter((a) => a.verdict === c.verdict).length] as const).filter(([, n]) => n);
    const yes = await ask(`\nrecord ${actions.length} decision(s) (${counts.map(([l, n]) => `${l} ${n}`).join(', ')})? [y/N] `);
    return yes?.toLowerCase() === 'y' || yes?.toLowerCase() === 'yes' ? actions : [];
  } finally {
    rl.close();
  }
}
