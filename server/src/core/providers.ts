/** Model providers: the built-in deterministic engines, or any OpenAI-compatible endpoint. */
export const PROVIDERS = ['offline', 'openai'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export function isProviderName(v: unknown): v is ProviderName {
  return (PROVIDERS as readonly unknown[]).includes(v);
}
