// The CLI's endpoint settings: flags first, then environment variables. Never a repository file:
// where requests and keys go is the person's choice (docs/security.md).
import { UsageError } from '../core/errors';
import type { PriceTable } from '../core/usage';
import type { ProviderSettings } from '../app/providers';
import { loadPriceTable } from '../usage/priceTable';
import type { FlagValues } from './flags';

type Env = Record<string, string | undefined>;

const nonEmpty = (v: string | undefined) => (v && v.trim() !== '' ? v.trim() : undefined);

/** The provider a generate run uses when none is named: a key or a base URL in the environment means openai. */
export function defaultProvider(flag: string | undefined, env: Env): string {
  return flag ?? nonEmpty(env.AMTP_PROVIDER) ?? (nonEmpty(env.OPENAI_API_KEY) || nonEmpty(env.OPENAI_BASE_URL) ? 'openai' : 'offline');
}

/** `--header 'NAME: VALUE'` (repeatable): extra headers for every model request (checked by the flag table). */
function headerFlags(values: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const i = v.indexOf(':');
    out[v.slice(0, i).trim()] = v.slice(i + 1).trim();
  }
  return out;
}

/** AMTP_HEADERS is a JSON object of strings; --header flags win over it. */
function envHeaders(raw: string | undefined): Record<string, string> {
  if (!nonEmpty(raw)) return {};
  let v: unknown;
  try {
    v = JSON.parse(raw!);
  } catch {
    throw new UsageError('AMTP_HEADERS must be a JSON object of header names to string values, e.g. {"X-Title":"AMTP"}');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v) || Object.values(v).some((x) => typeof x !== 'string')) {
    throw new UsageError('AMTP_HEADERS must be a JSON object of header names to string values, e.g. {"X-Title":"AMTP"}');
  }
  return v as Record<string, string>;
}

function positive(raw: string | undefined, what: string, integer: boolean): number | undefined {
  if (!nonEmpty(raw)) return undefined;
  const n = Number(raw);
  if (!(n > 0) || (integer && !Number.isInteger(n)))
    throw new UsageError(`${what} must be a positive ${integer ? 'integer' : 'number'} (got "${raw}")`);
  return n;
}

export function endpointSettings(provider: string, v: FlagValues, env: Env): ProviderSettings {
  const azure = provider === 'azure';
  const structured = v['no-structured-output']
    ? false
    : env.AMTP_STRUCTURED_OUTPUT === '0' || env.AMTP_STRUCTURED_OUTPUT === 'false'
      ? false
      : undefined;
  return {
    provider,
    apiKey: azure ? (nonEmpty(env.AZURE_OPENAI_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY)) : nonEmpty(env.OPENAI_API_KEY),
    baseURL: nonEmpty(env.OPENAI_BASE_URL),
    azureEndpoint: v['azure-endpoint'] ?? nonEmpty(env.AZURE_OPENAI_ENDPOINT),
    azureDeployment: v['azure-deployment'] ?? nonEmpty(env.AZURE_OPENAI_DEPLOYMENT),
    azureApiVersion: v['azure-api-version'] ?? nonEmpty(env.AZURE_OPENAI_API_VERSION) ?? nonEmpty(env.OPENAI_API_VERSION),
    headers: { ...envHeaders(env.AMTP_HEADERS), ...headerFlags(v.header) },
    timeoutSeconds: positive(v.timeout, '--timeout', false) ?? positive(env.AMTP_TIMEOUT_SECONDS, 'AMTP_TIMEOUT_SECONDS', false),
    deadlineSeconds: positive(v.deadline, '--deadline', false) ?? positive(env.AMTP_DEADLINE_SECONDS, 'AMTP_DEADLINE_SECONDS', false),
    maxOutputTokens:
      positive(v['max-output-tokens'], '--max-output-tokens', true) ?? positive(env.AMTP_MAX_OUTPUT_TOKENS, 'AMTP_MAX_OUTPUT_TOKENS', true),
    ...(structured === false ? { structuredOutput: false } : {}),
  };
}

export async function priceTableOption(v: FlagValues, env: Env): Promise<PriceTable | undefined> {
  const file = v['price-table'] ?? nonEmpty(env.AMTP_PRICE_TABLE);
  return file ? loadPriceTable(file) : undefined;
}

/** What a recording must never hold: the key and every header value. */
export function secretsOf(s: ProviderSettings): string[] {
  return [s.apiKey ?? '', ...Object.values(s.headers ?? {})].filter(Boolean);
}
