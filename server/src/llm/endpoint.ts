// Where a request goes and how it authenticates, decided once from the person's settings: an
// OpenAI-compatible endpoint (with a key, or keyless for local servers), or Azure OpenAI in its
// classic deployment form or its /openai/v1 form. Pure: no SDK, no I/O.
import { DEFAULT_AZURE_API_VERSION, DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_MODEL_TIMEOUT_SECONDS } from '../core/providers';
import { LlmConfigError } from './errors';

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface EndpointSettings {
  /** `openai` (any compatible endpoint) or `azure` */
  kind: 'openai' | 'azure';
  apiKey?: string;
  /** openai: the endpoint's base URL (default api.openai.com). azure: accepted as the endpoint when `azureEndpoint` is unset */
  baseURL?: string;
  /** azure: https://RESOURCE.openai.azure.com (classic) or https://RESOURCE.openai.azure.com/openai/v1 (v1) */
  azureEndpoint?: string;
  /** azure classic: one deployment for every agent; unset, each agent's model name is its deployment */
  azureDeployment?: string;
  /** azure classic: the api-version query parameter */
  azureApiVersion?: string;
  /** extra headers sent with every request (OpenRouter's HTTP-Referer / X-Title, gateways) */
  headers?: Record<string, string>;
  /** seconds without data (before the first chunk or between chunks) after which a request is given up */
  timeoutSeconds?: number;
  /** seconds after which a request is given up however it streams; default: derived from the idle timeout and the output bound */
  deadlineSeconds?: number;
  /** the output bound every request carries */
  maxOutputTokens?: number;
  /** ask for structured output (response_format json_schema); default true */
  structuredOutput?: boolean;
}

export type EndpointForm =
  | { form: 'openai'; baseURL: string; apiKey: string }
  | { form: 'keyless'; baseURL: string }
  | { form: 'azure-classic'; endpoint: string; apiKey: string; apiVersion: string; deployment?: string }
  | { form: 'azure-v1'; baseURL: string; apiKey: string };

export interface ResolvedEndpoint {
  target: EndpointForm;
  headers: Record<string, string>;
  idleTimeoutMs: number;
  /** the total deadline of every request, when the person set one (else derived per request: llm/replyLimits.ts) */
  deadlineMs?: number;
  maxOutputTokens: number;
  structuredOutput: boolean;
  /** what error messages call this endpoint: a URL, never a key */
  where: string;
  /** values never to show in a message, log or recording: the key and every header value */
  secrets: string[];
}

const AZURE_V1 = /\/openai\/v1\/?$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const trimSlash = (u: string) => u.replace(/\/+$/, '');

function checkUrl(url: string, what: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new LlmConfigError(`${what} "${url}" is not a URL (expected e.g. http://localhost:11434/v1)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new LlmConfigError(`${what} "${url}" must be http:// or https://`);
  if (u.username || u.password) throw new LlmConfigError(`${what} must not carry credentials in the URL; use the API key setting instead`);
  return trimSlash(url);
}

/** Header names are HTTP tokens and values one line: a bad one is refused, never sent half-way. */
function checkHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (!HEADER_NAME.test(k)) throw new LlmConfigError(`header name "${k}" is not a valid HTTP header name`);
    if (typeof v !== 'string' || /[\r\n\0]/.test(v)) throw new LlmConfigError(`header "${k}" must have a one-line string value`);
    out[k] = v;
  }
  return out;
}

export function resolveEndpoint(s: EndpointSettings): ResolvedEndpoint {
  const headers = checkHeaders(s.headers);
  const timeout = s.timeoutSeconds && s.timeoutSeconds > 0 ? s.timeoutSeconds : DEFAULT_MODEL_TIMEOUT_SECONDS;
  const bound = s.maxOutputTokens && s.maxOutputTokens > 0 ? Math.floor(s.maxOutputTokens) : DEFAULT_MAX_OUTPUT_TOKENS;
  const target = s.kind === 'azure' ? azureForm(s) : openAiForm(s);
  const where =
    'baseURL' in target
      ? target.baseURL
      : `${target.endpoint} (deployment ${target.deployment ?? 'per model'}, api-version ${target.apiVersion})`;
  const secrets = [...('apiKey' in target ? [target.apiKey] : []), ...Object.values(headers)].filter((v) => v.length >= 6);
  return {
    target,
    headers,
    idleTimeoutMs: Math.round(timeout * 1000),
    ...(s.deadlineSeconds && s.deadlineSeconds > 0 ? { deadlineMs: Math.round(s.deadlineSeconds * 1000) } : {}),
    maxOutputTokens: bound,
    structuredOutput: s.structuredOutput !== false,
    where,
    secrets,
  };
}

function openAiForm(s: EndpointSettings): EndpointForm {
  const baseURL = s.baseURL ? checkUrl(s.baseURL, 'the base URL') : undefined;
  if (s.apiKey) return { form: 'openai', baseURL: baseURL ?? OPENAI_DEFAULT_BASE_URL, apiKey: s.apiKey };
  // Ollama, LM Studio and vLLM need no key: with a base URL of its own, no key means no Authorization header.
  if (baseURL) return { form: 'keyless', baseURL };
  throw new LlmConfigError(
    'No API key for api.openai.com: set OPENAI_API_KEY (CLI) or run "AMTP: Set API Key" (VS Code); for a local endpoint that needs no key (Ollama, LM Studio, vLLM) set OPENAI_BASE_URL / amtp.baseURL; or use --provider offline.',
  );
}

function azureForm(s: EndpointSettings): EndpointForm {
  const raw = s.azureEndpoint || s.baseURL;
  if (!raw)
    throw new LlmConfigError(
      'Azure OpenAI needs its endpoint: set AZURE_OPENAI_ENDPOINT or --azure-endpoint (CLI), or amtp.azureEndpoint (VS Code), e.g. https://RESOURCE.openai.azure.com',
    );
  const url = checkUrl(raw, 'the Azure endpoint');
  if (!s.apiKey)
    throw new LlmConfigError('Azure OpenAI needs an API key: set AZURE_OPENAI_API_KEY (CLI) or run "AMTP: Set API Key" (VS Code).');
  if (AZURE_V1.test(url)) return { form: 'azure-v1', baseURL: url, apiKey: s.apiKey };
  if (/\/openai(\/deployments.*)?$/.test(url))
    throw new LlmConfigError(
      `the Azure endpoint "${url}" should be the resource URL only (https://RESOURCE.openai.azure.com), or the v1 form ending in /openai/v1; AMTP adds the deployment path itself`,
    );
  return {
    form: 'azure-classic',
    endpoint: url,
    apiKey: s.apiKey,
    apiVersion: s.azureApiVersion || DEFAULT_AZURE_API_VERSION,
    ...(s.azureDeployment ? { deployment: s.azureDeployment } : {}),
  };
}
