// Which files the crawler analyses, and how close each is to what a user imports. Starting from the
// entry points it follows imports, requires and re-exports (`module.exports.x = require(...)`,
// `export * from`, `from .core import x`) wave by wave, so the key files are the modules that define
// what the entry exports; then, within the parse budget, the other product files by depth. A file an
// entry point reaches is product code whatever its name says.
import type { FileFacts, WaveFile, WaveResult } from './analyseFiles';

/** 0: an entry point; 1: imported by an entry or a barrel it reaches (public API); 2: reached deeper (helpers); 3: not reached. */
type Tier = 0 | 1 | 2 | 3;

export interface ReachPlan {
  seeds: string[];
  /** every code file that may be parsed when reached, by path */
  code: Map<string, WaveFile>;
  /** product files parsed after the reachable ones while the budget lasts, best first */
  fill: WaveFile[];
  /** most files parsed in all */
  budget: number;
  /** most of them from `fill` (files no entry point reaches only help the ranking) */
  fillBudget: number;
  analyse(files: WaveFile[]): Promise<WaveResult>;
  /** the file `spec` names when imported from `from`, if it is in the tree */
  resolve(from: string, spec: string): string | undefined;
}

export interface Reached extends WaveResult {
  tier: Map<string, Tier>;
  /** reachable files left unparsed by the budget */
  unparsedReachable: number;
  /** product files outside the reach left unparsed by the budget */
  unparsedOther: number;
}

const isBarrel = (p: string) => /(^|\/)(index\.[cm]?[jt]sx?|__init__\.py)$/.test(p);

export async function reachFrom(plan: ReachPlan): Promise<Reached> {
  const out: Reached = { facts: new Map(), texts: new Map(), skipped: [], tier: new Map(), unparsedReachable: 0, unparsedOther: 0 };
  const merge = (w: WaveResult) => {
    for (const [k, v] of w.facts) out.facts.set(k, v);
    for (const [k, v] of w.texts) out.texts.set(k, v);
    out.skipped.push(...w.skipped);
  };
  let frontier = [...new Set(plan.seeds)].filter((p) => plan.code.has(p));
  for (const s of frontier) out.tier.set(s, 0);
  while (frontier.length) {
    const room = plan.budget - out.facts.size - out.skipped.length;
    const wave = frontier.slice(0, Math.max(0, room));
    out.unparsedReachable += frontier.length - wave.length;
    if (!wave.length) break;
    const result = await plan.analyse(wave.map((p) => plan.code.get(p)!));
    merge(result);
    frontier = [];
    for (const from of wave)
      for (const target of targetsOf(from, result.facts.get(from), plan)) {
        if (out.tier.has(target)) continue;
        const fromTier = out.tier.get(from)!;
        out.tier.set(target, fromTier === 0 || (fromTier === 1 && isBarrel(from)) ? 1 : 2);
        frontier.push(target);
      }
  }
  const rest = plan.fill.filter((f) => !out.tier.has(f.path));
  const room = Math.max(0, Math.min(plan.fillBudget, plan.budget - out.facts.size - out.skipped.length));
  const fill = rest.slice(0, room);
  out.unparsedOther = rest.length - fill.length;
  if (fill.length) {
    merge(await plan.analyse(fill));
    for (const f of fill) out.tier.set(f.path, 3);
  }
  return out;
}

function targetsOf(from: string, facts: FileFacts | undefined, plan: ReachPlan): string[] {
  if (!facts) return [];
  const out: string[] = [];
  for (const spec of new Set(facts.imports)) {
    const t = plan.resolve(from, spec);
    if (t && t !== from && plan.code.has(t)) out.push(t);
  }
  return out;
}

/**
 * The reach from `seeds`; when no seed shows an export a parse can see (a UMD bundle: `exports.x = x`
 * inside a factory, superstruct@2.0.2's `main`) and another condition's build of the same API stands
 * beside it (`alternates`: `module`, `import`), the reach from both, so that build is what is read.
 */
export async function reachWithAlternates(
  reach: (seeds: string[]) => Promise<Reached>,
  seeds: string[],
  alternates: string[],
): Promise<Reached> {
  const reached = await reach(seeds);
  const blind = seeds.length > 0 && seeds.every((p) => !reached.facts.get(p)?.symbols.some((x) => x.exported));
  return blind && alternates.length ? reach([...seeds, ...alternates]) : reached;
}
