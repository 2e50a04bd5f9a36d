// An example whose result is random (`nanoid() //=> "V1StGXR8_Z5jdHi6B-myT"`) shows the shape of a
// result, not a value a test can expect: such examples get no equality oracle.
import type { SymbolInfo } from '../../contracts/types';
import type { DocExample } from './examples';

const RANDOM_DOC = /\b(?:random(?:ly)?|uuid|guid|nonce|unique (?:id|identifier|string|key|token|name)s?)\b/i;

/** The reason an example's documented value cannot be expected, or undefined when it can. */
export function looksRandom(ex: DocExample, symbol: SymbolInfo | undefined): string | undefined {
  if (ex.outcome === 'throws') return undefined;
  if (symbol?.doc && RANDOM_DOC.test(symbol.doc))
    return `'${ex.call.slice(0, 60)}': its documentation says the result is random or unique, so the shown value cannot be expected`;
  if (/^[\w$.]+\(\s*\)$/.test(ex.call.trim()) && looksLikeId(ex.expected ?? ''))
    return `'${ex.call.slice(0, 60)}' takes no arguments and shows an id-like result: an illustration, not a value to expect`;
  return undefined;
}

/** A quoted token of 8+ characters mixing letters and digits, without spaces (`"V1StGXR8_Z5jdHi6B-myT"`). */
function looksLikeId(text: string): boolean {
  const m = /^(['"`])([^\s'"`]{8,})\1$/.exec(text.trim());
  if (!m) return false;
  return /\d/.test(m[2]) && /[A-Za-z]/.test(m[2]);
}
