/**
 * Model providers: the built-in deterministic engines; any OpenAI-compatible endpoint (OpenAI,
 * Ollama, LM Studio, vLLM, OpenRouter; keyless when it needs no key); Azure OpenAI (classic
 * deployments or the /openai/v1 form); the VS Code Language Model API (only inside VS Code).
 */
export const PROVIDERS = ['offline', 'openai', 'azure', 'vscode-lm'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export function isProviderName(v: unknown): v is ProviderName {
  return (PROVIDERS as readonly unknown[]).includes(v);
}

/** Defaults of the request shape, shared by the CLI, the settings and the providers. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
/** idle time between streamed chunks (or before the first) after which a request is given up */
export const DEFAULT_MODEL_TIMEOUT_SECONDS = 600;
/** the GA api-version used for classic Azure deployments when none is set (supports json_schema and max_completion_tokens) */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';
