// The CLI against the loopback fake as a new user meets it: a keyless base URL, Azure, extra
// headers, a price table; usage and health in the summary, --json and the run record.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunRecord } from '../../server/src/core/run';
import { LowdbStore } from '../../server/src/store/lowdb';
import type { RunSummary } from '../../server/src/pipeline/summary';
import { runCli } from '../helpers/cli';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { goodModel, makeAddWorkspace } from '../helpers/scriptedModel';

describe('amtp CLI with model endpoints', function () {
  this.timeout(120_000);
  let fake: FakeOpenAi;
  let ws: string;
  let scratch: string;
  beforeEach(async () => {
    fake = await new FakeOpenAi(goodModel).start();
    fake.usage = { prompt: 1234, completion: 567 };
    ws = await makeAddWorkspace();
    scratch = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-cliprov-'));
  });
  afterEach(async () => {
    await fake.stop();
    await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    await fsp.rm(scratch, { recursive: true, force: true });
  });
  const env = (over: Record<string, string> = {}) => ({ AMTP_BACKOFF_SCALE: '0.001', AMTP_CACHE_DIR: scratch, ...over });

  it('OPENAI_BASE_URL with no key: generate --provider openai --json completes; every request asks for json_schema and carries a bound; the summary sums the usage', async () => {
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], env({ OPENAI_BASE_URL: fake.baseURL }));
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as RunSummary;
    assert.equal(s.status, 'completed');
    assert.deepEqual(
      fake.requests.map((q) => q.agent),
      ['crawler', 'generator', 'engineer'],
    );
    for (const q of fake.requests) {
      assert.equal(q.headers.authorization, undefined, 'keyless: no Authorization header');
      assert.equal((q.body.response_format as { type: string }).type, 'json_schema');
      assert.equal(q.body.max_tokens, 4096);
      assert.equal(q.body.stream, true);
      assert.deepEqual(q.body.stream_options, { include_usage: true });
    }
    assert.deepEqual(s.usage.total, { promptTokens: 3 * 1234, completionTokens: 3 * 567, cachedTokens: 0, requests: 3 });
    assert.deepEqual(Object.keys(s.usage.byAgent), ['crawler', 'generator', 'engineer']);
    for (const u of Object.values(s.usage.byAgent))
      assert.deepEqual(u, { promptTokens: 1234, completionTokens: 567, cachedTokens: 0, requests: 1 });
    assert.equal(s.usage.costUsd, undefined, 'no price table, no cost');
    assert.deepEqual(
      s.health.agents.map((a) => [a.agent, a.attempts, a.errors, a.errorRatio, a.usage.promptTokens]),
      [
        ['crawler', 1, 0, 0, 1234],
        ['generator', 1, 0, 0, 1234],
        ['engineer', 1, 0, 0, 1234],
      ],
    );
    assert.ok(s.health.agents.every((a) => a.wallMs >= 0) && s.health.wallMs > 0);
    // The run record holds the same sums.
    const run = (await new LowdbStore(ws).getRun(s.runId)) as RunRecord;
    assert.deepEqual(run.usage, s.usage);
    assert.deepEqual(
      run.activities.map((a) => a.usage!.completionTokens),
      [567, 567, 567],
    );
    assert.equal(run.health!.usage.promptTokens, 3 * 1234);
  });

  it('the text summary shows usage, cost from a price table, and per-agent health; a retried reply counts', async () => {
    fake.script('generator', { content: 'Sure! {not json', usage: { prompt: 1000, completion: 10 } });
    const prices = path.join(scratch, 'prices.json');
    await fsp.writeFile(prices, JSON.stringify({ 'GPT-4O-MINI': { input: 0.15, cachedInput: 0.075, output: 0.6 } }));
    const r = await runCli(
      // --no-characterize: without a TTY its tests.run approval would make the run wait (exit 4).
      ['generate', ws, '--provider', 'openai', '--no-verify', '--no-characterize', '--price-table', prices],
      env({ OPENAI_BASE_URL: fake.baseURL }),
    );
    assert.equal(r.code, 0, r.stderr);
    // 4 replies: 3 × 1234 + 1000 prompt, 3 × 567 + 10 completion, at 0.15 / 0.6 USD per million.
    const usd = (3 * 1234 + 1000) * 0.15e-6 + (3 * 567 + 10) * 0.6e-6;
    assert.match(
      r.stdout,
      new RegExp(`usage: 4702 prompt \\+ 1711 completion tokens in 4 requests · \\$${usd.toFixed(4).replace('.', '\\.')}\\n`),
    );
    assert.match(r.stdout, /health: run: [\d.]+ s, 4 attempts, 1 error \(25%\)/);
    assert.match(r.stdout, /generator: [\d.]+ s, 2 attempts, 1 error \(50%: MalformedLlmOutput\), 2234 \+ 577 tokens, \$0\.0007/);
    assert.match(r.stdout, /crawler: [\d.]+ s, 1 attempt, 0 errors, 1234 \+ 567 tokens/);
  });

  it('Azure classic from the environment: deployment path, api-version and api-key; --header adds headers; no secret reaches the recording', async () => {
    const recording = path.join(scratch, 'run.jsonl');
    const r = await runCli(
      [
        'generate',
        ws,
        '--provider',
        'azure',
        '--no-verify',
        '--no-characterize',
        '--json',
        '--azure-deployment',
        'dep-x',
        '--header',
        'X-Gateway-Token: gw-secret-token-9876',
        '--record',
        recording,
      ],
      env({
        AZURE_OPENAI_ENDPOINT: fake.origin,
        AZURE_OPENAI_API_KEY: 'azure-cli-key-abcdef123',
        OPENAI_API_VERSION: '2024-12-01-preview',
      }),
    );
    assert.equal(r.code, 0, r.stderr);
    for (const q of fake.requests) {
      assert.equal(q.path, '/openai/deployments/dep-x/chat/completions?api-version=2024-12-01-preview');
      assert.equal(q.headers['api-key'], 'azure-cli-key-abcdef123');
      assert.equal(q.headers['x-gateway-token'], 'gw-secret-token-9876');
      assert.equal(q.body.max_completion_tokens, 4096);
    }
    const text = await fsp.readFile(recording, 'utf8');
    assert.ok(!text.includes('azure-cli-key-abcdef123') && !text.includes('gw-secret-token-9876'));
    // Replies carry their usage in the recording.
    const replies = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((l) => l.type === 'response_sent');
    assert.deepEqual(
      replies.map((e) => e.usage),
      Array(3).fill({ prompt_tokens: 1234, completion_tokens: 567, cached_tokens: 0 }),
    );
  });

  it('a 401 whose body echoes the key and the header values: the message names the setting, and carries neither', async () => {
    fake.script('crawler', {
      status: 401,
      body: { error: { message: 'key azure-cli-key-abcdef123 with header gw-secret-token-9876 refused' } },
    });
    const r = await runCli(
      ['generate', ws, '--provider', 'azure', '--no-verify', '--json', '--header', 'X-Gateway-Token: gw-secret-token-9876'],
      env({ AZURE_OPENAI_ENDPOINT: `${fake.origin}/openai/v1`, AZURE_OPENAI_API_KEY: 'azure-cli-key-abcdef123' }),
    );
    assert.equal(r.code, 4);
    const s = JSON.parse(r.stdout) as RunSummary;
    assert.match(s.reason!, /401 from http:\/\/127\.0\.0\.1:\d+\/openai\/v1: the API key was refused\. Fix AZURE_OPENAI_API_KEY/);
    const all = r.stdout + r.stderr + (await fsp.readFile(path.join(ws, '.amtp', 'runs', `${s.runId}.json`), 'utf8'));
    assert.ok(!all.includes('azure-cli-key-abcdef123') && !all.includes('gw-secret-token-9876'));
  });

  it('bad endpoint settings fail before any request with a message that says what to set', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--provider', 'openai'], {}, /No API key for api\.openai\.com: set OPENAI_API_KEY .*set OPENAI_BASE_URL/],
      [
        ['--provider', 'azure'],
        { AZURE_OPENAI_API_KEY: 'k-123456' },
        /Azure OpenAI needs its endpoint: set AZURE_OPENAI_ENDPOINT or --azure-endpoint/,
      ],
      [['--provider', 'azure'], { AZURE_OPENAI_ENDPOINT: fake.origin }, /Azure OpenAI needs an API key: set AZURE_OPENAI_API_KEY/],
      [['--provider', 'vscode-lm'], {}, /vscode-lm provider .* works only inside the VS Code extension/],
      [
        ['--provider', 'openai', '--price-table', '/nonexistent/prices.json'],
        { OPENAI_BASE_URL: fake.baseURL },
        /cannot read the price table \/nonexistent\/prices\.json/,
      ],
    ];
    for (const [args, e, message] of cases) {
      const r = await runCli(['generate', ws, '--no-verify', ...args], env(e));
      assert.notEqual(r.code, 0, args.join(' '));
      assert.match(r.stderr, message, r.stderr);
    }
    for (const bad of [
      ['--timeout', '0'],
      ['--max-output-tokens', '1.5'],
      ['--header', 'no colon here'],
    ]) {
      const r = await runCli(['generate', ws, ...bad], env());
      assert.equal(r.code, 2, `${bad.join(' ')}: ${r.stderr}`);
    }
    assert.equal(fake.requests.length, 0);
  });

  it('--timeout (idle seconds), --max-output-tokens and --no-structured-output shape the requests', async () => {
    fake.script('crawler', { content: '{"stalls":', chunks: 3, stallAfterChunks: 1 });
    const r = await runCli(
      [
        'generate',
        ws,
        '--provider',
        'openai',
        '--no-verify',
        '--no-characterize',
        '--json',
        '--timeout',
        '1',
        '--max-output-tokens',
        '2048',
        '--no-structured-output',
      ],
      env({ OPENAI_BASE_URL: fake.baseURL }),
    );
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as RunSummary;
    assert.deepEqual(
      s.activities[0].errors.map((e) => e.kind),
      ['TransientLlmError'],
    );
    assert.match(s.activities[0].errors[0].message, /no data from http:\/\/127\.0\.0\.1:\d+\/v1 for 1 s: timed out/);
    for (const q of fake.requests) {
      assert.equal(q.body.max_tokens, 2048);
      assert.equal(q.body.response_format, undefined);
    }
  });
});
