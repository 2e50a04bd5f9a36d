// The VS Code Language Model API (vscode.lm) as a provider. The language server cannot reach
// vscode.lm, so each request goes to the client over amtp/lmChat (server/src/protocol.ts): the
// agent's system prompt and the envelope, nothing else. The client asks VS Code for the person's
// consent, sends, and answers with the text. The reply then crosses the same boundary as any model's.
import type { AgentId } from '../core/agents';
import { CancelledError } from '../core/errors';
import { DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_MODEL_TIMEOUT_SECONDS } from '../core/providers';
import type { LmChatParams, LmChatResult, LmModelInfo } from '../protocol';
import { LlmConfigError, MalformedLlmOutput, OutputTruncated, RateLimitError, TransientLlmError } from './errors';
import { defaultDeadlineSeconds, overCap, streamLimitBytes } from './replyLimits';
import type { ChatReply, ChatRequest, LlmProvider, LlmSession } from './provider';

/** The client's side of vscode.lm, as the server sees it (lsp/service.ts wires it to the connection). */
export interface LmBridge {
  models(): Promise<LmModelInfo[]>;
  chat(params: LmChatParams, signal?: AbortSignal): Promise<LmChatResult>;
}

/** Shown by VS Code when it asks the person to let AMTP use a model. */
const LM_JUSTIFICATION =
  "AMTP sends each agent's instructions and a map of this workspace (credentials redacted) to generate and review tests.";

/** `auto` (or nothing) takes the first model, preferring Copilot's; else the id, vendor/family, family or name. */
export function pickModel(models: readonly LmModelInfo[], selector: string): LmModelInfo | undefined {
  if (!selector || selector === 'auto') return models.find((m) => m.vendor === 'copilot') ?? models[0];
  const s = selector.toLowerCase();
  return (
    models.find((m) => m.id === selector) ??
    models.find((m) => `${m.vendor}/${m.family}`.toLowerCase() === s) ??
    models.find((m) => m.family.toLowerCase() === s) ??
    models.find((m) => m.name.toLowerCase() === s)
  );
}

export class VscodeLmProvider implements LlmProvider {
  readonly name = 'vscode-lm';
  private listing: Promise<LmModelInfo[]> | undefined;

  constructor(
    private readonly bridge: LmBridge,
    private readonly opts: { timeoutSeconds?: number; deadlineSeconds?: number; maxOutputTokens?: number } = {},
  ) {}

  /** Asked once per provider (one run): the models vscode.lm.selectChatModels offers. */
  models(): Promise<LmModelInfo[]> {
    this.listing ??= this.bridge.models().catch((e: unknown) => {
      this.listing = undefined;
      throw e;
    });
    return this.listing;
  }

  openSession(agent: AgentId): LlmSession {
    let used = false;
    return {
      complete: async (req: ChatRequest): Promise<ChatReply> => {
        if (used) throw new Error('an LLM session serves exactly one request');
        used = true;
        const models = await this.models();
        const model = pickModel(models, req.model);
        if (!model) {
          const offered =
            models.map((m) => `${m.id} (${m.vendor}/${m.family})`).join(', ') ||
            'none: install and sign in to a chat model extension such as GitHub Copilot';
          throw new LlmConfigError(
            `no VS Code language model matches "${req.model}" (amtp.model / amtp.models.${agent}); offered: ${offered}`,
          );
        }
        const idle = this.opts.timeoutSeconds ?? DEFAULT_MODEL_TIMEOUT_SECONDS;
        const bound = req.maxOutputTokens ?? this.opts.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
        const res = await this.bridge.chat(
          {
            agent,
            model: model.id,
            messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
            justification: LM_JUSTIFICATION,
            idleTimeoutMs: idle * 1000,
            deadlineMs: ((this.opts.deadlineSeconds ?? 0) > 0 ? this.opts.deadlineSeconds! : defaultDeadlineSeconds(idle, bound)) * 1000,
            maxOutputTokens: bound,
            maxReplyBytes: streamLimitBytes(bound),
          },
          req.signal,
        );
        if (req.signal?.aborted) throw new CancelledError();
        if (res.error) throw lmError(res.error, model);
        if (res.cut) throw cutReply(agent, bound, res);
        if (!res.content) throw new MalformedLlmOutput(`${agent}: the VS Code model ${model.id} sent no text`, '', res.usage);
        return { content: res.content, model: res.model ?? model.id, ...(res.usage ? { usage: res.usage } : {}) };
      },
    };
  }
}

/** The client stopped reading past the reply's limit: over the byte cap it is malformed, else it ran past its bound. */
function cutReply(agent: AgentId, bound: number, res: LmChatResult): Error {
  const bytes = Buffer.byteLength(res.content ?? '', 'utf8');
  return (
    overCap(agent, bytes, res.usage) ??
    new OutputTruncated(
      `${agent}: the reply went on past its output bound of ${bound} tokens (cut after ${bytes} bytes, 1.5 × the bound at ≈4 bytes a token); raise it with amtp.maxOutputTokens`,
      bound,
      (res.content ?? '').slice(-200),
      res.usage,
    )
  );
}

function lmError(e: NonNullable<LmChatResult['error']>, model: LmModelInfo): Error {
  switch (e.kind) {
    case 'NoPermissions':
      return new LlmConfigError(
        `VS Code did not let AMTP use ${model.name} (${model.vendor}): ${e.message}. Start the run again and allow AMTP when VS Code asks, or manage access under Accounts → Manage Language Model Access.`,
      );
    case 'Blocked':
      return new RateLimitError(`VS Code blocked the request to ${model.name} (quota or rate limit): ${e.message}`, undefined);
    case 'NotFound':
      return new LlmConfigError(`the VS Code model ${model.id} is gone: ${e.message}`);
    case 'Cancelled':
      return new CancelledError();
    case 'Timeout':
    default:
      return new TransientLlmError(`the VS Code model ${model.id} failed: ${e.message}`);
  }
}
