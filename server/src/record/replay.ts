import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { crawlWorkspace } from '../agents/crawler/staticMap';
import type { Approver } from '../gateway/gateway';
import { errorMessage } from '../core/errors';
import { resolveParams } from '../pipeline/config';
import { observableState } from '../pipeline/observable';
import { startRun } from '../pipeline/orchestrator';
import { LowdbStore } from '../store/lowdb';
import type { RunStore } from '../store/types';
import type { AgentId } from '../core/agents';
import type { RunRecord } from '../core/run';
import { BATCHINGS } from '../agents/batchings';
import { batchedAgentStage } from '../pipeline/batchStage';
import type { Stage } from '../pipeline/stage';
import { writeStage } from '../pipeline/writeStage';
import { decisionStage } from '../pipeline/decisionStage';
import { loadRecording, type Recording } from './recording';
import { ReplayDivergence, ReplayProvider, recordedSystemPrompts, type ConsumedEvent } from './replayProvider';
import type { CrawlerOutput } from '../contracts/types';
import type { ToolResult } from '../core/toolCall';
import { replayTools } from './toolTap';
import { replayTests } from './testTap';
import { replayChars } from './charTap';
import { characterizeStage } from '../characterize/stage';
import { verifyStage } from '../verifier/stage';

/** Everything a replay produced, in a form two replays can be compared by. */
export interface ReplayOutput {
  run_id: string;
  final: unknown;
  artifacts: { agent: string; id: string; text: string }[];
  files: { path: string; content: string }[];
  /** the recorded events the replay consumed, in order, with the hash of what it was given */
  trace: ConsumedEvent[];
  error?: string;
}

export interface ReplayOptions {
  /** fault injection for tests: make the replayed tool results or replies non-deterministic */
  inject?: 'tool' | 'reply';
  /**
   * Pinned inputs: the crawler's static map and the system prompts come from the
   * recording instead of this version's code. That is how a recording made by an
   * older version still replays after the crawler or the prompts improved; the
   * strict default re-derives both and so also checks the code.
   */
  pinned?: boolean;
}

/**
 * Runs the pipeline again from a recording alone: LLM replies and tool returns
 * come from the recording, so neither the workspace nor the network is needed.
 */
export async function replayRecording(file: string, outDir: string, opts: ReplayOptions = {}): Promise<ReplayOutput> {
  const rec = await loadRecording(file);
  const h = rec.header.run;
  const ws = path.join(outDir, h.workspace_name);
  await fsp.mkdir(ws, { recursive: true });
  const trace: ConsumedEvent[] = [];
  const store = new LowdbStore(ws);
  const params = recordedParams(rec);
  // Format 3 recorded the verifier: its test runs are answered from the recording and its rewrites checked against it.
  const tests = rec.header.format_version >= 3 && h.verify ? replayTests(rec, trace) : undefined;
  if (tests) params.verify = h.verify;
  // A recorded characterization is answered from its char.run returns: the sandbox never runs.
  if (h.characterize !== undefined) params.characterize = h.characterize;
  const { perturbTool, perturbReply } = perturbations(opts.inject);
  const tools = replayTools(rec, trace, perturbTool);
  let run: RunRecord | undefined;
  let error: string | undefined;
  try {
    run = await startRun(
      {
        workspace: ws,
        store,
        provider: new ReplayProvider(rec, trace, perturbReply),
        // Pinned: the prompts the recording was made with, so the prompt hashes (and artifact ids) match it.
        ...(opts.pinned ? { systemPrompts: recordedSystemPrompts(rec) } : {}),
        approver: recordedApprover(rec),
        // A replay writes files into its own folder and never runs them: the verify stage (format 3) gets recorded test results.
        stages: [...replayAgentStages(h.characterize !== undefined), writeStage(), ...(tests ? [verifyStage] : [])],
        ...(tests ? { tests } : {}),
        charRuns: replayChars(rec, trace),
        crawl: opts.pinned ? async () => recordedStaticMap(rec) : async (w) => (await crawlWorkspace(w, { tools })).map,
        // Waits already happened when the run was recorded; a replay only needs the decisions.
        backoff: { rateLimitBaseMs: 0, transientBaseMs: 0, maxDelayMs: 0 },
      },
      params,
      h.run_id,
    );
    const missed = tests?.unconsumedWrites() ?? [];
    // A replay that stopped at a divergence says where; the writes it never reached are a consequence.
    if (run.reason?.includes('replay diverged')) error = run.reason;
    else if (missed.length) error = `replay diverged: the recording has ${missed.length} more verifier write(s), first ${missed[0].path}`;
  } catch (e) {
    error = errorMessage(e);
    run = await store.getRun(h.run_id);
  }
  return replayOutput(store, ws, h.run_id, run, trace, error);
}

/** The run's parameters as recorded. */
function recordedParams(rec: Recording): ReturnType<typeof resolveParams> {
  const h = rec.header.run;
  const params = resolveParams({
    depth: h.depth,
    framework: h.framework,
    provider: h.provider,
    models: h.models as Record<AgentId, string>,
    seed: h.seed,
    temperature: h.temperature,
    maxAttempts: h.max_attempts,
  });
  // The same budgets cut the same batches; one batch at a time gives every replay the same trace order.
  if (h.batching) params.batching = { ...h.batching, concurrency: 1 };
  // The same scope narrows the same map: without it, the replay would plan work the recording never had.
  if (h.scope) params.scope = h.scope;
  // The same lessons, or none: never the replay folder's own store.
  params.lessons = h.lessons ?? [];
  params.decided = h.decided ?? { decisions: [], detected: [], ignored: 0 };
  return params;
}

/** The fault a test injects: noise in the replayed tool results, or a changed title in the replies. */
function perturbations(inject: ReplayOptions['inject']): {
  perturbTool?: (r: ToolResult) => ToolResult;
  perturbReply?: (content: string) => string;
} {
  if (inject === 'tool')
    return { perturbTool: (r) => ({ ...r, structuredContent: r.structuredContent && injectNoise(r.structuredContent) }) };
  if (inject === 'reply')
    return { perturbReply: (c) => c.replace(/"title":\s*"/, (m) => `${m}${Math.random().toString(36).slice(2, 8)} `) };
  return {};
}

/** What the replay produced: the run's observable state, its committed artifacts and the files it wrote. */
async function replayOutput(
  store: RunStore,
  ws: string,
  runId: string,
  run: RunRecord | undefined,
  trace: ConsumedEvent[],
  error: string | undefined,
): Promise<ReplayOutput> {
  const artifacts: ReplayOutput['artifacts'] = [];
  for (const a of run?.activities ?? []) {
    if (a.artifactId) artifacts.push({ agent: a.agent, id: a.artifactId, text: await store.artifactRaw(runId, a.artifactId) });
  }
  return {
    run_id: runId,
    final: run ? observableState(run).state : null,
    artifacts,
    files: await readTree(ws),
    trace,
    ...(error ? { error } : {}),
  };
}

function recordedStaticMap(rec: Recording): CrawlerOutput {
  const task = rec.events.find((e) => e.type === 'task_sent' && e.recipient_agent_id === 'crawler');
  if (!task) throw new ReplayDivergence('replay diverged: the recording has no crawler task to take the static map from', null);
  const req = rec.payloads.get(task.payload_ref) as { messages: { content: string }[] };
  return (JSON.parse(req.messages[1].content) as { payload: CrawlerOutput }).payload;
}

/** Approval decisions are part of the recording: the last decision seen for each request. */
function recordedApprover(rec: Recording): Approver {
  const decisions = new Map<string, string>();
  for (const e of rec.events) {
    if (e.type !== 'state_transition') continue;
    const state = rec.payloads.get(e.payload_ref) as { approvals?: { id: string; decision: string }[] };
    for (const a of state.approvals ?? []) decisions.set(a.id, a.decision);
  }
  return {
    async ask(req) {
      const d = decisions.get(req.id);
      if (d === 'approved' || d === 'rejected' || d === 'timeout') return { decision: d, by: 'replay' };
      return { decision: 'pending', by: 'replay' };
    },
  };
}

function injectNoise(v: Record<string, unknown>): Record<string, unknown> {
  const noise = `${Date.now()}-${Math.random()}`;
  if (typeof v.content === 'string') return { ...v, content: `${v.content}\n// ${noise}\n` };
  if (Array.isArray(v.entries) && v.entries.length) {
    const [first, ...rest] = v.entries as Record<string, unknown>[];
    return { ...v, entries: [{ ...first, size: Math.floor(Math.random() * 1e9) }, ...rest] };
  }
  return { ...v, noise };
}

async function readTree(root: string, rel = ''): Promise<{ path: string; content: string }[]> {
  const out: { path: string; content: string }[] = [];
  const entries = (await fsp.readdir(path.join(root, rel), { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const d of entries) {
    const p = rel ? `${rel}/${d.name}` : d.name;
    if (!rel && d.name === '.amtp') continue;
    if (d.isDirectory()) out.push(...(await readTree(root, p)));
    else if (d.isFile()) out.push({ path: p, content: await fsp.readFile(path.join(root, p), 'utf8') });
  }
  return out;
}

/** Format 2 recordings were made with batches; format 3 may have characterized. */
function replayAgentStages(characterize: boolean): Stage[] {
  return [
    batchedAgentStage('crawler', BATCHINGS.crawler),
    batchedAgentStage('generator', BATCHINGS.generator),
    ...(characterize ? [characterizeStage] : []),
    decisionStage,
    batchedAgentStage('engineer', BATCHINGS.engineer),
  ];
}
