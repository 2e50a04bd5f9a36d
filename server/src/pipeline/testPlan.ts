// The run's test plan: the generator's committed plan, amended by the characterize stage's merged
// artifact when there is one (server/src/characterize/plan.ts). Both are hash-checked on load and were
// validated against their contracts before they were stored.
import { StoreCorruptError } from '../core/errors';
import type { RunRecord } from '../core/run';
import type { Characterization, TestCases } from '../contracts/types';
import { amendPlan } from '../characterize/plan';
import type { RunStore } from '../store/types';

export async function characterizationOf(store: RunStore, run: RunRecord): Promise<Characterization | undefined> {
  const id = run.characterization?.artifactId;
  if (!id) return undefined;
  const artifact = await store.getArtifact(run.id, id);
  if (artifact.kind !== 'characterization') throw new StoreCorruptError(`artifact ${id} is ${artifact.kind}, not a characterization`);
  return artifact.content as Characterization;
}

export async function testPlan(store: RunStore, run: RunRecord): Promise<TestCases> {
  return amendPlan(await store.agentOutput(run, 'generator'), await characterizationOf(store, run));
}
