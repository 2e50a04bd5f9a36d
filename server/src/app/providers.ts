import { OFFLINE_ENGINES } from '../agents/offlineEngines';
import { LlmConfigError } from '../llm/errors';
import { OfflineProvider } from '../llm/offlineProvider';
import { OpenAiProvider } from '../llm/openaiProvider';
import type { LlmProvider } from '../llm/provider';

export interface ProviderSettings {
  provider: string;
  apiKey?: string;
  baseURL?: string;
  timeoutMs?: number;
}

export function createProvider(s: ProviderSettings): LlmProvider {
  switch (s.provider) {
    case 'offline':
      return new OfflineProvider(OFFLINE_ENGINES);
    case 'openai':
      return new OpenAiProvider({ apiKey: s.apiKey, baseURL: s.baseURL, timeoutMs: s.timeoutMs });
    default:
      throw new LlmConfigError(`unknown provider "${s.provider}": use offline or openai`);
  }
}
