// Usage and health in the client's run view (the run's description and tooltip), and the new
// endpoint settings read from amtp.*.
import { strict as assert } from 'node:assert';
import type * as P from '../../server/src/protocol';
import { describeRun, runHealthLines } from '../../client/src/model/runsModel';
import { toServerSettings } from '../../client/src/model/settings';

const usage = (promptTokens: number, completionTokens: number, requests: number) => ({
  promptTokens,
  completionTokens,
  cachedTokens: 0,
  requests,
});

function view(over: Partial<P.RunView> = {}): P.RunView {
  return {
    runId: 'r_1',
    status: 'completed',
    stage: 'done',
    createdAt: '2026-01-01T00:00:01Z',
    params: { depth: 'standard', framework: 'auto', provider: 'openai' },
    activities: [],
    cases: [],
    files: [],
    pendingApprovals: [],
    ...over,
  };
}

describe('client: usage and health in the run view', () => {
  const u: P.RunUsage = { total: usage(3702, 1701, 3), byAgent: { crawler: usage(1234, 567, 1) }, costUsd: 0.001576 };
  const h: P.RunHealth = {
    wallMs: 12_300,
    attempts: 4,
    errors: 1,
    errorRatio: 0.25,
    usage: u.total,
    costUsd: 0.001576,
    agents: [
      {
        agent: 'crawler',
        status: 'completed',
        wallMs: 2500,
        attempts: 2,
        errors: 1,
        errorRatio: 0.5,
        errorKinds: { RateLimited: 1 },
        usage: usage(1234, 567, 1),
        costUsd: 0.000525,
      },
    ],
  };

  it('the description adds tokens and cost; a run that spent none (offline) shows none', () => {
    assert.equal(describeRun(view({ usage: u })), 'completed · no cases planned · 3702+1701 tokens · $0.0016');
    assert.equal(describeRun(view({ usage: { total: usage(0, 0, 3), byAgent: {} } })), 'completed · no cases planned');
    assert.equal(describeRun(view()), 'completed · no cases planned');
  });

  it('the tooltip lines: tokens, run health, then one line per agent', () => {
    assert.deepEqual(runHealthLines(view({ usage: u, health: h })), [
      'tokens: 3702 prompt + 1701 completion tokens in 3 requests · $0.0016',
      'run: 12 s, 4 attempts, 1 error (25%)',
      'crawler: 2.5 s, 2 attempts, 1 error (50%: RateLimited), 1234 + 567 tokens, $0.0005',
    ]);
    assert.deepEqual(runHealthLines(view()), []);
  });

  it('reads the endpoint settings, dropping values of the wrong type', () => {
    const values: Record<string, unknown> = {
      provider: 'azure',
      azureEndpoint: ' https://r.openai.azure.com ',
      azureDeployment: 'dep',
      azureApiVersion: '2024-10-21',
      headers: { 'X-Title': 'AMTP', 'X-Bad': 3 },
      modelTimeoutSeconds: 900,
      maxOutputTokens: 2048.7,
      structuredOutput: false,
      priceTable: { m: { input: 1, output: 2 } },
    };
    const s = toServerSettings((k) => values[k]);
    assert.deepEqual(s, {
      provider: 'azure',
      azureEndpoint: 'https://r.openai.azure.com',
      azureDeployment: 'dep',
      azureApiVersion: '2024-10-21',
      headers: { 'X-Title': 'AMTP' },
      modelTimeoutSeconds: 900,
      maxOutputTokens: 2048,
      structuredOutput: false,
      priceTable: { m: { input: 1, output: 2 } },
    });
    const none = toServerSettings(
      (k) =>
        (
          ({
            provider: 'vscode-lm',
            headers: [],
            modelTimeoutSeconds: -1,
            maxOutputTokens: 0,
            structuredOutput: true,
            priceTable: {},
          }) as Record<string, unknown>
        )[k],
    );
    assert.deepEqual(none, { provider: 'vscode-lm' });
  });
});
