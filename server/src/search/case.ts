// A kept sequence as a planned TestCase (schemas/test-cases.schema.json) that every JavaScript
// framework renders from its oracle: `setup` statements, the main `call` and its expected value or
// error, then `checks`, inside a temporary folder when the sequence used one. Its evidence is
// `source` (what the code did when run), so a failure is never reported as a possible bug. A
// sequence case is told from a one-call case by `sequence` in its evidence snippet (SEQUENCE_SNIPPET),
// and both start their title with `pins current behaviour: `.
import { caseId } from '../agents/generator/caseId';
import type { OracleBinding, TestCase } from '../contracts/types';
import { CHAR_PREFIX } from '../frameworks/header';
import { stepSymbol } from './generate';
import { sequenceOracle } from './oracle';
import { titleOf } from './render';
import type { Observation, Sequence } from './types';

const SEQUENCE_SNIPPET = 'observed by running a generated call sequence (offline search)';
const CALL_SNIPPET = 'observed by running a generated call (offline search)';

export interface CaseContext {
  /** workspace-relative module file */
  file: string;
  language: 'javascript' | 'typescript';
  binding: OracleBinding;
  import_specifier?: string;
}

/** A multi-step sequence, or one whose call was given a callback or consumed: counted as a sequence test. */
function isSequence(seq: Sequence, ran: number): boolean {
  const steps = seq.steps.slice(0, ran);
  return steps.length > 1 || steps.some((s) => (s.args ?? []).some((a) => 'cb' in a));
}

/** `keep`: the facts (facts.ts) whose checks the test asserts beside its main one (assertion minimisation). */
export function sequenceCase(seq: Sequence, obs: Observation, ctx: CaseContext, keep?: ReadonlySet<string>): TestCase | undefined {
  const local = ctx.binding.local;
  const built = sequenceOracle(seq, obs, local, [local], ctx.language === 'typescript', keep);
  if (!built) return undefined;
  const ran = obs.steps.length;
  const symbol = stepSymbol(seq, obs, ran - 1, local);
  const title = `${CHAR_PREFIX}${titleOf(seq, obs, local, built.outcome.text)}`;
  const o = built.oracle;
  const text = [o.setup, o.call].filter(Boolean).join('\n');
  // A case whose code never calls what it is about pins nothing of it (a test that cannot fail).
  if (!callsTarget(text, local)) return undefined;
  const sequence = isSequence(seq, ran);
  const error = built.outcome.kind === 'throws';
  return {
    id: caseId(`${ctx.file}#${symbol}`, `search ${text}`),
    title,
    target: { file: ctx.file, symbol, ...(ctx.import_specifier ? { import_specifier: ctx.import_specifier } : {}) },
    kind: error ? 'error' : 'boundary',
    priority: error ? 'P3' : 'P2',
    preconditions: o.temp_dir ? ['a temporary folder the test creates and removes'] : [],
    steps: text.split('\n'),
    expected: [
      `${built.outcome.text}${o.expected !== undefined ? `: ${o.expected.slice(0, 200)}` : ''} (observed when AMTP ran it; pins current behaviour)`,
    ],
    rationale:
      'no documented result: what the code did when AMTP ran this sequence is pinned, so a later change to it is noticed (characterization)',
    evidence: { source: 'source', snippet: sequence ? SEQUENCE_SNIPPET : CALL_SNIPPET },
    oracle: { ...o, language: ctx.language, bindings: [ctx.binding] },
  };
}

/** Whether a planned case came from a generated sequence (for summaries and the bench's counts). */
export function isSequenceCase(c: Pick<TestCase, 'evidence'>): boolean {
  return c.evidence?.snippet === SEQUENCE_SNIPPET;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether code calls, constructs or reads a member of the target's binding. */
export function callsTarget(code: string, local: string): boolean {
  const name = escape(local);
  return new RegExp(`(^|[^\\w$.])(new\\s+)?${name}\\s*(\\(|\\.|\\[|\\?\\.)`, 'm').test(code);
}
