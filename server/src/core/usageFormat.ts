// One-line texts for usage and health, shared by the CLI summary and the VS Code run view.
import type { AgentHealth, MutationHealth, RunHealth, RunUsage, TokenUsage } from './usage';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function formatSeconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`;
}

export function formatUsd(usd: number): string {
  return usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** "1234 prompt (200 cached) + 567 completion tokens" */
function formatTokens(u: TokenUsage): string {
  return `${u.promptTokens} prompt${u.cachedTokens ? ` (${u.cachedTokens} cached)` : ''} + ${u.completionTokens} completion tokens`;
}

/** "3702 prompt + 1701 completion tokens in 3 requests · $0.0012 · 1 request reported no usage" */
export function formatRunUsage(u: RunUsage): string {
  const parts = [`${formatTokens(u.total)} in ${plural(u.total.requests, 'request')}`];
  if (u.costUsd !== undefined)
    parts.push(`${formatUsd(u.costUsd)}${u.pricesAsOf ? ` (list prices of ${u.pricesAsOf}; --price-table to use yours)` : ''}`);
  if (u.unpriced?.length) parts.push(`no price for ${u.unpriced.join(', ')}`);
  if (u.total.unreported) parts.push(`${plural(u.total.unreported, 'request')} reported no usage`);
  return parts.join(' · ');
}

/** "crawler: 1.2 s, 2 attempts, 1 error (50%: MalformedLlmOutput), 1234 + 567 tokens, $0.0004" */
export function formatAgentHealth(a: AgentHealth): string {
  const kinds = Object.entries(a.errorKinds)
    .map(([k, n]) => (n > 1 ? `${k}×${n}` : k))
    .join(', ');
  const errors = `${plural(a.errors, 'error')}${a.errors ? ` (${Math.round(a.errorRatio * 100)}%: ${kinds})` : ''}`;
  const cost = a.costUsd !== undefined ? `, ${formatUsd(a.costUsd)}` : '';
  return `${a.agent}: ${formatSeconds(a.wallMs)}, ${plural(a.attempts, 'attempt')}, ${errors}, ${a.usage.promptTokens} + ${a.usage.completionTokens} tokens${cost}`;
}

/** "run: 12.3 s, 4 attempts, 1 error (25%); mutation 78.5% in 21 s of 60 s" */
export function formatRunHealth(h: RunHealth): string {
  const run = `run: ${formatSeconds(h.wallMs)}, ${plural(h.attempts, 'attempt')}, ${plural(h.errors, 'error')}${h.errors ? ` (${Math.round(h.errorRatio * 100)}%)` : ''}`;
  return h.mutation ? `${run}; ${formatMutationHealth(h.mutation)}` : run;
}

/** "mutation 78.5% in 21 s of 60 s, 12 mutants not run", or "mutation skipped (why)" */
function formatMutationHealth(m: MutationHealth): string {
  if (m.skipped) return `mutation skipped (${m.skipped})`;
  const notRun = m.notRun ? `, ${plural(m.notRun, 'mutant')} not run` : '';
  return `mutation ${m.score !== undefined ? `${m.score}%` : '—'} in ${formatSeconds(m.wallMs)} of ${formatSeconds(m.budgetMs)}${notRun}`;
}
