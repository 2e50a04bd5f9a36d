// Sums and the health block of a run, derived from its activities: per agent wall time, attempts,
// error ratio, tokens and cost. Pure functions of the run record, so the record, the CLI summary,
// --json and the VS Code run view all show the same figures.
import { addUsage, NO_USAGE, type AgentHealth, type RunHealth, type RunUsage, type TokenUsage } from '../core/usage';
import type { ActivityRecord, RunRecord } from '../core/run';
import { costOf, priceFor } from './cost';

const ms = (a?: string, b?: string): number => (a && b ? Math.max(0, Date.parse(b) - Date.parse(a)) : 0);
const ratio = (errors: number, attempts: number): number => (attempts ? Math.round((errors / attempts) * 1000) / 1000 : 0);
const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** Per-agent and total tokens, and their cost when the run has a price table. */
export function runUsage(run: RunRecord): RunUsage {
  const byAgent: Record<string, TokenUsage> = {};
  let total: TokenUsage = { ...NO_USAGE };
  let cost = 0;
  const unpriced = new Set<string>();
  for (const a of run.activities) {
    if (!a.usage) continue;
    byAgent[a.agent] = addUsage(byAgent[a.agent], a.usage);
    total = addUsage(total, a.usage);
    const c = activityCost(run, a);
    if (c === undefined) unpriced.add(a.model ?? run.params.models[a.agent]);
    else cost += c;
  }
  // The verifier's own sessions (repairs, coverage rounds) talk to the engineer's model: they count too.
  for (const [kind, u] of Object.entries(run.verification?.usage ?? {})) {
    if (!u) continue;
    byAgent[kind] = addUsage(byAgent[kind], u);
    total = addUsage(total, u);
    const model = run.params.models.engineer;
    const price = priceFor(run.params.prices, model);
    if (price) cost += costOf(u, price);
    else if (run.params.prices) unpriced.add(model);
  }
  const priced = run.params.prices
    ? {
        costUsd: round6(cost),
        ...(unpriced.size ? { unpriced: [...unpriced].sort() } : {}),
        ...(run.params.pricesAsOf ? { pricesAsOf: run.params.pricesAsOf } : {}),
      }
    : {};
  return { total, byAgent, ...priced };
}

function activityCost(run: RunRecord, a: ActivityRecord): number | undefined {
  if (!a.usage || !run.params.prices) return undefined;
  const price = priceFor(run.params.prices, a.model ?? run.params.models[a.agent]);
  return price ? costOf(a.usage, price) : undefined;
}

export function runHealth(run: RunRecord, now: string = new Date().toISOString()): RunHealth {
  const agents: AgentHealth[] = run.activities.map((a) => {
    const errorKinds: Record<string, number> = {};
    for (const e of a.errors) errorKinds[e.kind] = (errorKinds[e.kind] ?? 0) + 1;
    const cost = activityCost(run, a);
    return {
      agent: a.agent,
      status: a.status,
      wallMs: ms(a.startedAt, a.endedAt ?? (a.status === 'running' ? now : a.startedAt)),
      attempts: a.attempts,
      errors: a.errors.length,
      errorRatio: ratio(a.errors.length, a.attempts),
      errorKinds,
      usage: a.usage ?? { ...NO_USAGE },
      ...(cost !== undefined ? { costUsd: cost } : {}),
    };
  });
  const attempts = agents.reduce((n, a) => n + a.attempts, 0);
  const errors = agents.reduce((n, a) => n + a.errors, 0);
  const usage = runUsage(run);
  return {
    wallMs: ms(run.createdAt, run.status === 'running' ? now : run.updatedAt),
    attempts,
    errors,
    errorRatio: ratio(errors, attempts),
    usage: usage.total,
    ...(usage.costUsd !== undefined ? { costUsd: usage.costUsd } : {}),
    agents,
  };
}

/** Refreshes the derived blocks of a run record in place (called in the same save that changes an activity). */
export function refreshUsage(r: RunRecord, now?: string): void {
  r.usage = runUsage(r);
  r.health = runHealth(r, now);
}
