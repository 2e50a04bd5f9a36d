// The run's test plan: the generator's committed plan, amended by the characterize stage's merged
// artifact when there is one. Both are hash-checked on load and were validated against their
// contracts before they were stored.
import { StoreCorruptError } from '../core/errors';
import type { RunRecord } from '../core/run';
import type { Characterization, TestCase, TestCases } from '../contracts/types';
import type { RunStore } from '../store/types';
import { evidenceConfidence } from './confidence';

async function characterizationOf(store: RunStore, run: RunRecord): Promise<Characterization | undefined> {
  const id = run.characterization?.artifactId;
  if (!id) return undefined;
  const artifact = await store.getArtifact(run.id, id);
  if (artifact.kind !== 'characterization') throw new StoreCorruptError(`artifact ${id} is ${artifact.kind}, not a characterization`);
  return artifact.content as Characterization;
}

/**
 * The plan without the cases the person's earlier decisions hold back (pipeline/decisionStage.ts),
 * and with the values they corrected by hand as the oracle of every case of the same call.
 */
export async function testPlan(store: RunStore, run: RunRecord): Promise<TestCases> {
  const plan = amendPlan(await store.agentOutput(run, 'generator'), await characterizationOf(store, run));
  const held = new Set(run.decisions?.heldBack.map((h) => h.caseId));
  const cases = held.size ? plan.cases.filter((c) => !held.has(c.id)) : plan.cases;
  const corrections = run.decisions ? (run.params.decided?.decisions ?? []).flatMap((d) => (d.correction ? [d.correction] : [])) : [];
  return cases === plan.cases && !corrections.length ? plan : { ...plan, cases: corrected(cases, corrections) };
}

type Correction = NonNullable<NonNullable<RunRecord['params']['decided']>['decisions'][number]['correction']>;

/** A case of a call the person corrected expects their value (an equality oracle only). */
export function corrected(cases: TestCase[], corrections: Correction[]): TestCase[] {
  if (!corrections.length) return cases;
  return cases.map((c) => {
    const o = c.oracle;
    const fix = o?.call && corrections.find((k) => k.file === c.target.file && k.symbol === c.target.symbol && k.call === o.call);
    if (!fix || !o || (o.kind !== 'equals' && o.kind !== 'deep_equals') || o.expected === fix.expected) return c;
    return {
      ...c,
      oracle: { ...o, expected: fix.expected },
      rationale: `${c.rationale} The person corrected the expected value of this call by hand.`,
    };
  });
}

/**
 * The plan the Test Engineer (and the verifier, the summary, the tree view) works from: the
 * generator's plan with the characterization cases in place of the existence-only cases they replace.
 * Pure, so every reader of the two stored artifacts gets the same plan.
 */
export function amendPlan(generated: TestCases, char: Characterization | undefined): TestCases {
  // Every planned case carries a confidence: the model's reported one, else its evidence's (pipeline/confidence.ts).
  const plan = withConfidence(generated);
  if (!char) return plan;
  const replaced = new Set(char.modules.flatMap((m) => m.replaces));
  const added = char.modules.flatMap((m) => m.cases);
  if (!added.length) return plan;
  const have = new Set(plan.cases.map((c) => c.id));
  const fresh = added.filter((c) => !have.has(c.id));
  // Each module's cases go where its first replaced case was (or after the module's last case), so
  // the engineer's files and batches keep the generator's order.
  const cases = [];
  const placed = new Set<string>();
  const lastOf = new Map(plan.cases.map((c, i) => [c.target.file, i]));
  for (const [i, c] of plan.cases.entries()) {
    const mine = fresh.filter((x) => x.target.file === c.target.file && !placed.has(x.id));
    const here = replaced.has(c.id) || lastOf.get(c.target.file) === i;
    if (!replaced.has(c.id)) cases.push(c);
    if (here && mine.length) {
      const forTarget = replaced.has(c.id) ? mine.filter((x) => x.target.symbol === c.target.symbol) : mine;
      forTarget.forEach((x) => placed.add(x.id));
      cases.push(...forTarget);
    }
  }
  cases.push(...fresh.filter((x) => !placed.has(x.id)));
  return withConfidence({ ...plan, cases });
}

function withConfidence(plan: TestCases): TestCases {
  if (plan.cases.every((c) => c.confidence !== undefined)) return plan;
  return { ...plan, cases: plan.cases.map((c) => (c.confidence !== undefined ? c : { ...c, confidence: evidenceConfidence(c).value })) };
}
