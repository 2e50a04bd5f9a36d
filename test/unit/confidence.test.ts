// The confidence of a planned case and of a written test (server/src/pipeline/confidence.ts,
// docs/confidence.md): evidence first, then what verification showed.
import { strict as assert } from 'node:assert';
import type { TestCase } from '../../server/src/contracts/types';
import { DEFAULT_CONFIDENCE_THRESHOLD, evidenceConfidence, testConfidence } from '../../server/src/pipeline/confidence';

const base = { id: 'tc_aaaaaaaaaaaa', kind: 'unit', priority: 'P1', expected: ['returns 5'] };
const llmCase = { ...base, title: 'add(2, 3) returns 5', evidence: { source: 'llm' } } as unknown as TestCase;
const readmeCase = { ...base, title: 'add(2, 3) returns 5', evidence: { source: 'readme' } } as unknown as TestCase;
const crashPin = {
  ...base,
  title: 'pins current behaviour: add(null) throws',
  expected: ['throws TypeError'],
  oracle: { kind: 'throws', error: 'TypeError' },
  evidence: { source: 'source' },
} as unknown as TestCase;
const stable = { stable: true, kills: 0, repaired: false };

describe('confidence', () => {
  it('follows the evidence: documented 0.95, a model guess 0.60, a pinned crash 0.65', () => {
    assert.equal(evidenceConfidence(readmeCase).value, 0.95);
    assert.equal(evidenceConfidence(llmCase).value, 0.6);
    assert.equal(evidenceConfidence(crashPin).value, 0.65);
  });

  it("a model's guess that every run confirmed clears the default threshold; rewritten, rated low or unverified it does not", () => {
    const held = testConfidence(llmCase, stable);
    assert.equal(held.value, 0.8);
    assert.match(held.basis, /written before the code ran, held in every run/);
    assert.ok(held.value >= DEFAULT_CONFIDENCE_THRESHOLD);
    assert.equal(testConfidence(llmCase, undefined).value, 0.6);
    assert.equal(testConfidence(llmCase, { ...stable, stable: false }).value, 0.6);
    assert.equal(testConfidence(llmCase, { ...stable, engineer: 0.5 }).value, 0.6);
    // a repair wrote the value from what the code did: 0.70, +0.10 once stable
    assert.equal(testConfidence(llmCase, { ...stable, repaired: true }).value, 0.8);
    assert.equal(testConfidence(llmCase, { ...stable, stable: false, repaired: true }).value, 0.7);
    // a model that gave its own value keeps it, +0.10 once stable
    assert.equal(testConfidence({ ...llmCase, confidence: 0.4 } as TestCase, stable).value, 0.5);
  });

  it('a crash pinned from a sequence waits unless it kills a mutant; documented values never pass 0.95 by verification', () => {
    const fromSequence = { ...crashPin, evidence: { source: 'source', snippet: 'a generated call sequence' } } as unknown as TestCase;
    assert.equal(evidenceConfidence(fromSequence).value, 0.6);
    assert.equal(testConfidence(fromSequence, stable).value, 0.7);
    assert.ok(testConfidence(fromSequence, stable).value < DEFAULT_CONFIDENCE_THRESHOLD);
    assert.equal(testConfidence(fromSequence, { ...stable, kills: 2 }).value, 0.8);
    assert.equal(testConfidence(crashPin, stable).value, 0.75);
    assert.equal(testConfidence(readmeCase, { ...stable, kills: 3 }).value, 0.95);
  });
});
