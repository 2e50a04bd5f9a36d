import { createProvider } from '../../server/src/app/providers';
import { standardStages } from '../../server/src/app/stages';
import { crawlMap } from '../../server/src/agents/crawler/staticMap';
import { approveAll } from '../../server/src/gateway/approvers';
import type { Approver } from '../../server/src/gateway/gateway';
import { CapabilityMemory } from '../../server/src/llm/capabilities';
import { OpenAiProvider } from '../../server/src/llm/openaiProvider';
import type { PipelineDeps, PipelineEvent } from '../../server/src/pipeline/deps';
import { LowdbStore } from '../../server/src/store/lowdb';

/** Real pipeline wiring against a base URL (the fake server), with millisecond backoff bases. */
export function openAiDeps(
  ws: string,
  baseURL: string,
  opts: { approver?: Approver; events?: PipelineEvent[]; apiKey?: string; signal?: AbortSignal } = {},
): PipelineDeps {
  return {
    workspace: ws,
    store: new LowdbStore(ws),
    // A memory of refusals of its own, so no test depends on another's (or writes the user's cache dir).
    provider: new OpenAiProvider({
      apiKey: opts.apiKey ?? 'sk-test-fake-key-000',
      baseURL,
      timeoutMs: 5000,
      capabilities: new CapabilityMemory(),
    }),
    approver: opts.approver ?? approveAll,
    stages: standardStages(),
    crawl: crawlMap,
    backoff: { rateLimitBaseMs: 10, transientBaseMs: 5, maxTransportRetries: 3 },
    signal: opts.signal,
    onEvent: (e) => opts.events?.push(e),
  };
}

/** Real pipeline wiring with the offline provider. */
export function offlineDeps(ws: string, approver: Approver = approveAll, extra: Partial<PipelineDeps> = {}): PipelineDeps {
  return {
    workspace: ws,
    store: new LowdbStore(ws),
    provider: createProvider({ provider: 'offline' }),
    approver,
    stages: standardStages(),
    crawl: crawlMap,
    ...extra,
  };
}
