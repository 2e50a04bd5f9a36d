// The client's side of the vscode-lm provider: list the models vscode.lm offers, and answer one
// amtp/lmChat request by sending the agent's two messages to the chosen model. Written against a
// small interface (client/src/lm.ts adapts vscode.lm to it), so it runs in plain Node tests too.
import type * as P from '../../../server/src/protocol';
import type { LmHandlers } from '../wiring';

export interface TokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): unknown;
}

export interface LmModelLike {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
  sendRequest(messages: unknown[], options: { justification?: string }, token: TokenLike): Thenable<{ text: AsyncIterable<string> }>;
  countTokens(text: string, token?: TokenLike): Thenable<number>;
}

export interface LmApiLike {
  selectChatModels(selector?: { id?: string }): Thenable<LmModelLike[]>;
  /** vscode.LanguageModelChatMessage.User(text): vscode.lm has no system role in the stable API */
  userMessage(text: string): unknown;
  cancellation(): { token: TokenLike; cancel(): void; dispose(): void };
  /** vscode.LanguageModelError's code (NoPermissions, Blocked, NotFound), if `e` is one */
  errorCode(e: unknown): string | undefined;
}

const KNOWN = new Set(['NoPermissions', 'Blocked', 'NotFound']);

function modelInfo(m: LmModelLike): P.LmModelInfo {
  return { id: m.id, name: m.name, vendor: m.vendor, family: m.family, version: m.version, maxInputTokens: m.maxInputTokens };
}

export function lmHandlers(api: LmApiLike, log: (line: string) => void = () => undefined): LmHandlers {
  return {
    async models() {
      return { models: (await api.selectChatModels()).map(modelInfo) };
    },
    chat: (p, token) => chat(api, p, token, log),
  };
}

async function chat(
  api: LmApiLike,
  p: P.LmChatParams,
  serverToken: TokenLike | undefined,
  log: (line: string) => void,
): Promise<P.LmChatResult> {
  const [model] = await api.selectChatModels({ id: p.model });
  if (!model) return { error: { kind: 'NotFound', message: `no language model with id ${p.model}` } };
  const cts = api.cancellation();
  serverToken?.onCancellationRequested(() => cts.cancel());
  // Two clocks: the idle one restarts with every text fragment, the total deadline does not.
  let stopped: 'idle' | 'deadline' | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (why: 'idle' | 'deadline') => {
    stopped ??= why;
    cts.cancel();
  };
  const deadline = setTimeout(() => stop('deadline'), p.deadlineMs);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop('idle'), p.idleTimeoutMs);
  };
  const timedOut = (): P.LmChatResult => ({
    error: {
      kind: 'Timeout',
      message:
        stopped === 'deadline'
          ? `no complete reply from ${model.id} within the total deadline of ${p.deadlineMs / 1000} s`
          : `no text from ${model.id} for ${p.idleTimeoutMs / 1000} s`,
    },
  });
  try {
    touch();
    // The system prompt goes first as a user message: the stable API has no system role.
    const messages = p.messages.map((m) => api.userMessage(m.content));
    const response = await model.sendRequest(messages, { justification: p.justification }, cts.token);
    const read = await readBounded(response.text, p.maxReplyBytes, touch, cts.token);
    if (stopped) return timedOut();
    if (read.cut)
      cts.cancel(); // the model may still be writing: it is not read further
    else if (cts.token.isCancellationRequested) return { error: { kind: 'Cancelled', message: 'cancelled' } };
    clearTimeout(timer);
    return { content: read.text, model: model.id, ...(read.cut ? { cut: true } : {}), ...(await countUsage(model, p, read.text, log)) };
  } catch (e) {
    if (stopped) return timedOut();
    if (cts.token.isCancellationRequested) return { error: { kind: 'Cancelled', message: 'cancelled' } };
    const code = api.errorCode(e);
    const message = e instanceof Error ? e.message : String(e);
    return { error: { kind: code && KNOWN.has(code) ? (code as 'NoPermissions' | 'Blocked' | 'NotFound') : 'Other', message } };
  } finally {
    clearTimeout(timer);
    clearTimeout(deadline);
    cts.dispose();
  }
}

/** The reply's text up to `maxBytes` (UTF-8): reading stops past it, or when the request is cancelled. */
async function readBounded(
  fragments: AsyncIterable<string>,
  maxBytes: number,
  touch: () => void,
  token: TokenLike,
): Promise<{ text: string; cut: boolean }> {
  let text = '';
  let bytes = 0;
  for await (const fragment of fragments) {
    touch();
    text += fragment;
    bytes += Buffer.byteLength(fragment, 'utf8');
    if (bytes > maxBytes) return { text, cut: true };
    if (token.isCancellationRequested) break;
  }
  return { text, cut: false };
}

/** vscode.lm reports no usage; the model's own tokenizer counts what was sent and received. */
async function countUsage(
  model: LmModelLike,
  p: P.LmChatParams,
  text: string,
  log: (line: string) => void,
): Promise<Pick<P.LmChatResult, 'usage'>> {
  try {
    const prompt = await Promise.all(p.messages.map((m) => model.countTokens(m.content)));
    const completionTokens = await model.countTokens(text);
    return { usage: { promptTokens: prompt.reduce((a, b) => a + b, 0), completionTokens, cachedTokens: 0 } };
  } catch (e) {
    log(`countTokens failed for ${model.id}: ${(e as Error).message}`);
    return {};
  }
}
