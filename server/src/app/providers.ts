// Which provider a run uses, from the person's settings (CLI flags and environment, or VS Code's
// user settings). Keys and header values never leave this object except toward their endpoint.
import { OFFLINE_ENGINES } from '../agents/offlineEngines';
import { PROVIDERS } from '../core/providers';
import { LlmConfigError } from '../llm/errors';
import { OfflineProvider } from '../llm/offlineProvider';
import { OpenAiProvider, type OpenAiSettings } from '../llm/openaiProvider';
import type { LlmProvider } from '../llm/provider';
import { VscodeLmProvider, type LmBridge } from '../llm/vscodeLmProvider';

/** The endpoint's settings (llm/endpoint.ts, llm/openaiProvider.ts) plus which provider, and VS Code's models. */
export interface ProviderSettings extends Omit<OpenAiSettings, 'kind' | 'timeoutMs'> {
  provider: string;
  /** the VS Code client's Language Model API, when the server runs inside VS Code */
  lm?: LmBridge;
}

export function createProvider(s: ProviderSettings): LlmProvider {
  const { provider, lm, azureEndpoint, azureDeployment, azureApiVersion, ...common } = s;
  switch (provider) {
    case 'offline':
      return new OfflineProvider(OFFLINE_ENGINES);
    case 'openai':
      return new OpenAiProvider({ kind: 'openai', ...common });
    case 'azure':
      return new OpenAiProvider({ kind: 'azure', azureEndpoint, azureDeployment, azureApiVersion, ...common });
    case 'vscode-lm':
      if (!lm)
        throw new LlmConfigError(
          'the vscode-lm provider uses the models of VS Code (vscode.lm) and works only inside the VS Code extension; in a terminal use openai, azure or offline',
        );
      return new VscodeLmProvider(lm, {
        timeoutSeconds: s.timeoutSeconds,
        deadlineSeconds: s.deadlineSeconds,
        maxOutputTokens: s.maxOutputTokens,
      });
    default:
      throw new LlmConfigError(`unknown provider "${s.provider}": use one of ${PROVIDERS.join(', ')}`);
  }
}
