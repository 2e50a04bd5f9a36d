// The vscode-lm provider through the real language server over stdio: the test plays the VS Code
// client, answering amtp/lmModels and amtp/lmChat the way client/src/model/lmChat.ts does. (The real
// extension host with a registered fake chat model: test/vscode/suite/vscodeLm.test.ts.)
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CancellationToken,
  type MessageConnection,
} from 'vscode-languageserver/node';
import { AmtpService, type ClientPort } from '../../server/src/lsp/service';
import type * as P from '../../server/src/protocol';
import type { ReceivedRequest } from '../helpers/fakeOpenAi';
import { GOOD_TEST_PATH, goodModel, makeAddWorkspace } from '../helpers/scriptedModel';

const MODELS: P.LmModelInfo[] = [
  { id: 'vendor-a-model', name: 'Model A', vendor: 'vendor-a', family: 'fam-a', version: '1', maxInputTokens: 100_000 },
  { id: 'copilot-gpt', name: 'GPT (Copilot)', vendor: 'copilot', family: 'fam-b', version: '2', maxInputTokens: 64_000 },
];

/** What a well-behaved chat model answers to an lmChat request (the scripted model of the OpenAI tests). */
function answer(p: P.LmChatParams): P.LmChatResult {
  const agent = p.agent as ReceivedRequest['agent'];
  const reply = goodModel({
    agent,
    envelope: JSON.parse(p.messages[1].content),
    path: '',
    pathname: '',
    query: {},
    headers: {},
    body: { model: p.model, messages: p.messages },
  });
  return { content: (reply as { content: string }).content, model: p.model, usage: { promptTokens: 100, completionTokens: 20 } };
}

async function startServer(
  ws: string,
  settings: P.ServerSettings,
  onChat: (p: P.LmChatParams, token: CancellationToken) => Promise<P.LmChatResult>,
) {
  const child = spawn(process.execPath, [path.resolve(__dirname, '../../dist/server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const conn: MessageConnection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const views: P.RunView[] = [];
  const modelCalls: number[] = [];
  conn.onNotification('amtp/runChanged', (p: P.RunChangedParams) => {
    views.push(p.run);
  });
  conn.onRequest('amtp/lmModels', () => {
    modelCalls.push(Date.now());
    return { models: MODELS } satisfies P.LmModelsResult;
  });
  conn.onRequest('amtp/lmChat', (p: P.LmChatParams, token: CancellationToken) => onChat(p, token));
  conn.listen();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(ws).href,
    workspaceFolders: [{ uri: pathToFileURL(ws).href, name: 'adder' }],
    capabilities: {},
    initializationOptions: { trusted: true, settings } satisfies P.InitOptions,
  });
  await conn.sendNotification('initialized', {});
  const until = async (what: string, fn: () => boolean) => {
    const deadline = Date.now() + 30_000;
    while (!fn()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const stop = async () => {
    await conn.sendRequest('shutdown').catch(() => undefined);
    await conn.sendNotification('exit').catch(() => undefined);
    conn.dispose();
    child.kill();
  };
  return { conn, views, modelCalls, until, stop };
}

describe('provider vscode-lm over the protocol', function () {
  this.timeout(60_000);
  let ws: string;
  beforeEach(async () => {
    ws = await makeAddWorkspace();
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  it('each agent is one amtp/lmChat with its system prompt and envelope, on the model the settings pick; usage reaches the run view', async () => {
    const chats: P.LmChatParams[] = [];
    const s = await startServer(
      ws,
      { provider: 'vscode-lm', model: 'fam-b', models: { engineer: 'vendor-a/fam-a' }, verify: false },
      async (p) => {
        chats.push(p);
        return answer(p);
      },
    );
    try {
      const { runId } = (await s.conn.sendRequest('amtp/generate', { depth: 'standard', framework: 'auto' })) as P.GenerateResult;
      await s.until('the run to end', () => s.views.some((v) => v.runId === runId && v.status !== 'running'));
      const last = s.views.filter((v) => v.runId === runId).at(-1)!;
      assert.equal(last.status, 'completed', last.reason);
      assert.deepEqual(
        chats.map((c) => [c.agent, c.model]),
        [
          ['crawler', 'copilot-gpt'],
          ['generator', 'copilot-gpt'],
          ['engineer', 'vendor-a-model'],
        ],
      );
      for (const c of chats) {
        assert.deepEqual(
          c.messages.map((m) => m.role),
          ['system', 'user'],
          'the session is the system prompt and the envelope, nothing else',
        );
        assert.match(c.messages[0].content, /^You are the /);
        assert.equal(JSON.parse(c.messages[1].content).to_agent, c.agent);
        assert.match(c.justification, /AMTP sends each agent's instructions/);
        assert.equal(c.maxOutputTokens, 4096);
        assert.equal(c.idleTimeoutMs, 600_000);
      }
      assert.equal(s.modelCalls.length, 1, 'the models are listed once per run');
      assert.deepEqual(last.usage!.total, { promptTokens: 300, completionTokens: 60, cachedTokens: 0, requests: 3 });
      assert.deepEqual(
        last.health!.agents.map((a) => [a.agent, a.attempts, a.errors]),
        [
          ['crawler', 1, 0],
          ['generator', 1, 0],
          ['engineer', 1, 0],
        ],
      );
      assert.equal(await fsp.readFile(path.join(ws, GOOD_TEST_PATH), 'utf8').then((t) => t.includes('add(2, 3)')), true);
    } finally {
      await s.stop();
    }
  });

  it('cancelling the run cancels the pending amtp/lmChat on the client ($/cancelRequest)', async () => {
    let seen: CancellationToken | undefined;
    let cancelled = false;
    const s = await startServer(ws, { provider: 'vscode-lm', verify: false }, (p, token) => {
      seen = token;
      return new Promise((resolve) =>
        token.onCancellationRequested(() => {
          cancelled = true;
          resolve({ error: { kind: 'Cancelled', message: 'cancelled' } });
        }),
      );
    });
    try {
      const { runId } = (await s.conn.sendRequest('amtp/generate', { depth: 'standard', framework: 'auto' })) as P.GenerateResult;
      await s.until('the first lmChat', () => seen !== undefined);
      assert.deepEqual(await s.conn.sendRequest('amtp/cancel', { runId }), { cancelled: true });
      await s.until('the client to see the cancellation', () => cancelled);
      await s.until('the run to end', () => s.views.some((v) => v.runId === runId && v.status === 'cancelled'));
    } finally {
      await s.stop();
    }
  });
});

describe('provider vscode-lm in the service (in-process)', function () {
  this.timeout(60_000);
  let ws: string;
  beforeEach(async () => {
    ws = await makeAddWorkspace();
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  const run = async (settings: P.ServerSettings, lm: ClientPort['lm']) => {
    const views: P.RunView[] = [];
    const logs: string[] = [];
    const svc = new AmtpService(
      ws,
      {
        runChanged: (v) => views.push(v),
        requestApproval: async () => ({ decision: 'approved' }),
        progress: () => undefined,
        log: (l) => logs.push(l),
        lm,
      },
      { trusted: true, settings },
    );
    await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    return { last: views.at(-1)!, logs };
  };

  it('the person declined consent (NoPermissions): the run fails at once, saying how to allow AMTP', async () => {
    let calls = 0;
    const { last } = await run(
      { provider: 'vscode-lm', verify: false },
      {
        models: async () => MODELS,
        chat: async () => {
          calls++;
          return { error: { kind: 'NoPermissions', message: 'the user declined' } };
        },
      },
    );
    assert.equal(last.status, 'failed');
    assert.equal(calls, 1, 'not retried');
    assert.match(
      last.reason!,
      /VS Code did not let AMTP use GPT \(Copilot\) \(copilot\): the user declined\. .*allow AMTP when VS Code asks/,
    );
  });

  it('no model matches the setting: the run fails naming the models VS Code offers', async () => {
    const { last } = await run(
      { provider: 'vscode-lm', model: 'gpt-9', verify: false },
      { models: async () => MODELS, chat: async () => assert.fail('no request without a model') },
    );
    assert.equal(last.status, 'failed');
    assert.match(
      last.reason!,
      /no VS Code language model matches "gpt-9" \(amtp\.model \/ amtp\.models\.crawler\); offered: vendor-a-model \(vendor-a\/fam-a\), copilot-gpt \(copilot\/fam-b\)/,
    );
  });

  it('a client without vscode.lm: generate is refused up front, nothing runs', async () => {
    const svc = new AmtpService(
      ws,
      {
        runChanged: () => undefined,
        requestApproval: async () => ({ decision: 'approved' }),
        progress: () => undefined,
        log: () => undefined,
      },
      { trusted: true, settings: { provider: 'vscode-lm' } },
    );
    await assert.rejects(svc.generate({ depth: 'smoke', framework: 'auto' }), /works only inside the VS Code extension/);
    assert.deepEqual((await svc.runs()).runs, []);
  });

  it('a model reply that is not JSON is MalformedLlmOutput, retried in a new request, and both replies count', async () => {
    const agents: string[] = [];
    const { last } = await run(
      { provider: 'vscode-lm', verify: false },
      {
        models: async () => MODELS,
        chat: async (p) => {
          agents.push(p.agent);
          return agents.length === 1 ? { content: 'Sure! Here is the map.', usage: { promptTokens: 5, completionTokens: 5 } } : answer(p);
        },
      },
    );
    assert.equal(last.status, 'completed', last.reason);
    assert.deepEqual(
      last.activities[0].errors.map((e) => e.kind),
      ['MalformedLlmOutput'],
    );
    assert.deepEqual(agents, ['crawler', 'crawler', 'generator', 'engineer']);
    assert.deepEqual(last.usage!.byAgent.crawler, { promptTokens: 105, completionTokens: 25, cachedTokens: 0, requests: 2 });
  });
});
