/**
 * Secrets never reach a recording, a file AMTP writes or what its tools return. Known secrets (the
 * configured API key, header values) are replaced exactly; anything shaped like a credential is
 * replaced by pattern.
 */
const PATTERNS: RegExp[] = [
  /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}/g, // OpenAI / Anthropic style keys
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, // Authorization header values
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bgh[pousr]_[A-Za-z0-9]{36,}\b/g, // GitHub tokens
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API keys
];
/** `name: value` / `name=value` on one line (an empty `API_KEY=` in a template never takes the next line's text). */
const KEY_VALUE =
  /("?(?:api[_-]?key|authorization|x-api-key|subscription[_-]?key|password|secret|access[_-]?token)"?[ \t]*[:=][ \t]*"?)([^"\s,}]{6,})/gi;
/** user:password in a URL (a git remote, a database URL): the scheme and host stay. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s:@/]+:[^\s@/]+@/gi;
/** An Authorization value with its scheme (`AUTHORIZATION: basic …` in a git config's extraheader). */
const AUTH_SCHEME = /(\bauthorization"?[ \t]*[:=][ \t]*"?(?:basic|bearer|token|digest)[ \t]+)[A-Za-z0-9._~+/=-]{6,}/gi;
/** Names whose values are credentials wherever they appear as object keys (headers included: Azure's api-key, APIM's subscription key). */
const SECRET_NAME = /^(authorization|proxy-authorization|api[_-]?key|x-api-key|ocp-apim-subscription-key)$/i;

export const REDACTED = '[REDACTED]';

export function redactText(text: string, known: readonly string[] = []): string {
  let out = redactKnown(text, known);
  for (const re of PATTERNS) out = out.replace(re, REDACTED);
  out = out.replace(URL_CREDENTIALS, (_m, scheme: string) => `${scheme}${REDACTED}@`);
  out = out.replace(AUTH_SCHEME, (_m, head: string) => head + REDACTED);
  return out.replace(KEY_VALUE, (_m, head: string) => head + REDACTED);
}

/**
 * The known secrets alone, replaced exactly: for text that is code (a model's reply), where the
 * patterns would also hit a test's own fixture values. A text that ends in the first part of a
 * secret (a reply cut mid-way) loses that part too.
 */
export function redactKnown(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const k of known) {
    if (!k || k.length < 6) continue;
    out = out.split(k).join(REDACTED);
    for (let n = k.length - 1; n >= 6; n--) {
      if (out.endsWith(k.slice(0, n))) {
        out = out.slice(0, out.length - n) + REDACTED;
        break;
      }
    }
  }
  return out;
}

/**
 * Files that hold a project's environment secrets by convention (`.env`, `.env.local`,
 * `.env.production`, direnv's `.envrc`). The MCP read tools do not serve them at all; templates
 * meant to be committed (`.env.example`, `.env.sample`, `.env.template`, `.env.dist`) are served, redacted.
 */
export function isSecretEnvFile(rel: string): boolean {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  if (name === '.envrc') return true;
  return /^\.env(\..+)?$/i.test(name) && !/^\.env\.(example|sample|template|dist|defaults)$/i.test(name);
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
