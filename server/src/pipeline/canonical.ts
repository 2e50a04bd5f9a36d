import { createHash } from 'node:crypto';
import canonicalizeImpl from 'canonicalize';

/** RFC 8785 JSON: sorted keys, no whitespace, ES number formatting. */
export function canonicalJson(value: unknown): string {
  const out = canonicalizeImpl(value);
  if (out === undefined) throw new TypeError('value cannot be canonicalized (undefined or a function)');
  return out;
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}
