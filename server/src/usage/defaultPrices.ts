// The price table a run uses when the person gives none (`--price-table` / amtp.priceTable replace
// it): list prices of common hosted models in USD per million tokens, as their vendors published
// them on PRICES_AS_OF. Prices change; the summary names this date next to every cost it computes.
import type { PriceTable } from '../core/usage';

export const PRICES_AS_OF = '2025-08-07';

export const DEFAULT_PRICES: PriceTable = {
  // OpenAI
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  // Anthropic (through OpenAI-compatible gateways)
  'claude-opus-4-1': { input: 15, cachedInput: 1.5, output: 75 },
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15 },
  'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, output: 4 },
  // Google
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.31, output: 10 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.075, output: 2.5 },
  // DeepSeek
  'deepseek-chat': { input: 0.27, cachedInput: 0.07, output: 1.1 },
  'deepseek-reasoner': { input: 0.55, cachedInput: 0.14, output: 2.19 },
};

/**
 * The person's table, else the default one for hosted endpoints: an OpenAI or Azure endpoint reached
 * with a key. None for the offline provider, VS Code's models, or a keyless endpoint (a server of the
 * person's own, where a hosted model's name costs nothing).
 */
export function runPrices(provider: string, table: PriceTable | undefined, withKey: boolean): { prices?: PriceTable; pricesAsOf?: string } {
  if (table) return { prices: table };
  return (provider === 'openai' || provider === 'azure') && withKey ? { prices: DEFAULT_PRICES, pricesAsOf: PRICES_AS_OF } : {};
}
