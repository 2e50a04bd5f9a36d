// What the generator extracts from a documented snippet, language-independent.
import type { OracleBinding } from '../../contracts/types';
import { parseLiteral } from '../../frameworks/literals';

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
  /** the specifier each of `imports` came from, by its local name (`semver` → `'semver'`) */
  importedFrom?: Record<string, string>;
  /** set when the call changes `call` (its argument) in place and returns nothing (inPlace.ts): that call */
  changedBy?: string;
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

/** `throws TypeError`, `TypeError: bad`, `EXCEPTION: 'bad'`, `Error` → the error name (or message), else undefined. */
export function documentedError(text: string): string | undefined {
  if (/^(?:EXCEPTION|ERROR)\b\s*:/.test(text)) return 'Error';
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

/** Prose that cannot be part of a value: a parenthesised remark or a comment (`(proxied by …)`, `// note`). */
const REMARK = /^(?:\([^()]*(?:\([^()]*\)[^()]*)*\)|\/\/.*|#\s.*)$/;
/** Words after a value (`true if the key exists`, `- when …`, `, because …`). */
const WORDS =
  /^(?:[-–—]\s+\S.*|[,;]\s*[A-Za-z].*|(?:if|when|because|since|unless|for|on|in|as|or|and|but|i\.e\.|e\.g\.|see|note|otherwise)\b.*)$/i;

/**
 * A shown result followed by prose (`//=> false (extra arguments ignored)`, `//=> 42 // proxied by
 * ObjectModel`, `//=> true if it exists`): the value before the prose. A remark is cut after any
 * value; plain words only after a literal. Undefined when the text is a literal as a whole or has no
 * such tail.
 */
export function withoutTrailingProse(text: string, language: 'javascript' | 'python' = 'javascript'): string | undefined {
  const t = text.trim();
  if (parseLiteral(t, language) !== undefined) return undefined;
  for (let i = t.length - 1; i > 0; i--) {
    if (!/\s/.test(t[i]) || /\s/.test(t[i - 1])) continue;
    const head = t.slice(0, i).trim();
    const tail = t.slice(i).trim();
    if (!head || !tail) continue;
    const literal = parseLiteral(head, language) !== undefined;
    if (REMARK.test(tail) && (literal || withoutTrailingProse(head, language) === undefined)) return head;
    if (WORDS.test(tail) && literal) return head;
  }
  return undefined;
}
