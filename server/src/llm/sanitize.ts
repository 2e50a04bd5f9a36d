/**
 * Sanitizer v1.0.0. Exactly: strip one leading ```json or ``` fence, strip one
 * trailing ``` fence, trim. Nothing else: the contract is that a model which
 * puts prose around its JSON gets MalformedLlmOutput, not a silent rescue.
 */
export const SANITIZER_VERSION = 'v1.0.0' as const;

const LEADING_FENCE = /^\s*```(?:json)?[ \t]*\r?\n?/;
const TRAILING_FENCE = /\r?\n?[ \t]*```\s*$/;

export function sanitize(raw: string): string {
  return raw.replace(LEADING_FENCE, '').replace(TRAILING_FENCE, '').trim();
}
