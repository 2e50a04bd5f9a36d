// The vscode-lm provider's pieces without VS Code: model selection and error mapping on the
// server side, and the client side (client/src/model/lmChat.ts) against a fake vscode.lm.
import { strict as assert } from 'node:assert';
import { CancelledError } from '../../server/src/core/errors';
import { LlmConfigError, MalformedLlmOutput, OutputTruncated, RateLimitError, TransientLlmError } from '../../server/src/llm/errors';
import type { ChatRequest } from '../../server/src/llm/provider';
import { pickModel, VscodeLmProvider } from '../../server/src/llm/vscodeLmProvider';
import type * as P from '../../server/src/protocol';
import { lmHandlers, type LmApiLike, type LmModelLike, type TokenLike } from '../../client/src/model/lmChat';

const info = (id: string, vendor: string, family: string, name = id): P.LmModelInfo => ({
  id,
  name,
  vendor,
  family,
  version: '1',
  maxInputTokens: 1000,
});
const MODELS = [info('a-1', 'acme', 'small', 'Acme Small'), info('c-1', 'copilot', 'gpt-4o', 'GPT-4o'), info('c-2', 'copilot', 'o3-mini')];
const req = (model: string): ChatRequest => ({
  agent: 'crawler',
  model,
  temperature: 0,
  top_p: 1,
  seed: 1,
  messages: [
    { role: 'system', content: 'S' },
    { role: 'user', content: 'E' },
  ],
});

describe('vscode-lm: server side', () => {
  it('pickModel: auto prefers Copilot; then id, vendor/family, family, name (case-insensitive)', () => {
    assert.equal(pickModel(MODELS, 'auto')?.id, 'c-1');
    assert.equal(pickModel(MODELS, '')?.id, 'c-1');
    assert.equal(pickModel([MODELS[0]], 'auto')?.id, 'a-1');
    assert.equal(pickModel(MODELS, 'c-2')?.id, 'c-2');
    assert.equal(pickModel(MODELS, 'COPILOT/o3-mini')?.id, 'c-2');
    assert.equal(pickModel(MODELS, 'gpt-4o')?.id, 'c-1');
    assert.equal(pickModel(MODELS, 'acme small')?.id, 'a-1');
    assert.equal(pickModel(MODELS, 'gpt-5'), undefined);
    assert.equal(pickModel([], 'auto'), undefined);
  });

  it("a session serves one request; errors map to the pipeline's kinds", async () => {
    const results: P.LmChatResult[] = [
      { error: { kind: 'NoPermissions', message: 'declined' } },
      { error: { kind: 'Blocked', message: 'quota' } },
      { error: { kind: 'NotFound', message: 'gone' } },
      { error: { kind: 'Timeout', message: 'slow' } },
      { error: { kind: 'Other', message: 'boom' } },
      { error: { kind: 'Cancelled', message: 'x' } },
      { content: '' },
    ];
    const p = new VscodeLmProvider({ models: async () => MODELS, chat: async () => results.shift()! });
    const expect = [
      LlmConfigError,
      RateLimitError,
      LlmConfigError,
      TransientLlmError,
      TransientLlmError,
      CancelledError,
      MalformedLlmOutput,
    ];
    for (const cls of expect) await assert.rejects(p.openSession('crawler').complete(req('auto')), cls);
    const one = p.openSession('crawler');
    results.push({ content: '{}', usage: { promptTokens: 3, completionTokens: 1 } });
    assert.deepEqual(await one.complete(req('auto')), { content: '{}', model: 'c-1', usage: { promptTokens: 3, completionTokens: 1 } });
    await assert.rejects(one.complete(req('auto')), /exactly one request/);
  });

  it('the model list is asked once per provider, and again after a failure', async () => {
    let calls = 0;
    const p = new VscodeLmProvider({
      models: async () => {
        if (++calls === 1) throw new Error('client not ready');
        return MODELS;
      },
      chat: async () => ({ content: '{}' }),
    });
    await assert.rejects(p.models(), /client not ready/);
    assert.equal((await p.models()).length, 3);
    await p.models();
    assert.equal(calls, 2);
  });
});

/** A fake vscode.lm: models that stream scripted fragments and count tokens by characters. */
function fakeApi(script: { fragments?: string[]; delayMs?: number; throws?: unknown; hangAfter?: number } = {}) {
  const sent: { model: string; messages: unknown[]; options: unknown }[] = [];
  const model = (id: string): LmModelLike => ({
    id,
    name: id,
    vendor: 'fake',
    family: 'f',
    version: '1',
    maxInputTokens: 1000,
    async sendRequest(messages, options, token) {
      sent.push({ model: id, messages, options });
      if (script.throws) throw script.throws;
      const fragments = script.fragments ?? ['{"a":', '1}'];
      return {
        text: (async function* () {
          for (let i = 0; i < fragments.length; i++) {
            if (script.hangAfter !== undefined && i >= script.hangAfter)
              await new Promise<void>((r) => token.onCancellationRequested(() => r()));
            if (token.isCancellationRequested) return;
            if (script.delayMs) await new Promise((r) => setTimeout(r, script.delayMs));
            yield fragments[i];
          }
        })(),
      };
    },
    async countTokens(text) {
      return text.length;
    },
  });
  const api: LmApiLike = {
    async selectChatModels(sel) {
      return ['m-1', 'm-2'].filter((id) => !sel?.id || sel.id === id).map(model);
    },
    userMessage: (text) => ({ user: text }),
    cancellation() {
      const listeners: (() => void)[] = [];
      const token: TokenLike & { isCancellationRequested: boolean } = {
        isCancellationRequested: false,
        onCancellationRequested: (l) => listeners.push(l),
      };
      return {
        token,
        cancel: () => {
          if (!token.isCancellationRequested) {
            token.isCancellationRequested = true;
            listeners.forEach((l) => l());
          }
        },
        dispose: () => undefined,
      };
    },
    errorCode: (e) => (e as { code?: string }).code,
  };
  return { api, sent };
}

const chatParams = (over: Partial<P.LmChatParams> = {}): P.LmChatParams => ({
  agent: 'crawler',
  model: 'm-2',
  messages: [
    { role: 'system', content: 'SYSTEM' },
    { role: 'user', content: '{"env":1}' },
  ],
  justification: 'because',
  idleTimeoutMs: 1000,
  deadlineMs: 60_000,
  maxOutputTokens: 4096,
  maxReplyBytes: 28_672,
  ...over,
});

describe('vscode-lm: client side (lmChat against a fake vscode.lm)', () => {
  it('lists models; sends the two messages as user messages in order with the justification; counts usage', async () => {
    const { api, sent } = fakeApi();
    const h = lmHandlers(api);
    assert.deepEqual(
      (await h.models()).models.map((m) => m.id),
      ['m-1', 'm-2'],
    );
    assert.deepEqual(await h.chat(chatParams()), {
      content: '{"a":1}',
      model: 'm-2',
      usage: { promptTokens: 6 + 9, completionTokens: 7, cachedTokens: 0 },
    });
    assert.deepEqual(sent, [
      { model: 'm-2', messages: [{ user: 'SYSTEM' }, { user: '{"env":1}' }], options: { justification: 'because' } },
    ]);
  });

  it('an unknown model is NotFound; a LanguageModelError keeps its code; anything else is Other', async () => {
    assert.deepEqual(await lmHandlers(fakeApi().api).chat(chatParams({ model: 'nope' })), {
      error: { kind: 'NotFound', message: 'no language model with id nope' },
    });
    const denied = Object.assign(new Error('User did not consent'), { code: 'NoPermissions' });
    assert.deepEqual(await lmHandlers(fakeApi({ throws: denied }).api).chat(chatParams()), {
      error: { kind: 'NoPermissions', message: 'User did not consent' },
    });
    assert.deepEqual(await lmHandlers(fakeApi({ throws: new Error('net down') }).api).chat(chatParams()), {
      error: { kind: 'Other', message: 'net down' },
    });
  });

  it('the idle timeout restarts with each fragment: a slow but steady stream completes, a stalled one times out', async () => {
    const steady = await lmHandlers(fakeApi({ fragments: ['{"a"', ':', '1', '}'], delayMs: 60 }).api).chat(
      chatParams({ idleTimeoutMs: 150 }),
    );
    assert.equal(steady.content, '{"a":1}');
    const stalled = await lmHandlers(fakeApi({ fragments: ['{"a"', ':1}'], hangAfter: 1 }).api).chat(chatParams({ idleTimeoutMs: 100 }));
    assert.deepEqual(stalled, { error: { kind: 'Timeout', message: 'no text from m-2 for 0.1 s' } });
  });

  it('a stream that goes on past maxReplyBytes is cut (cut: true); one that trickles past the deadline is given up', async () => {
    const long = await lmHandlers(fakeApi({ fragments: Array.from({ length: 50 }, () => 'x'.repeat(100)) }).api).chat(
      chatParams({ maxReplyBytes: 1000 }),
    );
    assert.deepEqual([long.cut, long.content?.length], [true, 1100]);
    const trickle = await lmHandlers(fakeApi({ fragments: Array.from({ length: 100 }, () => ' '), delayMs: 20 }).api).chat(
      chatParams({ idleTimeoutMs: 1000, deadlineMs: 150 }),
    );
    assert.deepEqual(trickle, { error: { kind: 'Timeout', message: 'no complete reply from m-2 within the total deadline of 0.15 s' } });
  });

  it('the server side: a cut reply is OutputTruncated, or MalformedLlmOutput over the 4 MiB cap', async () => {
    const answers: P.LmChatResult[] = [
      { content: 'x'.repeat(30_000), cut: true },
      { content: 'x'.repeat(4 * 1024 * 1024 + 1), cut: true },
    ];
    const p = new VscodeLmProvider({ models: async () => MODELS, chat: async () => answers.shift()! });
    await assert.rejects(
      p.openSession('crawler').complete(req('auto')),
      (e: unknown) => e instanceof OutputTruncated && /cut after 30000 bytes/.test(e.message),
    );
    await assert.rejects(
      p.openSession('crawler').complete(req('auto')),
      (e: unknown) => e instanceof MalformedLlmOutput && /byte cap/.test(e.message),
    );
  });

  it('the server cancelling the request cancels the model request', async () => {
    const listeners: (() => void)[] = [];
    const server: TokenLike = { isCancellationRequested: false, onCancellationRequested: (l) => listeners.push(l) };
    const pending = lmHandlers(fakeApi({ hangAfter: 0 }).api).chat(chatParams({ idleTimeoutMs: 10_000 }), server);
    await new Promise((r) => setTimeout(r, 20));
    listeners.forEach((l) => l());
    assert.deepEqual(await pending, { error: { kind: 'Cancelled', message: 'cancelled' } });
  });
});
