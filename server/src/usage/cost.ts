// Tokens → USD with the person's price table (USD per million tokens, per model).
import type { ModelPrice, PriceTable, TokenUsage } from '../core/usage';

/** The table's row for a model: exact name, case-insensitive. No guessing by prefix: gpt-4o is not gpt-4o-mini. */
export function priceFor(table: PriceTable | undefined, model: string | undefined): ModelPrice | undefined {
  if (!table || !model) return undefined;
  if (Object.hasOwn(table, model)) return table[model];
  const lower = model.toLowerCase();
  const key = Object.keys(table).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : table[key];
}

/** Cached prompt tokens are priced at `cachedInput` (default: `input`); the rest of the prompt at `input`. */
export function costOf(u: TokenUsage, p: ModelPrice): number {
  const cached = Math.min(u.cachedTokens, u.promptTokens);
  const usd = ((u.promptTokens - cached) * p.input + cached * (p.cachedInput ?? p.input) + u.completionTokens * p.output) / 1_000_000;
  // Micro-dollar precision: sums of floats must not print as 0.30000000000000004.
  return Math.round(usd * 1e6) / 1e6;
}
