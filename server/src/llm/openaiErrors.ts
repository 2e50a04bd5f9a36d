// SDK and HTTP errors → AMTP's typed errors, with messages that name the setting to fix and carry
// no secret (endpoints echo keys and headers back in error bodies).
import { CancelledError } from '../core/errors';
import { redactText } from '../util/redact';
import type { EndpointForm, ResolvedEndpoint } from './endpoint';
import { LlmConfigError, RateLimitError, TransientLlmError } from './errors';

export interface RawApiError {
  status?: number;
  headers?: Headers;
  name: string;
  message: string;
}

/** The parts of an SDK error this file reasons about, with secrets already cut out of the message. */
export function rawError(e: unknown, secrets: readonly string[]): RawApiError {
  const raw = e as { status?: number; headers?: Headers; name?: string; message?: string; constructor?: { name?: string } };
  return {
    status: typeof raw?.status === 'number' ? raw.status : undefined,
    headers: raw?.headers,
    name: raw?.constructor?.name ?? raw?.name ?? '',
    // The SDK prefixes the status ("400 Invalid parameter…"); messages here name it once.
    message: redactText(String(raw?.message ?? ''), secrets).replace(/^\d{3}\s+/, ''),
  };
}

function keyHint(target: EndpointForm): string {
  if (target.form === 'azure-classic' || target.form === 'azure-v1')
    return 'Fix AZURE_OPENAI_API_KEY (CLI) or "AMTP: Set API Key" (VS Code).';
  if (target.form === 'keyless') return 'This endpoint wants a key: set OPENAI_API_KEY (CLI) or run "AMTP: Set API Key" (VS Code).';
  return 'Fix OPENAI_API_KEY (CLI) or "AMTP: Set API Key" (VS Code).';
}

function notFoundHint(target: EndpointForm): string {
  if (target.form === 'azure-classic')
    return 'check the deployment (--azure-deployment, AZURE_OPENAI_DEPLOYMENT, amtp.azureDeployment, or the model name per agent), the endpoint and the api-version.';
  if (target.form === 'azure-v1')
    return 'check the deployment name given as the model (--model, amtp.model, amtp.models.*) and the endpoint (it ends in /openai/v1).';
  return 'check the model name (--model, AMTP_MODEL, amtp.models.*) and the base URL (OPENAI_BASE_URL, amtp.baseURL).';
}

export function mapOpenAiError(e: unknown, ep: ResolvedEndpoint, signal?: AbortSignal): unknown {
  if (signal?.aborted) return new CancelledError();
  const err = rawError(e, ep.secrets);
  const { status } = err;
  const where = ep.where;
  if (status === 429) return new RateLimitError(`rate limited by ${where}: ${err.message}`, retryAfterMs(err.headers));
  if (status !== undefined && status >= 500) return new TransientLlmError(`server error ${status} from ${where}: ${err.message}`);
  if (status === 408 || status === 409) return new TransientLlmError(`${status} from ${where}`);
  if (status === 401 || status === 403)
    return new LlmConfigError(`${status} from ${where}: the API key was refused. ${keyHint(ep.target)}`);
  if (status === 404) return new LlmConfigError(`404 from ${where}: ${notFoundHint(ep.target)}`);
  if (status !== undefined && status >= 400)
    return new LlmConfigError(
      `${status} from ${where}: ${err.message}. Check the endpoint settings (docs/configuration.md) and the model settings.`,
    );
  if (
    /APIConnectionTimeoutError|APIConnectionError|AbortError|FetchError/.test(err.name) ||
    /ECONNRESET|ECONNREFUSED|socket hang up|timed out|terminated/i.test(err.message)
  ) {
    return new TransientLlmError(`cannot reach ${where}: ${err.message || err.name}`);
  }
  if (e instanceof Error) e.message = redactText(e.message, ep.secrets);
  return e;
}

/** Retry-After is seconds or an HTTP date; some servers send retry-after-ms. */
function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && headers.get('retry-after-ms') !== null) return ms;
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
