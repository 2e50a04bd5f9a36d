// What the generator extracts from a documented snippet, language-independent.
import type { OracleBinding } from '../../contracts/types';

export interface DocExample {
  /** statements the example runs before the documented call, verbatim */
  setup: string[];
  /** the documented expression */
  call: string;
  /** value: `expected` is a literal; prints: `expected` is printed text; throws: `error` names the error */
  outcome: 'value' | 'prints' | 'throws';
  expected?: string;
  error?: string;
  /** 0-based line inside the snippet */
  line: number;
  /** the snippet's own import statements for the package under test */
  imports: OracleBinding[];
}

export interface ParsedSnippet {
  examples: DocExample[];
  skipped: { line: number; reason: string }[];
}

/** Markers docs put between a call and its result: `// => x`, `// output: x`, `// returns x`. */
const RESULT_MARKER = /^(?:=>|->|→|=|==|===|returns?:?|results?(?:\s+in)?:?|outputs?:?|prints?:?|logs?:?|gives:?|evaluates to:?|is:?)\s*/i;

export interface ResultText {
  text: string;
  marked: boolean;
}

export function stripResultMarker(comment: string): ResultText {
  const m = RESULT_MARKER.exec(comment.trim());
  return m ? { text: comment.trim().slice(m[0].length).trim(), marked: true } : { text: comment.trim(), marked: false };
}

/** `throws TypeError`, `TypeError: bad`, `Error` → the error name (or message), else undefined. */
export function documentedError(text: string): string | undefined {
  const thrown = /^(?:throws?|raises?)\b\s*(?:an?\s+)?:?\s*([A-Za-z_$][\w$.]*)?/i.exec(text);
  if (thrown) return thrown[1] && /Error$|Exception$/.test(thrown[1]) ? thrown[1] : 'Error';
  const named = /^([A-Z][\w$]*(?:Error|Exception))\b(?::\s*(.*))?$/.exec(text);
  return named ? named[1] : undefined;
}

/** Bare printed text we accept without quotes: one token that is clearly not prose (`some-string`, `1.5kB`). */
export function isPrintedToken(text: string, marked: boolean): boolean {
  if (!text || text.length > 200 || /\n/.test(text)) return false;
  if (marked) return !/[.!?]\s/.test(text);
  return /^\S+$/.test(text) && /[^A-Za-z]/.test(text) && !/^https?:/.test(text);
}
