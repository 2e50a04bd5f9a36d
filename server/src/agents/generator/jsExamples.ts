// Turns a JS/TS docs snippet into documented examples: a call, the statements before it, and the
// result the docs show. A call whose result is not shown, or that cannot be isolated, is skipped.
import type { OracleBinding } from '../../contracts/types';
import { parseLiteral } from '../../frameworks/literals';
import { documentedError, isPrintedToken, stripResultMarker, type DocExample, type ParsedSnippet } from './examples';
import { splitStatements, type Statement } from './jsStatements';

const STATEMENT_KEYWORD = /^(?:if|for|while|do|switch|try|function|class|return|export|throw|type|interface|enum|async\s+function)\b/;

/**
 * @param ownSpecifiers module specifiers that mean "the package under test" (`ms`, `./index.js`)
 */
export function parseJsSnippet(snippet: string, ownSpecifiers: string[]): ParsedSnippet {
  const items = splitStatements(snippet);
  const examples: DocExample[] = [];
  const skipped: ParsedSnippet['skipped'] = [];
  const imports: OracleBinding[] = [];
  const setup: string[] = [];
  let foreignImport: string | undefined;

  for (let k = 0; k < items.length; k++) {
    const item = items[k];
    if (item.code === undefined) continue;
    const stmt = item as Statement;
    const own = parseImport(stmt.code, ownSpecifiers);
    if (own) {
      if (own.own) imports.push(...own.bindings);
      else foreignImport = own.specifier;
      continue;
    }
    const result = resultFor(stmt, items[k + 1]);
    if (!result) {
      setup.push(stmt.code);
      continue;
    }
    if (result.fromNextLine) k++;
    const decl = /^(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::\s*[^=]+)?=\s*([\s\S]+)$/.exec(stmt.code);
    let call = decl ? decl[2].trim() : stmt.code;
    let printed = false;
    const log = /^console\.(?:log|info)\(([\s\S]*)\)$/.exec(call);
    if (log) {
      call = log[1].trim();
      printed = true;
    }
    const reject = foreignImport
      ? `snippet imports '${foreignImport}', which a test cannot reproduce inside one test`
      : STATEMENT_KEYWORD.test(call) || /^(?:const|let|var)\b/.test(call)
        ? 'documented result follows a statement, not an expression'
        : log && /,/.test(topLevelCommas(call))
          ? 'console.log with several arguments prints a joined line'
          : undefined;
    if (reject) {
      skipped.push({ line: stmt.line, reason: reject });
    } else {
      const example = classify(call, result.text, result.marked, printed);
      if (example) examples.push({ ...example, setup: [...setup], line: stmt.line, imports: [...imports] });
      else skipped.push({ line: stmt.line, reason: `shown result '${result.text.slice(0, 60)}' is not a literal value, printed token or error` });
    }
    // A declaration with a shown value is still needed by the statements after it.
    if (decl) setup.push(stmt.code);
  }
  return { examples, skipped };
}

function resultFor(stmt: Statement, next: ReturnType<typeof splitStatements>[number] | undefined): { text: string; marked: boolean; fromNextLine: boolean } | undefined {
  if (stmt.comment !== undefined && stmt.comment !== '') {
    const r = stripResultMarker(stmt.comment);
    if (looksLikeResult(r.text, r.marked)) return { ...r, fromNextLine: false };
  }
  // `bytes(1024);\n// output: '1KB'`: a comment line right after the statement, but only when it
  // reads as a result, so prose comments that introduce the next call are not mistaken for one.
  if (next && next.code === undefined && next.line === stmt.line + stmtHeight(stmt)) {
    const r = stripResultMarker(next.comment);
    if ((r.marked || parseLiteral(r.text) !== undefined) && looksLikeResult(r.text, r.marked)) return { ...r, fromNextLine: true };
  }
  return undefined;
}

function stmtHeight(stmt: Statement): number {
  return stmt.code.split('\n').length;
}

function looksLikeResult(text: string, marked: boolean): boolean {
  return parseLiteral(text) !== undefined || documentedError(text) !== undefined || isPrintedToken(text, marked);
}

function classify(call: string, text: string, marked: boolean, printed: boolean): Omit<DocExample, 'setup' | 'line' | 'imports'> | undefined {
  const error = documentedError(text);
  if (error && parseLiteral(text) === undefined) return { call, outcome: 'throws', error };
  const lit = parseLiteral(text);
  if (lit) {
    // console.log('x') prints x; a shown quoted string after console.log means the value's text.
    if (printed && lit.t === 'string') return { call, outcome: 'prints', expected: lit.v };
    if (printed && (lit.t === 'number' || lit.t === 'bool' || lit.t === 'null' || lit.t === 'undefined' || lit.t === 'nan')) return { call, outcome: 'prints', expected: text.trim() };
    return { call, outcome: 'value', expected: text.trim() };
  }
  if (isPrintedToken(text, marked || printed)) return { call, outcome: 'prints', expected: text.trim() };
  return undefined;
}

function topLevelCommas(code: string): string {
  let depth = 0;
  let out = '';
  for (const c of code) {
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) depth--;
    if (c === ',' && depth === 0) out += ',';
  }
  return out;
}

interface ParsedImport {
  own: boolean;
  specifier: string;
  bindings: OracleBinding[];
}

/** `var x = require('s')`, `const {a, b: c} = require('s')`, `import x, {a as b} from 's'`, `import * as n from 's'`. */
export function parseImport(code: string, ownSpecifiers: string[]): ParsedImport | undefined {
  const req = /^(?:const|let|var)\s+([\s\S]+?)\s*=\s*require\(\s*(['"])([^'"]+)\2\s*\)(\.[A-Za-z_$][\w$]*)?$/.exec(code);
  const imp = /^import\s+(?:type\s+)?([\s\S]+?)\s+from\s+(['"])([^'"]+)\2$/.exec(code);
  const bare = /^(?:import\s+(['"])([^'"]+)\1|require\(\s*(['"])([^'"]+)\3\s*\))$/.exec(code);
  if (bare) return { own: isOwn(bare[2] ?? bare[4], ownSpecifiers), specifier: bare[2] ?? bare[4], bindings: [] };
  if (!req && !imp) return undefined;
  const specifier = (req ?? imp)![3];
  const bindings: OracleBinding[] = [];
  if (req) {
    const lhs = req[1].trim();
    if (req[4]) bindings.push({ local: lhs, import: 'named', name: req[4].slice(1) });
    else if (lhs.startsWith('{')) bindings.push(...destructured(lhs.slice(1, -1), ':'));
    else bindings.push({ local: lhs, import: 'module' });
  } else {
    let clause = imp![1].trim();
    const ns = /^(?:([A-Za-z_$][\w$]*)\s*,\s*)?\*\s+as\s+([A-Za-z_$][\w$]*)$/.exec(clause);
    if (ns) {
      if (ns[1]) bindings.push({ local: ns[1], import: 'default' });
      bindings.push({ local: ns[2], import: 'namespace' });
    } else {
      const def = /^([A-Za-z_$][\w$]*)\s*(?:,|$)/.exec(clause);
      if (def) {
        bindings.push({ local: def[1], import: 'default' });
        clause = clause.slice(def[0].length).trim();
      }
      const named = /^\{([\s\S]*)\}$/.exec(clause);
      if (named) bindings.push(...destructured(named[1], ' as '));
    }
  }
  return { own: isOwn(specifier, ownSpecifiers), specifier, bindings };
}

function destructured(list: string, renameToken: string): OracleBinding[] {
  return list
    .split(',')
    .map((s) => s.trim().replace(/^type\s+/, ''))
    .filter((s) => /^[A-Za-z_$][\w$]*(\s*(?::|as)\s*[A-Za-z_$][\w$]*)?$/.test(s))
    .map((s) => {
      const [name, local] = s.split(renameToken).map((x) => x.trim());
      return { local: local ?? name, import: 'named' as const, name };
    });
}

function isOwn(specifier: string, own: string[]): boolean {
  const bare = specifier.replace(/\.(?:c|m)?[jt]s$/, '').replace(/\/index$/, '');
  return own.some((o) => o === specifier || o.replace(/\.(?:c|m)?[jt]s$/, '').replace(/\/index$/, '') === bare);
}
