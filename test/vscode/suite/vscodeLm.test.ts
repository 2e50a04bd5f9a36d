// The vscode-lm provider in a real extension host: a fake chat model is registered with VS Code's
// Language Model API, and a Generate run goes through it: vscode.lm.selectChatModels lists it, the
// client sends each agent's system prompt and envelope with model.sendRequest, and the reply comes
// back through the language server's sanitize → parse → validate boundary.
//
// Registering a model needs the proposed API `chatProvider` (vscode.lm.registerChatModelProvider,
// VS Code 1.100), and VS Code accepts a model only for a vendor that an extension with that proposal
// declares under contributes.languageModels. AMTP's manifest cannot declare proposed APIs (the
// Marketplace refuses them), so the suite installs a declaration-only test extension for the vendor
// `amtp-test` (test/vscode/fake-lm, packed by test/vscode/build.mjs) and registers the model from
// here. code-server lets any extension call proposed APIs; desktop VS Code would also need
// --enable-proposed-api, so this file is meant for code-server (npm run test:vscode:code-server).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AmtpApi } from '../../../client/src/extension';
import { OFFLINE_ENGINES } from '../../../server/src/agents/offlineEngines';
import { parseEnvelope } from '../../../server/src/contracts/envelope';
import { OfflineProvider } from '../../../server/src/llm/offlineProvider';
import { loadJsParser } from '../../../server/src/util/jsParser';
import type * as P from '../../../server/src/protocol';

const TEST_FILE = 'test/sample-lib.amtp.test.js';
const ws = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

/** Proposed API of VS Code 1.100 (vscode.proposed.chatProvider.d.ts), typed here for the fake only. */
interface ChatModelProvider {
  provideLanguageModelResponse(
    messages: vscode.LanguageModelChatMessage[],
    options: unknown,
    extensionId: string,
    progress: { report(p: { index: number; part: unknown }): void },
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(text: string | vscode.LanguageModelChatMessage, token: vscode.CancellationToken): Promise<number>;
}
type RegisterChatModelProvider = (id: string, provider: ChatModelProvider, metadata: Record<string, unknown>) => vscode.Disposable;
/** vscode.LanguageModelTextPart (VS Code 1.95+; the typings are pinned to engines.vscode 1.91). */
const TextPart = () => (vscode as unknown as { LanguageModelTextPart: new (value: string) => unknown }).LanguageModelTextPart;

/** Message text across API versions: a string (1.91 typings) or text parts (1.100). */
function textOf(m: vscode.LanguageModelChatMessage | string): string {
  if (typeof m === 'string') return m;
  const c = (m as { content: unknown }).content;
  return typeof c === 'string' ? c : (c as { value?: unknown }[]).map((p) => (typeof p.value === 'string' ? p.value : '')).join('');
}

async function until(what: string, fn: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const roleOf = (m: vscode.LanguageModelChatMessage) => (m.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'assistant');

describe('provider vscode-lm through a fake chat model (real extension host)', () => {
  const seen: { roles: string[]; texts: string[]; extensionId: string }[] = [];
  let registration: vscode.Disposable | undefined;
  let api: AmtpApi;
  const config = () => vscode.workspace.getConfiguration('amtp');

  before(async () => {
    // The fake model answers with AMTP's own engines in this process: it loads their JavaScript
    // parser first, as AMTP's entry points do (cli/main.ts, server.ts); the workspace is JavaScript.
    await loadJsParser();
    api = await vscode.extensions.getExtension<AmtpApi>('amtp.amtp')!.activate();
    await vscode.commands.executeCommand(
      'workbench.extensions.installExtension',
      vscode.Uri.file(path.resolve(__dirname, '..', 'fake-lm.vsix')),
    );
    await until('the fake vendor extension to be installed', () => vscode.extensions.getExtension('amtp-test.amtp-fake-lm') !== undefined);
    const register = (vscode.lm as unknown as { registerChatModelProvider?: RegisterChatModelProvider }).registerChatModelProvider;
    assert.equal(
      typeof register,
      'function',
      'vscode.lm.registerChatModelProvider (proposed API chatProvider) is needed to register the fake model: run this suite in code-server (npm run test:vscode:code-server)',
    );
    // The fake model answers like a well-behaved one: fenced JSON for the agent the system prompt names,
    // computed by the built-in engines from the envelope it was sent.
    registration = register!(
      'amtp-fake-model',
      {
        async provideLanguageModelResponse(messages, _options, extensionId, progress) {
          seen.push({ roles: messages.map(roleOf), texts: messages.map(textOf), extensionId });
          const envelope = textOf(messages[1]);
          const agent = parseEnvelope(envelope).to_agent;
          const answer = await new OfflineProvider(OFFLINE_ENGINES).openSession(agent).complete({
            agent,
            model: 'offline',
            messages: [
              { role: 'system', content: '' },
              { role: 'user', content: envelope },
            ],
            temperature: 0,
            top_p: 1,
            seed: 1,
          });
          const reply = '```json\n' + JSON.stringify(JSON.parse(answer.content), null, 1) + '\n```';
          const third = Math.ceil(reply.length / 3);
          for (let i = 0; i < reply.length; i += third) progress.report({ index: 0, part: new (TextPart())(reply.slice(i, i + third)) });
        },
        async provideTokenCount(text) {
          return Math.ceil(textOf(text).length / 4);
        },
      },
      {
        vendor: 'amtp-test',
        name: 'AMTP Fake Model',
        family: 'amtp-fake',
        version: '1',
        maxInputTokens: 1_000_000,
        maxOutputTokens: 100_000,
        isUserSelectable: true,
      },
    );
    await config().update('provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    await config().update('model', 'amtp-test/amtp-fake', vscode.ConfigurationTarget.Global);
    await config().update('verify', false, vscode.ConfigurationTarget.Global);
    // The offline search characterizes modules after asking to run workspace code; this test is about the model path.
    await config().update('characterize', false, vscode.ConfigurationTarget.Global);
    fs.rmSync(path.join(ws(), TEST_FILE), { force: true });
  });

  after(async () => {
    registration?.dispose();
    for (const key of ['provider', 'model', 'verify', 'characterize'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  it('vscode.lm lists the fake model for the vendor the test extension declares', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: 'amtp-test' });
    assert.deepEqual(
      models.map((m) => [m.id, m.family, m.name]),
      [['amtp-fake-model', 'amtp-fake', 'AMTP Fake Model']],
    );
  });

  it('Generate runs every agent through vscode.lm: one request per batch session, the system prompt and the envelope, counted tokens in the run view', async () => {
    const run = await vscode.commands.executeCommand<P.RunView>('amtp.generate', { depth: 'standard', framework: 'auto' });
    assert.ok(run, 'the command returns the finished run');
    assert.equal(run.status, 'completed', run.reason);
    assert.equal(run.params.provider, 'vscode-lm');
    const agents = seen.map((s) => parseEnvelope(s.texts[1]).to_agent);
    assert.deepEqual([...new Set(agents)], ['crawler', 'generator', 'engineer'], 'each agent in turn, each batch its own request');
    assert.ok(
      seen.every((s) => s.roles.length === 2 && s.roles.every((r) => r === 'user')),
      'the stable API has no system role: the system prompt is the first user message',
    );
    const PROMPT = { crawler: 'You are the Repo Cra', generator: 'You are the Test Cas', engineer: 'You are the Test Eng' } as const;
    assert.deepEqual(
      seen.map((s) => s.texts[0].slice(0, 20)),
      agents.map((a) => PROMPT[a]),
    );
    assert.ok(
      seen.every((s) => s.extensionId === 'amtp.amtp'),
      'the request comes from the AMTP extension',
    );
    // Usage: counted by the model's own tokenizer (a quarter of the characters for this fake).
    const u = run.usage!;
    assert.equal(u.total.requests, seen.length);
    assert.equal(
      u.total.promptTokens,
      seen.reduce((n, s) => n + Math.ceil(s.texts[0].length / 4) + Math.ceil(s.texts[1].length / 4), 0),
    );
    assert.ok(u.total.completionTokens > 0);
    const count = (a: string) => agents.filter((x) => x === a).length;
    assert.deepEqual(
      run.health!.agents.map((a) => [a.agent, a.attempts, a.errors]),
      [
        ['crawler', count('crawler'), 0],
        ['generator', count('generator'), 0],
        ['engineer', count('engineer'), 0],
      ],
    );
    assert.match(fs.readFileSync(path.join(ws(), TEST_FILE), 'utf8'), /^\/\/ Generated by AMTP/);
    assert.match(api.model.get(run.runId) ? 'ok' : '', /ok/, 'the run reached the client model');
  });
});
