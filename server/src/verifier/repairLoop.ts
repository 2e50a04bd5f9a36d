// The bounded repair loop (docs/verifier.md, "Repair"): up to `repairAttempts` fresh sessions for one
// failing test. A candidate replaces the test on disk, must pass N runs alone, and is reverted otherwise.
import { AmtpError, CancelledError, SchemaValidationError, errorMessage } from '../core/errors';
import type { RepairRecord } from '../core/run';
import { addUsage } from '../core/usage';
import type { RepairOutput } from '../contracts/types';
import { MalformedLlmOutput } from '../llm/errors';
import { firstLine } from './classify';
import { putFile } from './files';
import { importHeader, replaceImports } from './importHeader';
import { repairSystemPrompt, requestRepair, type RepairRequest } from './repair';
import { symbolInfo } from '../agents/engineer/batches';
import { estimateTokens } from '../agents/budget';
import { DEFAULT_BATCHING } from '../core/run';
import type { TestFileState, VerifyState } from './state';
import { findTests, replaceTest, testSource, withIdComment } from './testFile';

export type RepairOutcome =
  | { kind: 'fixed' | 'code_bug' | 'dropped'; reason: string; attempts: number }
  | { kind: 'wrong_place'; path: string; reason: string; attempts: number };

/** What a repair session is told beyond the test: the runner did not collect its file (placePhase.ts). */
export interface RepairContext {
  collect?: RepairRequest['collect'];
}

export async function repairLoop(
  s: VerifyState,
  file: TestFileState,
  id: string,
  message: string,
  extra: RepairContext = {},
): Promise<RepairOutcome> {
  const { ctx } = s;
  const max = ctx.params.repairAttempts;
  const previous: { test: string; error: string }[] = [];
  let error = message;
  let test = testSource(file.path, file.content, id) ?? '';
  for (let attempt = 1; attempt <= max; attempt++) {
    ctx.info(`verify: repairing ${id} (attempt ${attempt} of ${max}) in a new session`);
    const asked = await ask(s, file, id, test, error, attempt, previous, extra);
    if (asked.kind === 'failed') {
      if (asked.outcome) return asked.outcome;
      continue;
    }
    const { reply, artifactId } = asked;
    const record = (outcome: RepairRecord['outcome'], err?: string) =>
      ctx.update((v) => {
        v.repairs.push({ caseId: id, attempt, outcome, artifactId, ...(err ? { error: err } : {}) });
      });
    if (reply.verdict === 'code_bug') {
      await record('code_bug');
      return {
        kind: 'code_bug',
        reason: `possible bug (repair session): ${reply.reason}; observed: ${JSON.stringify(firstLine(message))}`,
        attempts: attempt,
      };
    }
    if (reply.verdict === 'cannot_fix' || (reply.verdict === 'wrong_place' && !extra.collect)) {
      await record('cannot_fix');
      return { kind: 'dropped', reason: `the repair session could not fix it: ${reply.reason}`, attempts: attempt };
    }
    if (reply.verdict === 'wrong_place') {
      await record('wrong_place');
      return { kind: 'wrong_place', path: reply.path!, reason: reply.reason, attempts: attempt };
    }
    const candidate = candidateFile(file, id, reply.test!, reply.imports);
    if (typeof candidate !== 'string') {
      await record('invalid_reply', candidate.error);
      previous.push({ test: reply.test!, error: candidate.error });
      continue;
    }
    const failure = await tryCandidate(s, file, id, candidate, attempt);
    if (!failure) {
      file.content = candidate;
      await record('fixed');
      return { kind: 'fixed', reason: `repaired in ${attempt} attempt(s): ${reply.reason}`, attempts: attempt };
    }
    error = failure;
    await record('still_failing', firstLine(error));
    previous.push({ test: reply.test!, error });
    test = reply.test!;
    await putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, file.path, file.content, `reverts repair attempt ${attempt} of ${id}`);
  }
  return { kind: 'dropped', reason: `still failing after ${max} repair attempt(s): ${firstLine(error)}`, attempts: max };
}

type Asked = { kind: 'reply'; reply: RepairOutput; artifactId: string } | { kind: 'failed'; outcome?: RepairOutcome };

/**
 * One repair attempt (its new sessions retried by the one policy: malformed replies, 429/5xx with
 * back-off). A reply that breaks the contract, or stays malformed, is a failed attempt; a provider
 * that stays unavailable ends the loop.
 */
async function ask(
  s: VerifyState,
  file: TestFileState,
  id: string,
  test: string,
  error: string,
  attempt: number,
  previous: { test: string; error: string }[],
  extra: RepairContext,
): Promise<Asked> {
  const { ctx } = s;
  let failure: unknown;
  try {
    const imports = importHeader(file.path, file.content).text || undefined;
    const symbol = repairSymbol(s, id, { test, imports, error: error.slice(0, 4000), previous, case: s.caseOf.get(id) });
    const answer = await requestRepair(
      ctx,
      {
        run: ctx.run(),
        engineerArtifactId: ctx.engineerArtifactId,
        framework: ctx.plan.framework,
        file: file.path,
        testCase: s.caseOf.get(id),
        caseId: id,
        test,
        imports,
        error,
        attempt,
        previous: [...previous],
        ...(extra.collect ? { collect: extra.collect } : {}),
        ...(ctx.cases.project.test_setup.typecheck ? { typecheck: ctx.cases.project.test_setup.typecheck } : {}),
        ...(symbol ? { symbol } : {}),
      },
      (u) =>
        ctx.update((v) => {
          v.usage = { ...v.usage, repair: addUsage(v.usage?.repair, u) };
        }),
    );
    if (answer.ok) return { kind: 'reply', reply: answer.value, artifactId: answer.artifact.id };
    failure = answer.error;
    await recordInvalid(s, id, attempt, answer.reason);
  } catch (e) {
    if (e instanceof CancelledError) throw e;
    failure = e;
    await recordInvalid(s, id, attempt, errorMessage(e));
  }
  if (failure instanceof MalformedLlmOutput || failure instanceof SchemaValidationError) return { kind: 'failed' };
  return {
    kind: 'failed',
    outcome: {
      kind: 'dropped',
      reason: `repair unavailable (${failure instanceof AmtpError ? failure.kind : 'error'}: ${errorMessage(failure)}); the test failed: ${firstLine(error)}`,
      attempts: attempt,
    },
  };
}

async function recordInvalid(s: VerifyState, id: string, attempt: number, error: string): Promise<void> {
  await s.ctx.update((v) => {
    v.repairs.push({ caseId: id, attempt, outcome: 'invalid_reply', error });
  });
}

function candidateFile(file: TestFileState, id: string, test: string, imports: string | undefined): string | { error: string } {
  try {
    // The person's own file keeps its imports: their tests use them (only the test itself is replaced).
    const base = imports && !file.personal ? replaceImports(file.path, file.content, imports) : file.content;
    const candidate = replaceTest(file.path, base, id, withIdComment(file.path, test, id));
    if (!findTests(file.path, candidate).some((b) => b.caseId === id))
      return { error: 'the replacement is not a test that carries the case id' };
    return candidate;
  } catch (e) {
    return { error: errorMessage(e) };
  }
}

/** Writes the candidate and runs the test alone N times; returns the failure, or undefined when it passed every run. */
async function tryCandidate(
  s: VerifyState,
  file: TestFileState,
  id: string,
  candidate: string,
  attempt: number,
): Promise<string | undefined> {
  const { ctx } = s;
  await putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, file.path, candidate, `repair attempt ${attempt} of ${id}`);
  let failure: string | undefined;
  for (let run = 1; run <= ctx.params.runs && !failure; run++) {
    const { obs } = await s.runner.run(file.path, [id], { grep: id });
    const o = obs.get(id)!;
    if (o.status !== 'passed') failure = o.message ?? o.status;
  }
  await s.flushPids();
  return failure;
}

/**
 * The function under test as the engineer had it (its signature, doc, whole source and helpers), so a
 * repair is judged against the code and not read from a stack trace (the is-what relay run, F6):
 * within what the request has left of --max-input-tokens, helpers first to go, then an outline.
 */
function repairSymbol(s: VerifyState, id: string, rest: unknown): RepairRequest['symbol'] {
  const c = s.caseOf.get(id);
  if (!c || !s.ctx.map) return undefined;
  const limits = s.ctx.run().params.batching ?? DEFAULT_BATCHING;
  const fit = limits.inputTokens - estimateTokens(repairSystemPrompt(s.ctx.plan.framework)) - estimateTokens(rest) - 256;
  const info = symbolInfo(s.ctx.map, c.target.file, c.target.symbol, fit);
  return info.source && estimateTokens(info) <= fit ? info : undefined;
}
