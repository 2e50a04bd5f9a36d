// Which provider a run uses, from the person's settings (CLI flags and environment, or VS Code's
// user settings). Keys and header values never leave this object except toward their endpoint.
import { OFFLINE_ENGINES } from '../agents/offlineEngines';
import { PROVIDERS } from '../core/providers';
import type { CapabilityMemory } from '../llm/capabilities';
import { LlmConfigError } from '../llm/errors';
import { OfflineProvider } from '../llm/offlineProvider';
import { OpenAiProvider } from '../llm/openaiProvider';
import type { LlmProvider } from '../llm/provider';
import { VscodeLmProvider, type LmBridge } from '../llm/vscodeLmProvider';

export interface ProviderSettings {
  provider: string;
  apiKey?: string;
  baseURL?: string;
  azureEndpoint?: string;
  azureDeployment?: string;
  azureApiVersion?: string;
  headers?: Record<string, string>;
  /** idle seconds before a request is given up */
  timeoutSeconds?: number;
  maxOutputTokens?: number;
  structuredOutput?: boolean;
  /** the VS Code client's Language Model API, when the server runs inside VS Code */
  lm?: LmBridge;
  capabilities?: CapabilityMemory;
  log?: (line: string) => void;
}

export function createProvider(s: ProviderSettings): LlmProvider {
  const shape = {
    headers: s.headers,
    timeoutSeconds: s.timeoutSeconds,
    maxOutputTokens: s.maxOutputTokens,
    structuredOutput: s.structuredOutput,
    capabilities: s.capabilities,
    log: s.log,
  };
  switch (s.provider) {
    case 'offline':
      return new OfflineProvider(OFFLINE_ENGINES);
    case 'openai':
      return new OpenAiProvider({ kind: 'openai', apiKey: s.apiKey, baseURL: s.baseURL, ...shape });
    case 'azure':
      return new OpenAiProvider({
        kind: 'azure',
        apiKey: s.apiKey,
        baseURL: s.baseURL,
        azureEndpoint: s.azureEndpoint,
        azureDeployment: s.azureDeployment,
        azureApiVersion: s.azureApiVersion,
        ...shape,
      });
    case 'vscode-lm':
      if (!s.lm)
        throw new LlmConfigError(
          'the vscode-lm provider uses the models of VS Code (vscode.lm) and works only inside the VS Code extension; in a terminal use openai, azure or offline',
        );
      return new VscodeLmProvider(s.lm, { timeoutSeconds: s.timeoutSeconds, maxOutputTokens: s.maxOutputTokens });
    default:
      throw new LlmConfigError(`unknown provider "${s.provider}": use one of ${PROVIDERS.join(', ')}`);
  }
}
