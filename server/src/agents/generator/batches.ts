// The Test Case Generator's batches: views of the crawler's map (a few modules each, with their
// documented examples and each symbol's whole source, views.ts), sized so both the request and the expected
// plan fit the budget. AMTP then computes every case id from its target and scenario, adds the
// project block and drops duplicates: a model writes neither ids nor the project.
import type { CasePlan, CrawlerOutput, PlannedCase, TestCase, TestCases } from '../../contracts/types';
import type { Depth } from '../../core/frameworks';
import type { AgentBatching, PlannedBatch } from '../batching';
import { generatorViews, splitGeneratorView } from './views';
import { caseId } from './caseId';
import { projectBlock } from './project';

/**
 * Expected reply tokens per symbol (a planned case is ≈150–250 tokens; deeper plans have more
 * cases) and per documented example (each tends to be a case of its own: a 14-line README block
 * became 28 cases, 5.4k tokens, when a capable model answered).
 */
const OUT_PER_SYMBOL: Record<Depth, number> = { smoke: 150, standard: 450, deep: 700 };
const OUT_PER_EXAMPLE: Record<Depth, number> = { smoke: 0, standard: 200, deep: 250 };

function views(map: CrawlerOutput, payloadTokens: number, outputTokens: number, depth: Depth): CrawlerOutput[] {
  return generatorViews(map, payloadTokens, { perSymbol: OUT_PER_SYMBOL[depth], perExample: OUT_PER_EXAMPLE[depth] }, outputTokens);
}

/** The id of a case: from where it points and what it checks, whatever id a model wrote. */
export function caseIdOf(c: PlannedCase): string {
  const o = c.oracle;
  const scenario = [c.kind, c.title, o?.kind ?? '', o?.setup ?? '', o?.call ?? '', o?.expected ?? '', o?.error ?? ''].join('\n');
  return caseId(`${c.target.file}#${c.target.symbol}`, scenario);
}

/**
 * Cases with AMTP's ids, in batch order; a case planned twice is kept once: the same id (two
 * batches, two docs), or the same documented line checked the same way (two batches that each hold
 * part of an entry can attribute `semver.valid(semver.coerce('v2'))` to a different export).
 */
function withIds(plans: CasePlan[]): TestCase[] {
  const seen = new Set<string>();
  const out: TestCase[] = [];
  for (const plan of plans) {
    for (const c of plan.cases) {
      const id = caseIdOf(c);
      const documented = documentedCheck(c);
      if (seen.has(id) || (documented && seen.has(documented))) continue;
      seen.add(id);
      if (documented) seen.add(documented);
      out.push({ ...c, id });
    }
  }
  return out;
}

/** One documented line's check: where the docs show it, the call and what it gives (undefined without a location or a call). */
function documentedCheck(c: PlannedCase): string | undefined {
  const o = c.oracle;
  if (!c.evidence?.location || !o?.call) return undefined;
  return ['doc', c.evidence.location, c.kind, o.kind, o.setup ?? '', o.call, o.expected ?? '', o.error ?? ''].join('\n');
}

export const generatorBatching: AgentBatching<'generator'> = {
  plan(map, ctx): PlannedBatch<'generator'>[] {
    return views(map, ctx.budget.payloadTokens, ctx.budget.outputTokens, ctx.depth).map((payload) => ({
      key:
        payload.key_files.map((f) => (f.symbols.length ? `${f.path}#${f.symbols[0].name}` : f.path)).join(',') ||
        `examples@${payload.view?.batch}`,
      payload,
    }));
  },

  split: splitGeneratorView,

  merge(map, done, ctx): TestCases {
    const plans = done.map((d) => d.output);
    const notPlanned = plans.flatMap((p) => p.not_planned ?? []);
    return {
      schema_version: '1',
      depth_level: ctx.depth,
      project: projectBlock(map),
      cases: withIds(plans),
      ...(notPlanned.length ? { not_planned: notPlanned } : {}),
    };
  },
};
