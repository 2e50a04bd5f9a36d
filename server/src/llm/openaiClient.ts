// The SDK client for one resolved endpoint: OpenAI (with a key or keyless), Azure's classic
// deployment form through the SDK's own AzureOpenAI client, or Azure's /openai/v1 form.
import type OpenAI from 'openai';
import type { ResolvedEndpoint } from './endpoint';

/**
 * A new client per session, so no connection pool or state crosses an agent boundary. The SDK's own
 * retries are off (the agent stage owns the policy), and it gets the endpoint's settings explicitly
 * so it never reads OPENAI_* from the environment by itself.
 */
export async function sdkClient(ep: ResolvedEndpoint): Promise<OpenAI> {
  // Loaded lazily: the SDK is large and most CLI commands never call a model.
  const { default: OpenAIClient, AzureOpenAI } = await import('openai');
  // The idle watchdog (llm/stream.ts) gives up first; the SDK's timeout is only a backstop for the wait for headers.
  const common = { maxRetries: 0, timeout: ep.idleTimeoutMs + 5_000, organization: null, project: null };
  const t = ep.target;
  switch (t.form) {
    case 'openai':
      return new OpenAIClient({ ...common, apiKey: t.apiKey, baseURL: t.baseURL, defaultHeaders: ep.headers });
    case 'keyless':
      // The SDK insists on some key; a null Authorization header (which a person's own --header may
      // still set) means none is sent.
      return new OpenAIClient({
        ...common,
        apiKey: 'amtp-keyless',
        baseURL: t.baseURL,
        defaultHeaders: { Authorization: null, ...ep.headers },
      });
    case 'azure-classic':
      // {endpoint}/openai/deployments/{deployment or the model}/chat/completions?api-version=…, key in api-key.
      return new AzureOpenAI({
        ...common,
        endpoint: t.endpoint,
        apiKey: t.apiKey,
        apiVersion: t.apiVersion,
        deployment: t.deployment,
        defaultHeaders: ep.headers,
      });
    case 'azure-v1':
      // The v1 API takes the plain OpenAI protocol at {resource}/openai/v1 and Azure's api-key header; no api-version.
      return new OpenAIClient({
        ...common,
        apiKey: 'amtp-azure-v1',
        baseURL: t.baseURL,
        defaultHeaders: { Authorization: null, 'api-key': t.apiKey, ...ep.headers },
      });
  }
}
