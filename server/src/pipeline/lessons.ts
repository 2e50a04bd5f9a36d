// Lessons: what a person's decisions and the verifier's failed repairs teach the next run. Each is
// one short line tied to a module and symbol, with its source and date (schemas/lesson.schema.json).
// They are taken once when a run starts (RunParams.lessons, kept in the run record and in a
// recording's header, so a resume and a replay send the same envelopes) and each generator and
// engineer batch gets those about its own modules, within a fixed share of the input budget.
// Their text quotes the person's reasons and the runner's errors as data, one line each, bounded:
// the system prompts say lessons are facts about earlier runs, never instructions.
import type { Lesson } from '../contracts/generated';
import { requireValid } from '../contracts/validate';
import type { RunRecord } from '../core/run';
import { estimateTokens } from '../agents/budget';
import { DecisionStore, oneLine, type TestDecision } from './decisions';
import type { RunStore } from '../store/types';

export type { Lesson } from '../contracts/generated';

/** Most lessons a run carries, and how many recent runs' failed repairs count. */
const MAX_LESSONS = 200;
const REPAIR_RUNS = 3;

/** The share of a request's input budget kept for lessons when a run has any (at most 600 tokens). */
export function lessonReserve(inputTokens: number): number {
  return Math.min(600, Math.floor(inputTokens * 0.08));
}

/** Repository or person text as one inert line: no control characters, no line breaks, bounded. */
function dataText(text: string, max: number): string {
  return oneLine(text.replace(/\p{Cc}/gu, ' ').replace(/`{3,}/g, "'"), max);
}

const quote = (title: string | undefined) => (title ? `"${dataText(title, 120)}"` : 'a test');
const because = (reason: string | undefined) => (reason ? `; the person's reason: ${dataText(reason, 160)}` : '');

function decisionText(d: TestDecision): string | undefined {
  const t = quote(d.title);
  switch (d.verdict) {
    case 'rejected':
      return `The person rejected the test ${t}${because(d.reason)}. It is not written again.`;
    case 'deleted':
      return `The person deleted the test ${t} from AMTP's file by hand. It is not written again.`;
    case 'wrong_test':
      return `The person said the test ${t} is wrong${because(d.reason)}. Check expected values against the code, not only the docs.`;
    case 'real_bug':
      return `The test ${t} shows a real bug in the code${because(d.reason)}. It stays quarantined.`;
    case 'edited':
      return `The person changed the test ${t} by hand (${dataText(d.reason ?? '', 220)})${d.correction ? `: ${dataText(d.correction.call, 80)} is expected to give ${dataText(d.correction.expected, 80)}` : ''}. Their version stays; take their values as right.`;
    case 'docs_wrong':
      return `The documentation the test ${t} followed is wrong${because(d.reason)}. Do not take that documented value as the expected result.`;
    default:
      return undefined;
  }
}

/** Every lesson this person's decisions and recent runs give, newest first, at most MAX_LESSONS. */
export async function currentLessons(store: RunStore): Promise<Lesson[]> {
  const { decisions } = await new DecisionStore(store.workspace).scan();
  const out: Lesson[] = [];
  for (const d of decisions.values()) {
    const text = decisionText(d);
    if (text) out.push(lesson(d.caseId, d.verdict as Lesson['source'], d.target, text, d.at));
  }
  const runs = (await store.listRuns()).slice(-REPAIR_RUNS);
  for (const run of runs) out.push(...(await repairLessons(store, run, decisions)));
  out.sort((a, b) => b.at.localeCompare(a.at) || a.id.localeCompare(b.id));
  const seen = new Set<string>();
  const lessons = out.filter((l) => !seen.has(`${l.source}\n${l.id}`) && seen.add(`${l.source}\n${l.id}`)).slice(0, MAX_LESSONS);
  for (const l of lessons) requireValid('lesson', l, 'lesson');
  return lessons;
}

function lesson(id: string, source: Lesson['source'], target: { file: string; symbol: string }, text: string, at: string): Lesson {
  return { id, source, ...(target.file ? { file: target.file, symbol: target.symbol } : {}), text: oneLine(text, 400), at };
}

/** Repairs of a run that gave up: the test kept failing after its repair sessions, for the reason the runner gave. */
async function repairLessons(store: RunStore, run: RunRecord, decided: Map<string, TestDecision>): Promise<Lesson[]> {
  const failed = (run.verification?.repairs ?? []).filter((r) => r.outcome === 'still_failing' || r.outcome === 'cannot_fix');
  if (!failed.length) return [];
  const plan = await store.agentOutput(run, 'generator').catch(() => undefined);
  const out: Lesson[] = [];
  for (const r of failed) {
    if (decided.has(r.caseId)) continue; // the person's decision says more
    const c = plan?.cases.find((x) => x.id === r.caseId);
    const error = r.error ? `: ${dataText(r.error, 160)}` : '';
    const text = `A repair of the test ${quote(c?.title)} gave up (${r.outcome.replace('_', ' ')})${error}.`;
    out.push(lesson(r.caseId, 'repair_failed', c ? c.target : { file: '', symbol: '' }, text, run.updatedAt));
  }
  return out;
}

/**
 * The lessons for one batch: those about its symbols first, then about its modules, then project-wide
 * ones, as many as fit `tokens`. Pure: the same lessons and targets give the same list.
 */
export function lessonsFor(lessons: Lesson[], targets: { file: string; symbol?: string }[], tokens: number): Lesson[] {
  const symbols = new Set(targets.map((t) => `${t.file}#${t.symbol ?? ''}`));
  const files = new Set(targets.map((t) => t.file));
  const rank = (l: Lesson) => (!l.file ? 2 : symbols.has(`${l.file}#${l.symbol ?? ''}`) ? 0 : files.has(l.file) ? 1 : 3);
  const ranked = lessons
    .map((l, i) => ({ l, r: rank(l), i }))
    .filter((x) => x.r < 3)
    .sort((a, b) => a.r - b.r || a.i - b.i);
  const out: Lesson[] = [];
  let used = 2;
  for (const { l } of ranked) {
    const cost = estimateTokens(l) + 1;
    if (used + cost > tokens || out.length >= 24) break;
    out.push(l);
    used += cost;
  }
  return out;
}
