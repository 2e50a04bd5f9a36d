// A strict parser for the literal values docs show as results (`// => [1, 'a']`, `>>> f()\n{'a': 1}`).
// It exists so a documented result is only ever pasted into a test when it is a pure literal:
// node's inspect output such as `[Function]` or `{ a: [Object] }` looks like code but means something else.
import { literalNode, printExpression, str } from './jsNodes';

export type Literal =
  | { t: 'number'; v: number; src: string }
  | { t: 'bigint'; src: string }
  | { t: 'string'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'null' }
  | { t: 'undefined' }
  | { t: 'nan' }
  | { t: 'array'; items: Literal[]; tuple?: boolean }
  | { t: 'object'; entries: [Literal, Literal][] };

export type LiteralLang = 'javascript' | 'python';

const JS_WORDS: Record<string, Literal> = {
  true: { t: 'bool', v: true },
  false: { t: 'bool', v: false },
  null: { t: 'null' },
  undefined: { t: 'undefined' },
  NaN: { t: 'nan' },
  Infinity: { t: 'number', v: Infinity, src: 'Infinity' },
};
const PY_WORDS: Record<string, Literal> = {
  True: { t: 'bool', v: true },
  False: { t: 'bool', v: false },
  None: { t: 'null' },
  nan: { t: 'nan' },
  inf: { t: 'number', v: Infinity, src: 'inf' },
};

/** Parses `text` as one literal, or returns undefined when it is anything else. */
export function parseLiteral(text: string, lang: LiteralLang = 'javascript'): Literal | undefined {
  const p = new Parser(text.trim(), lang);
  try {
    const value = p.value();
    p.skipSpace();
    return p.done() ? value : undefined;
  } catch {
    return undefined;
  }
}

class Parser {
  private i = 0;
  constructor(
    private readonly s: string,
    private readonly lang: LiteralLang,
  ) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  skipSpace(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  private fail(): never {
    throw new Error(`not a literal at ${this.i}`);
  }

  value(): Literal {
    this.skipSpace();
    const c = this.s[this.i];
    if (c === '[') return this.list(']', false);
    if (c === '(' && this.lang === 'python') return this.list(')', true);
    if (c === '{') return this.object();
    if (c === '"' || c === "'" || (c === '`' && this.lang === 'javascript')) return { t: 'string', v: this.string(c) };
    if (c === '-' || c === '+' || /[0-9.]/.test(c ?? '')) return this.number();
    const word = /^[A-Za-z_$][\w$]*/.exec(this.s.slice(this.i))?.[0];
    const table = this.lang === 'python' ? PY_WORDS : JS_WORDS;
    if (word && Object.prototype.hasOwnProperty.call(table, word)) {
      this.i += word.length;
      return table[word];
    }
    return this.fail();
  }

  private number(): Literal {
    const m = /^[+-]?(?:Infinity|0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)(n)?/.exec(
      this.s.slice(this.i),
    );
    if (!m || m[0] === '-' || m[0] === '+') this.fail();
    this.i += m[0].length;
    const src = m[0].replace(/_/g, '');
    if (m[1]) return { t: 'bigint', src };
    const v = Number(src);
    if (Number.isNaN(v)) this.fail();
    return { t: 'number', v, src };
  }

  private string(quote: string): string {
    let out = '';
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i++];
      if (c === quote) return out;
      if (quote === '`' && c === '$' && this.s[this.i] === '{') this.fail(); // template with code
      if (c === '\n' && quote !== '`') this.fail();
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.i++];
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
      if (e in simple) out += simple[e];
      else if (e === 'x') out += this.hex(2);
      else if (e === 'u') out += this.s[this.i] === '{' ? this.braced() : this.hex(4);
      else if (e === 'U' && this.lang === 'python') out += this.hex(8);
      else out += e;
    }
    return this.fail();
  }

  private hex(n: number): string {
    const h = this.s.slice(this.i, this.i + n);
    if (!/^[0-9a-fA-F]+$/.test(h) || h.length !== n) this.fail();
    this.i += n;
    return String.fromCodePoint(parseInt(h, 16));
  }

  private braced(): string {
    const end = this.s.indexOf('}', this.i);
    if (end < 0) this.fail();
    const h = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    return String.fromCodePoint(parseInt(h, 16));
  }

  private list(close: string, tuple: boolean): Literal {
    this.i++;
    const items: Literal[] = [];
    for (;;) {
      this.skipSpace();
      if (this.s[this.i] === close) break;
      items.push(this.value());
      this.skipSpace();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== close) this.fail();
    }
    this.i++;
    return { t: 'array', items, tuple };
  }

  private object(): Literal {
    this.i++;
    const entries: [Literal, Literal][] = [];
    for (;;) {
      this.skipSpace();
      if (this.s[this.i] === '}') break;
      entries.push([this.key(), this.afterColon()]);
      this.skipSpace();
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== '}') this.fail();
    }
    this.i++;
    return { t: 'object', entries };
  }

  private key(): Literal {
    this.skipSpace();
    const c = this.s[this.i];
    if (this.lang === 'javascript') {
      const ident = /^[A-Za-z_$][\w$]*/.exec(this.s.slice(this.i))?.[0];
      if (ident) {
        this.i += ident.length;
        return { t: 'string', v: ident };
      }
      if (c === '"' || c === "'") return { t: 'string', v: this.string(c) };
      const n = this.number();
      return { t: 'string', v: n.t === 'number' ? String(n.v) : n.t === 'bigint' ? n.src : this.fail() };
    }
    return this.value();
  }

  private afterColon(): Literal {
    this.skipSpace();
    if (this.s[this.i] !== ':') this.fail();
    this.i++;
    return this.value();
  }
}

/** True when comparing needs deep equality rather than identity. */
export function isStructured(lit: Literal): boolean {
  return lit.t === 'array' || lit.t === 'object';
}

/** JavaScript source for a parsed literal (strings re-quoted safely), printed from its syntax tree. */
export function toJs(lit: Literal): string {
  return printExpression(literalNode(lit));
}

/** Single-quoted JS string literal, as the test files print it: one literal whose value is `s`. */
export function jsString(s: string): string {
  return printExpression(str(s));
}

/** Python source for a parsed literal. */
export function toPython(lit: Literal): string {
  switch (lit.t) {
    case 'number':
      return lit.v === Infinity ? "float('inf')" : lit.v === -Infinity ? "float('-inf')" : lit.src.replace(/^\+/, '');
    case 'bigint':
      return lit.src.replace(/n$/, '');
    case 'string':
      return pyString(lit.v);
    case 'bool':
      return lit.v ? 'True' : 'False';
    case 'null':
    case 'undefined':
      return 'None';
    case 'nan':
      return "float('nan')";
    case 'array':
      if (lit.tuple) return lit.items.length === 1 ? `(${toPython(lit.items[0])},)` : `(${lit.items.map(toPython).join(', ')})`;
      return `[${lit.items.map(toPython).join(', ')}]`;
    case 'object':
      return `{${lit.entries.map(([k, v]) => `${toPython(k)}: ${toPython(v)}`).join(', ')}}`;
  }
}

export function pyString(s: string): string {
  return JSON.stringify(s).replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => `\\u${h}`);
}
