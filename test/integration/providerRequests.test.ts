// Golden request shapes for every provider form (keyless, Azure classic, Azure v1, extra headers,
// streaming), and what happens when an endpoint refuses part of a request: the real SDK against the
// loopback fake, so paths, queries, headers and bodies are what an endpoint would see.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SCHEMAS } from '../../server/src/contracts/schemas';
import { CapabilityMemory } from '../../server/src/llm/capabilities';
import { OutputTruncated, TransientLlmError } from '../../server/src/llm/errors';
import { OpenAiProvider, type OpenAiSettings } from '../../server/src/llm/openaiProvider';
import type { ChatRequest } from '../../server/src/llm/provider';
import { FakeOpenAi, type ReceivedRequest } from '../helpers/fakeOpenAi';

const SYSTEM = 'You are the Repo Crawler of AMTP (golden test).';
const ENVELOPE = '{"schema_version":"1"}';
const SCHEMA = SCHEMAS['crawler-output'] as Record<string, unknown>;
const { $schema: _s, $id: _i, ...SENT_SCHEMA } = SCHEMA;

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  agent: 'crawler',
  model: 'model-a',
  temperature: 0,
  top_p: 1,
  seed: 1234,
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: ENVELOPE },
  ],
  responseSchema: { name: 'crawler-output', schema: SCHEMA },
  ...over,
});

/** The golden body: everything an endpoint receives, for an output bound under `bound`. */
const goldenBody = (bound: 'max_tokens' | 'max_completion_tokens', model = 'model-a') => ({
  model,
  messages: [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: ENVELOPE },
  ],
  temperature: 0,
  top_p: 1,
  seed: 1234,
  [bound]: 4096,
  stream: true,
  stream_options: { include_usage: true },
  response_format: { type: 'json_schema', json_schema: { name: 'crawler-output', strict: false, schema: SENT_SCHEMA } },
});

/** What matters of a request's headers: authentication and the extra ones. */
const auth = (r: ReceivedRequest) => ({ authorization: r.headers.authorization, 'api-key': r.headers['api-key'] });

describe('provider request shapes (golden)', () => {
  let fake: FakeOpenAi;
  const provider = (s: OpenAiSettings) => new OpenAiProvider({ capabilities: new CapabilityMemory(), timeoutMs: 5000, ...s });
  const complete = (s: OpenAiSettings, req = request()) => provider(s).openSession('crawler').complete(req);

  beforeEach(async () => {
    fake = await new FakeOpenAi(() => ({ content: '{"ok":true}', chunks: 4 })).start();
    fake.usage = { prompt: 1234, completion: 567, cached: 200 };
  });
  afterEach(() => fake.stop());

  it('keyless base URL (Ollama, LM Studio, vLLM): no Authorization header at all, max_tokens, streamed with usage', async () => {
    const reply = await complete({ baseURL: fake.baseURL });
    assert.deepEqual(reply, {
      content: '{"ok":true}',
      model: 'model-a',
      usage: { promptTokens: 1234, completionTokens: 567, cachedTokens: 200 },
    });
    const [r] = fake.requests;
    assert.equal(r.path, '/v1/chat/completions');
    assert.deepEqual(auth(r), { authorization: undefined, 'api-key': undefined });
    assert.deepEqual(r.body, goldenBody('max_tokens'));
  });

  it('OpenAI with a key: Bearer key; api.openai.com would get max_completion_tokens, other base URLs max_tokens', async () => {
    await complete({ apiKey: 'sk-golden-key-0123456789', baseURL: fake.baseURL });
    assert.deepEqual(auth(fake.requests[0]), { authorization: 'Bearer sk-golden-key-0123456789', 'api-key': undefined });
    assert.deepEqual(fake.requests[0].body, goldenBody('max_tokens'));
  });

  it('extra headers (OpenRouter style) ride on every request, next to the key', async () => {
    await complete({
      apiKey: 'sk-golden-key-0123456789',
      baseURL: fake.baseURL,
      headers: { 'HTTP-Referer': 'https://amtp.example', 'X-Title': 'AMTP' },
    });
    const [r] = fake.requests;
    assert.equal(r.headers['http-referer'], 'https://amtp.example');
    assert.equal(r.headers['x-title'], 'AMTP');
    assert.equal(r.headers.authorization, 'Bearer sk-golden-key-0123456789');
    assert.deepEqual(r.body, goldenBody('max_tokens'));
  });

  it('Azure classic: /openai/deployments/DEPLOYMENT/chat/completions?api-version=…, api-key header, no Authorization', async () => {
    await complete({ kind: 'azure', apiKey: 'azure-golden-key-abcdef', azureEndpoint: fake.origin, azureDeployment: 'dep-one' });
    const [r] = fake.requests;
    assert.equal(r.pathname, '/openai/deployments/dep-one/chat/completions');
    assert.deepEqual(r.query, { 'api-version': '2024-10-21' });
    assert.deepEqual(auth(r), { authorization: undefined, 'api-key': 'azure-golden-key-abcdef' });
    assert.deepEqual(r.body, goldenBody('max_completion_tokens'));
  });

  it("Azure classic without a deployment setting: each agent's model name is its deployment; api-version is the configured one", async () => {
    await complete(
      { kind: 'azure', apiKey: 'azure-golden-key-abcdef', azureEndpoint: `${fake.origin}/`, azureApiVersion: '2025-04-01-preview' },
      request({ model: 'gpt-4o-deploy' }),
    );
    const [r] = fake.requests;
    assert.equal(r.path, '/openai/deployments/gpt-4o-deploy/chat/completions?api-version=2025-04-01-preview');
    assert.deepEqual(r.body, goldenBody('max_completion_tokens', 'gpt-4o-deploy'));
  });

  it('Azure v1: /openai/v1/chat/completions with no api-version, api-key header, no Authorization', async () => {
    await complete({ kind: 'azure', apiKey: 'azure-golden-key-abcdef', azureEndpoint: `${fake.origin}/openai/v1/` });
    const [r] = fake.requests;
    assert.equal(r.path, '/openai/v1/chat/completions');
    assert.deepEqual(auth(r), { authorization: undefined, 'api-key': 'azure-golden-key-abcdef' });
    assert.deepEqual(r.body, goldenBody('max_completion_tokens'));
  });

  it('settings change the bound and turn structured output off', async () => {
    await complete({ baseURL: fake.baseURL, maxOutputTokens: 1000, structuredOutput: false });
    const { response_format, ...rest } = goldenBody('max_tokens');
    assert.ok(response_format);
    assert.deepEqual(fake.requests[0].body, { ...rest, max_tokens: 1000 });
  });

  it('a strict-compatible schema is sent strict', async () => {
    const schema = { type: 'object', additionalProperties: false, required: ['a'], properties: { a: { type: 'string', enum: ['x'] } } };
    await complete({ baseURL: fake.baseURL }, request({ responseSchema: { name: 'tiny', schema } }));
    assert.deepEqual(fake.requests[0].body.response_format, { type: 'json_schema', json_schema: { name: 'tiny', strict: true, schema } });
  });
});

describe('streaming: the timeout counts idle time, finish_reason and usage come from the stream', () => {
  let fake: FakeOpenAi;
  beforeEach(async () => {
    fake = await new FakeOpenAi(() => ({ content: '{"ok":true}' })).start();
  });
  afterEach(() => fake.stop());
  const session = (timeoutMs: number) =>
    new OpenAiProvider({ baseURL: fake.baseURL, timeoutMs, capabilities: new CapabilityMemory() }).openSession('crawler');

  it('a reply that keeps streaming longer than the timeout in total is not cut', async () => {
    fake.script('unknown', { content: '{"long":"' + 'x'.repeat(50) + '"}', chunks: 6, chunkDelayMs: 150 });
    const t0 = Date.now();
    const reply = await session(400).complete(
      request({
        messages: [
          { role: 'system', content: 'other' },
          { role: 'user', content: '{}' },
        ],
      }),
    );
    assert.ok(Date.now() - t0 > 800, 'the whole reply took longer than twice the timeout');
    assert.equal(reply.content, '{"long":"' + 'x'.repeat(50) + '"}');
  });

  it('a stream that stalls is given up after the idle timeout with a message saying how to raise it', async () => {
    fake.script('unknown', { content: '{"long":"stalls"}', chunks: 4, stallAfterChunks: 1 });
    const t0 = Date.now();
    await assert.rejects(
      session(300).complete(
        request({
          messages: [
            { role: 'system', content: 'other' },
            { role: 'user', content: '{}' },
          ],
        }),
      ),
      (e: unknown) => {
        assert.ok(e instanceof TransientLlmError, String(e));
        assert.match(
          e.message,
          /no data from http:\/\/127\.0\.0\.1:\d+\/v1 for 0\.3 s: timed out.*--timeout, AMTP_TIMEOUT_SECONDS or amtp\.modelTimeoutSeconds/,
        );
        return true;
      },
    );
    assert.ok(Date.now() - t0 < 3000);
  });

  it('finish_reason "length" in the stream is OutputTruncated, carrying the bound, the tail and the usage', async () => {
    fake.script('unknown', { content: '{"cut":"aaaa', finishReason: 'length', usage: { prompt: 10, completion: 4096 } });
    await assert.rejects(
      session(5000).complete(
        request({
          messages: [
            { role: 'system', content: 'other' },
            { role: 'user', content: '{}' },
          ],
        }),
      ),
      (e: unknown) => {
        assert.ok(e instanceof OutputTruncated);
        assert.equal(e.kind, 'OutputTruncated');
        assert.equal(e.splittable, true);
        assert.equal(e.maxOutputTokens, 4096);
        assert.equal(e.excerpt, '{"cut":"aaaa');
        assert.deepEqual(e.usage, { promptTokens: 10, completionTokens: 4096, cachedTokens: 0 });
        return true;
      },
    );
  });

  it('an endpoint that reports no usage gives a reply without usage', async () => {
    fake.script('unknown', { content: '{}', usage: null });
    const reply = await session(5000).complete(
      request({
        messages: [
          { role: 'system', content: 'other' },
          { role: 'user', content: '{}' },
        ],
      }),
    );
    assert.equal(reply.usage, undefined);
  });
});

describe('an endpoint that refuses part of the request', () => {
  let fake: FakeOpenAi;
  let dir: string;
  beforeEach(async () => {
    fake = await new FakeOpenAi(() => ({ content: '{"ok":true}' })).start();
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-caps-'));
  });
  afterEach(async () => {
    await fake.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('response_format refused: the same session sends the plain request, and the refusal is remembered per endpoint and model', async () => {
    fake.refuse.responseFormat = 'any';
    const file = path.join(dir, 'endpoints.json');
    const memory = new CapabilityMemory(file);
    const lines: string[] = [];
    const p = new OpenAiProvider({ baseURL: fake.baseURL, capabilities: memory, log: (l) => lines.push(l) });
    assert.deepEqual(await p.openSession('crawler').complete(request()), {
      content: '{"ok":true}',
      model: 'model-a',
      usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0 },
    });
    assert.deepEqual(
      fake.requests.map((r) => 'response_format' in r.body),
      [true, false],
    );
    assert.equal(fake.answered.refused, 1);
    assert.match(lines[0], /refused structured output \(response_format\) for model model-a \(400: Invalid parameter: 'response_format'/);
    // Another session, same endpoint and model: straight to the plain path.
    await p.openSession('generator').complete(request());
    assert.deepEqual(
      fake.requests.map((r) => 'response_format' in r.body),
      [true, false, false],
    );
    // Another model on the same endpoint is asked again.
    await p.openSession('engineer').complete(request({ model: 'model-b' }));
    assert.deepEqual(
      fake.requests.slice(3).map((r) => 'response_format' in r.body),
      [true, false],
    );
    // A new process (a new memory over the same cache file) remembers both.
    const next = new OpenAiProvider({ baseURL: fake.baseURL, capabilities: new CapabilityMemory(file) });
    await next.openSession('crawler').complete(request());
    await next.openSession('crawler').complete(request({ model: 'model-b' }));
    assert.deepEqual(
      fake.requests.slice(5).map((r) => 'response_format' in r.body),
      [false, false],
    );
    // The cache file holds hashes and capabilities, no URL or model name.
    const text = await fsp.readFile(file, 'utf8');
    assert.ok(!text.includes('127.0.0.1') && !text.includes('model-a'), text);
    assert.deepEqual(Object.values(JSON.parse(text).endpoints), [{ format: 'off' }, { format: 'off' }]);
  });

  it('strict refused: steps down to non-strict json_schema, not to nothing', async () => {
    fake.refuse.responseFormat = 'strict';
    const schema = { type: 'object', additionalProperties: false, required: ['ok'], properties: { ok: { type: 'boolean' } } };
    const p = new OpenAiProvider({ baseURL: fake.baseURL, capabilities: new CapabilityMemory() });
    await p.openSession('crawler').complete(request({ responseSchema: { name: 'tiny', schema } }));
    const strict = fake.requests.map((r) => (r.body.response_format as { json_schema: { strict: boolean } }).json_schema.strict);
    assert.deepEqual(strict, [true, false]);
  });

  it('max_tokens refused (a reasoning model): max_completion_tokens instead; stream_options refused: streamed without usage', async () => {
    fake.refuse = { bound: 'max_tokens', streamOptions: true };
    const p = new OpenAiProvider({ baseURL: fake.baseURL, capabilities: new CapabilityMemory() });
    const reply = await p.openSession('crawler').complete(request());
    assert.equal(reply.usage, undefined, 'without stream_options the stream carries no usage');
    const shape = fake.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens, !!r.body.stream_options]);
    assert.deepEqual(shape, [
      [4096, undefined, true],
      [4096, undefined, false],
      [undefined, 4096, false],
    ]);
  });

  it('a 400 that names no parameter AMTP can drop is a configuration error, sent once', async () => {
    fake.script('crawler', {
      status: 400,
      body: { error: { message: 'max_tokens is too large: 4096. This model supports at most 2048 completion tokens' } },
    });
    const p = new OpenAiProvider({ baseURL: fake.baseURL, capabilities: new CapabilityMemory() });
    await assert.rejects(p.openSession('crawler').complete(request()), /400 from .*max_tokens is too large/);
    assert.equal(fake.requests.length, 1);
  });
});
