// Token sums, cost, the health block and their one-line texts; the price table's checks.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ActivityRecord, RunRecord } from '../../server/src/core/run';
import { addUsage, replyUsage } from '../../server/src/core/usage';
import { costOf, priceFor } from '../../server/src/usage/cost';
import { formatAgentHealth, formatRunHealth, formatRunUsage, formatSeconds, formatUsd } from '../../server/src/core/usageFormat';
import { refreshUsage, runHealth, runUsage } from '../../server/src/usage/health';
import { loadPriceTable, parsePriceTable } from '../../server/src/usage/priceTable';
import { DEFAULT_PRICES, PRICES_AS_OF, runPrices } from '../../server/src/usage/defaultPrices';
import { testCallsTarget } from '../../server/src/agents/generator/existence';

const act = (agent: ActivityRecord['agent'], over: Partial<ActivityRecord> = {}): ActivityRecord => ({
  agent,
  status: 'completed',
  attempts: 1,
  errors: [],
  ...over,
});

function run(activities: ActivityRecord[], over: Partial<RunRecord> = {}): RunRecord {
  return {
    schema_version: 1,
    id: 'r_1',
    version: 3,
    status: 'completed',
    stage: 'done',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:01:30.000Z',
    params: {
      depth: 'standard',
      framework: 'auto',
      provider: 'openai',
      models: { crawler: 'small', generator: 'small', engineer: 'big' },
      seed: 1,
      temperature: 0,
      maxAttempts: 3,
    },
    activities,
    files: [],
    approvals: [],
    audit: [],
    ...over,
  };
}

const err = (kind: string) => ({ kind, message: kind, attempt: 1, at: '2025-01-01T00:00:00.000Z' });

describe('usage', () => {
  it('adds replies; a reply with no reported usage counts as a request and as unreported', () => {
    const a = addUsage(replyUsage({ promptTokens: 10, completionTokens: 5, cachedTokens: 4 }), replyUsage(undefined));
    assert.deepEqual(a, { promptTokens: 10, completionTokens: 5, cachedTokens: 4, requests: 2, unreported: 1 });
    assert.deepEqual(addUsage(undefined, replyUsage({ promptTokens: 1, completionTokens: 2 })), {
      promptTokens: 1,
      completionTokens: 2,
      cachedTokens: 0,
      requests: 1,
    });
  });

  it('cost: cached prompt tokens at their own price, exact model names only, micro-dollar rounding', () => {
    const table = { 'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 }, 'gpt-4o': { input: 2.5, output: 10 } };
    assert.equal(priceFor(table, 'GPT-4o-Mini'), table['gpt-4o-mini']);
    assert.equal(priceFor(table, 'gpt-4o-mini-2024-07-18'), undefined, 'no prefix guessing');
    assert.equal(priceFor(undefined, 'gpt-4o'), undefined);
    // 1M prompt of which 200k cached, 100k completion: 0.8 × 0.15 + 0.2 × 0.075 + 0.1 × 0.6
    assert.equal(
      costOf({ promptTokens: 1_000_000, completionTokens: 100_000, cachedTokens: 200_000, requests: 1 }, table['gpt-4o-mini']),
      0.195,
    );
    assert.equal(
      costOf({ promptTokens: 1000, completionTokens: 0, cachedTokens: 1000, requests: 1 }, table['gpt-4o']),
      0.0025,
      'cachedInput defaults to input',
    );
    assert.equal(
      costOf({ promptTokens: 1, completionTokens: 1, cachedTokens: 0, requests: 1 }, { input: 0.1, output: 0.2 }),
      0,
      'below a micro-dollar',
    );
  });

  it('sums per agent and run; prices what the table knows and names what it does not', () => {
    const r = run(
      [
        act('crawler', { usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 0, requests: 1 } }),
        act('generator', {
          attempts: 2,
          errors: [err('MalformedLlmOutput')],
          usage: { promptTokens: 2000, completionTokens: 300, cachedTokens: 500, requests: 2 },
        }),
        act('engineer', { model: 'big', usage: { promptTokens: 50, completionTokens: 50, cachedTokens: 0, requests: 1 } }),
      ],
      { params: { ...run([]).params, prices: { small: { input: 1, output: 2 } } } },
    );
    const u = runUsage(r);
    assert.deepEqual(u.total, { promptTokens: 3050, completionTokens: 450, cachedTokens: 500, requests: 4 });
    assert.deepEqual(u.byAgent.generator, r.activities[1].usage);
    // small: (1000 + 2000) prompt × $1/M + (100 + 300) completion × $2/M = 0.003 + 0.0008
    assert.equal(u.costUsd, 0.0038);
    assert.deepEqual(u.unpriced, ['big']);
    assert.equal(formatRunUsage(u), '3050 prompt (500 cached) + 450 completion tokens in 4 requests · $0.0038 · no price for big');
    assert.deepEqual(runUsage(run([act('crawler')])), {
      total: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, requests: 0 },
      byAgent: {},
    });
  });

  it('health: per agent wall time, attempts, error ratio, error kinds, tokens and cost; the run from creation to its last update', () => {
    const r = run(
      [
        act('crawler', {
          startedAt: '2025-01-01T00:00:01.000Z',
          endedAt: '2025-01-01T00:00:03.500Z',
          usage: { promptTokens: 1234, completionTokens: 567, cachedTokens: 0, requests: 1 },
        }),
        act('generator', {
          status: 'failed',
          attempts: 4,
          errors: [err('RateLimited'), err('RateLimited'), err('OutputTruncated'), err('OutputTruncated')],
          startedAt: '2025-01-01T00:00:04.000Z',
          endedAt: '2025-01-01T00:01:04.000Z',
        }),
        act('engineer', { status: 'pending', attempts: 0 }),
      ],
      { status: 'failed', params: { ...run([]).params, prices: { small: { input: 0.15, output: 0.6 } } } },
    );
    const h = runHealth(r);
    assert.equal(h.wallMs, 90_000);
    assert.equal(h.attempts, 5);
    assert.equal(h.errors, 4);
    assert.equal(h.errorRatio, 0.8);
    assert.deepEqual(
      h.agents.map((a) => [a.agent, a.status, a.wallMs, a.attempts, a.errors, a.errorRatio]),
      [
        ['crawler', 'completed', 2500, 1, 0, 0],
        ['generator', 'failed', 60_000, 4, 4, 1],
        ['engineer', 'pending', 0, 0, 0, 0],
      ],
    );
    assert.deepEqual(h.agents[1].errorKinds, { RateLimited: 2, OutputTruncated: 2 });
    assert.equal(formatAgentHealth(h.agents[0]), 'crawler: 2.5 s, 1 attempt, 0 errors, 1234 + 567 tokens, $0.0005');
    assert.equal(
      formatAgentHealth(h.agents[1]),
      'generator: 60 s, 4 attempts, 4 errors (100%: RateLimited×2, OutputTruncated×2), 0 + 0 tokens',
    );
    assert.equal(formatRunHealth(h), 'run: 90 s, 5 attempts, 4 errors (80%)');
  });

  it("a running agent's wall time runs to now; refreshUsage writes both blocks into the record", () => {
    const r = run([act('crawler', { status: 'running', startedAt: '2025-01-01T00:00:00.000Z' })], { status: 'running' });
    assert.equal(runHealth(r, '2025-01-01T00:00:07.000Z').agents[0].wallMs, 7000);
    refreshUsage(r, '2025-01-01T00:00:07.000Z');
    assert.equal(r.health!.wallMs, 7000);
    assert.deepEqual(r.usage!.byAgent, {});
  });

  it('formats seconds, minutes and dollars', () => {
    assert.deepEqual([formatSeconds(250), formatSeconds(42_400), formatSeconds(600_000)], ['0.3 s', '42 s', '10.0 min']);
    assert.deepEqual([formatUsd(0), formatUsd(0.00042), formatUsd(1.234)], ['$0', '$0.0004', '$1.23']);
  });
});

describe('price table', () => {
  it('accepts models with input/output (and cachedInput) in USD per million tokens', () => {
    assert.deepEqual(parsePriceTable({ m: { input: 1, output: 2, cachedInput: 0.5 }, n: { input: 0, output: 0 } }, 'x'), {
      m: { input: 1, output: 2, cachedInput: 0.5 },
      n: { input: 0, output: 0 },
    });
  });

  it('refuses what would give a wrong cost, saying where and what', () => {
    const bad: [unknown, RegExp][] = [
      [[], /a price table is a JSON object of models/],
      [{ m: 3 }, /"m" must be an object with input and output prices/],
      [{ m: { input: 1 } }, /"m"\.output must be a non-negative number/],
      [{ m: { input: -1, output: 1 } }, /"m"\.input must be a non-negative number/],
      [{ m: { input: '1', output: 1 } }, /"m"\.input must be a non-negative number/],
      [{ m: { input: 1, output: 1, per: 'token' } }, /"m" has unknown field\(s\) per/],
    ];
    for (const [value, message] of bad)
      assert.throws(
        () => parsePriceTable(value, 'amtp.priceTable'),
        (e: Error) => e.message.startsWith('amtp.priceTable: ') && message.test(e.message),
      );
  });

  it('loads a file; a missing or non-JSON file is a clear error', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-prices-'));
    try {
      const good = path.join(dir, 'p.json');
      await fsp.writeFile(good, '{"m":{"input":1,"output":2}}');
      assert.deepEqual(await loadPriceTable(good), { m: { input: 1, output: 2 } });
      await fsp.writeFile(good, '{"m":');
      await assert.rejects(loadPriceTable(good), /is not JSON/);
      await assert.rejects(loadPriceTable(path.join(dir, 'none.json')), /cannot read the price table/);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('usage that adds up: repairs, rounds, the dated default price table, smoke tests that call their target', () => {
  const u = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, cachedTokens: 0, requests: 1 });

  it("the verifier's repair and round sessions count in the totals, the request count and the cost", () => {
    const r = run([act('engineer', { usage: u(1000, 100), model: 'gpt-4o-mini' })], {
      params: {
        ...run([]).params,
        models: { crawler: 'gpt-4o-mini', generator: 'gpt-4o-mini', engineer: 'gpt-4o-mini' },
        ...runPrices('openai', undefined, true),
      },
      verification: {
        status: 'done',
        runs: 3,
        executions: 9,
        filters: [],
        results: [],
        repairs: [],
        quarantineFiles: [],
        unmet: [],
        pids: [],
        writes: [],
        usage: { repair: u(2000, 200), rounds: addUsage(u(3000, 300), u(1000, 100)) },
      },
    });
    const usage = runUsage(r);
    assert.deepEqual(usage.total, { promptTokens: 7000, completionTokens: 700, cachedTokens: 0, requests: 4 });
    assert.deepEqual(usage.byAgent.repair, u(2000, 200));
    assert.equal(usage.byAgent.rounds.requests, 2);
    // gpt-4o-mini: $0.15 in, $0.60 out per million tokens
    assert.equal(usage.costUsd, (7000 * 0.15 + 700 * 0.6) / 1e6);
    assert.equal(usage.pricesAsOf, PRICES_AS_OF);
    assert.match(formatRunUsage(usage), /in 4 requests · \$0\.0015 \(list prices of 2025-08-07; --price-table to use yours\)$/);
  });

  it('the default table applies to hosted endpoints only; a given table replaces it', () => {
    assert.deepEqual(runPrices('offline', undefined, false), {});
    assert.deepEqual(runPrices('vscode-lm', undefined, false), {});
    assert.equal(runPrices('azure', undefined, true).pricesAsOf, PRICES_AS_OF);
    // A keyless OpenAI-compatible endpoint is a server of the person's own: no hosted list prices.
    assert.deepEqual(runPrices('openai', undefined, false), {});
    assert.equal(runPrices('openai', undefined, true).pricesAsOf, PRICES_AS_OF);
    const mine = { m: { input: 1, output: 2 } };
    assert.deepEqual(runPrices('openai', mine, false), { prices: mine });
    for (const [model, row] of Object.entries(DEFAULT_PRICES))
      assert.deepEqual(parsePriceTable({ [model]: row }, 'default'), { [model]: row });
  });

  it('a smoke test that calls its target and asserts on it is a behaviour check, not an existence check', () => {
    assert.equal(testCallsTarget("it('tc_1: sum exists', () => {\n  expect(sum([1, 2])).toBe(3);\n});", 'sum'), true);
    assert.equal(testCallsTarget("it('tc_1: sum(1) exists', () => {\n  expect(typeof sum).toBe('function');\n});", 'sum'), false);
    assert.equal(testCallsTarget("it('tc_1: arity', () => {\n  assert.equal(sum.length, 1);\n});", 'sum'), false);
    assert.equal(testCallsTarget('def test_tc_1_clamp():\n    assert callable(clamp)\n', 'clamp'), false);
    assert.equal(testCallsTarget('def test_tc_1_clamp():\n    assert clamp(5, 0, 3) == 3\n', 'clamp'), true);
    assert.equal(testCallsTarget("it('tc_1', () => { const s = new Stack(); expect(s.push(1)).toBe(1); });", 'Stack.push'), true);
  });
});
