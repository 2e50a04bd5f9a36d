// A model call's typed error crosses processes as data and is raised again as its own class, so the
// coordinator's retry policy decides as it would for a call made in its own process.
import { strict as assert } from 'node:assert';
import { LlmConfigError, MalformedLlmOutput, OutputTruncated, RateLimitError, TransientLlmError } from '../../server/src/llm/errors';
import { raisedError, storeError } from '../../server/src/queue/errors';
import { jobIdOf, runIdOf } from '../../server/src/queue/provider';
import { canonicalJson } from '../../server/src/core/canonical';

describe('queue: errors and keys across processes', () => {
  it('each typed error comes back as its class with the fields the retry policy reads', () => {
    const usage = { promptTokens: 10, completionTokens: 4 };
    const cases: Error[] = [
      new MalformedLlmOutput('not JSON', '{"a":', usage),
      new OutputTruncated('cut', 512, '{"cases":[', usage),
      new RateLimitError('429', 2500),
      new RateLimitError('429 without a wait', undefined),
      new TransientLlmError('503'),
      new LlmConfigError('401: set OPENAI_API_KEY'),
    ];
    for (const e of cases) {
      const back = raisedError(JSON.parse(JSON.stringify(storeError(e))));
      assert.equal(back.constructor, e.constructor);
      assert.equal(back.message, e.message);
      for (const field of ['retryAfterMs', 'maxOutputTokens', 'excerpt', 'usage'] as const)
        assert.deepEqual((back as unknown as Record<string, unknown>)[field], (e as unknown as Record<string, unknown>)[field], field);
    }
  });

  it('an error of a kind this version does not know is a plain error with its kind and message', () => {
    const back = raisedError({ kind: 'SomethingNew', message: 'from a newer worker' });
    assert.equal(back.name, 'SomethingNew');
    assert.equal(back.message, 'from a newer worker');
  });

  it('finds the run id of an envelope even when its payload names another', () => {
    // Canonical JSON sorts keys: the payload (here with a run_id of its own) comes before the top-level run_id.
    const envelope = canonicalJson({
      schema_version: '1',
      run_id: 'r_20300101T000000_abcdef',
      from_agent: 'orchestrator',
      to_agent: 'crawler',
      artifact_id: null,
      payload: { nested: { run_id: 'r_fake' } },
      params: {},
    });
    assert.equal(runIdOf(envelope), 'r_20300101T000000_abcdef');
    assert.equal(runIdOf('not an envelope'), 'r_unknown');
    assert.equal(jobIdOf({ runId: 'r_1', promptHash: 'a'.repeat(64), attempt: 2 }), `r_1.${'a'.repeat(32)}.2`);
  });
});
