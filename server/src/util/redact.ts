/**
 * Secrets never reach a recording. Known secrets (the configured API key) are
 * replaced exactly; anything shaped like a credential is replaced by pattern.
 */
const PATTERNS: RegExp[] = [
  /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}/g, // OpenAI / Anthropic style keys
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, // Authorization header values
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g, // GitHub tokens
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API keys
];
const KEY_VALUE =
  /("?(?:api[_-]?key|authorization|x-api-key|subscription[_-]?key|password|secret|access[_-]?token)"?\s*[:=]\s*"?)([^"\s,}]{6,})/gi;
/** Names whose values are credentials wherever they appear as object keys (headers included: Azure's api-key, APIM's subscription key). */
const SECRET_NAME = /^(authorization|proxy-authorization|api[_-]?key|x-api-key|ocp-apim-subscription-key)$/i;

export const REDACTED = '[REDACTED]';

export function redactText(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const k of known) if (k && k.length >= 6) out = out.split(k).join(REDACTED);
  for (const re of PATTERNS) out = out.replace(re, REDACTED);
  return out.replace(KEY_VALUE, (_m, head: string) => head + REDACTED);
}

/** Redacts every string in a JSON value (keys included), returning a new value. */
export function redactValue<T>(value: T, known: readonly string[] = []): T {
  if (typeof value === 'string') return redactText(value, known) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, known)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_NAME.test(k)) out[k] = REDACTED;
      else out[redactText(k, known)] = redactValue(v, known);
    }
    return out as T;
  }
  return value;
}
