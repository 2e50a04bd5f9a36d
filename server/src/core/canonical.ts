import { createHash, randomBytes } from 'node:crypto';
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

/**
 * canonicalJson(value) where value[key] is already canonical text: the member is
 * spliced in instead of serialized again (large payloads cost milliseconds to
 * canonicalize). Canonical JSON of an object is its sorted members, each
 * key:canonical(value), so splicing the canonical text gives identical bytes.
 */
export function canonicalJsonWithRaw(value: Record<string, unknown>, key: string, rawCanonical: string): string {
  const token = `\u0000amtp-raw-${randomBytes(12).toString('hex')}`;
  const text = canonicalJson({ ...value, [key]: token });
  const member = `${JSON.stringify(key)}:${JSON.stringify(token)}`;
  const at = text.indexOf(member);
  if (at < 0 || text.indexOf(member, at + 1) >= 0) throw new Error('canonical splice failed');
  return text.slice(0, at) + `${JSON.stringify(key)}:${rawCanonical}` + text.slice(at + member.length);
}
