// Python doctest blocks (`>>> call` followed by its printed repr) become documented examples.
import { parseLiteral } from '../../frameworks/literals';
import { firstError, isExpressionStatement, walkPython, withPythonTree } from '../../frameworks/pyTree';
import { namesOf } from '../crawler/doctestSetup';
import { VolatileNames } from './doctestVolatile';
import type { DocExample, ParsedSnippet } from './examples';

export function hasDoctest(text: string): boolean {
  return /^\s*>>>\s/m.test(text);
}

export function parseDoctest(text: string): ParsedSnippet {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const examples: DocExample[] = [];
  const skipped: ParsedSnippet['skipped'] = [];
  const setup: string[] = [];
  const volatility = new VolatileNames();
  let i = 0;
  while (i < lines.length) {
    const prompt = /^(\s*)>>> ?(.*)$/.exec(lines[i]);
    if (!prompt) {
      i++;
      continue;
    }
    const indent = prompt[1].length;
    const start = i;
    const source = [prompt[2]];
    i++;
    while (i < lines.length && /^\s*\.\.\.(?: |$)/.test(lines[i])) source.push(lines[i++].replace(/^\s*\.\.\. ?/, ''));
    const output: string[] = [];
    while (i < lines.length && lines[i].trim() !== '' && !/^\s*>>>/.test(lines[i])) output.push(lines[i++].slice(indent));
    const code = source.join('\n').replace(/\s+#\s*doctest:.*$/m, '');
    if (/#\s*doctest:\s*\+SKIP/.test(source.join('\n'))) {
      skipped.push({ line: start, reason: 'doctest marked +SKIP' });
      continue;
    }
    if (!output.length) {
      // `>>> assert f(x) == 'v'` states its result like `f(x) === 'v'` does in JavaScript.
      const asserted = assertedEquality(code);
      const volatile = asserted && volatility.check(code);
      if (volatile) skipped.push({ line: start, reason: `the asserted result depends on ${volatile}: not an equality oracle` });
      else if (asserted)
        examples.push({ call: asserted.call, outcome: 'value', expected: asserted.expected, setup: [...setup], line: start, imports: [] });
      else setup.push(code);
      volatility.record(code);
      continue;
    }
    const example = classify(code, output);
    const volatile = typeof example === 'string' || example.outcome === 'throws' ? undefined : volatility.check(code);
    if (typeof example === 'string') skipped.push({ line: start, reason: example });
    else if (volatile) skipped.push({ line: start, reason: `the shown result depends on ${volatile}: not an equality oracle` });
    else examples.push({ ...example, setup: [...setup], line: start, imports: [] });
    // The later steps of a doctest run after this one, whatever it showed: `sl.pop()` changed `sl`.
    const carried = carriedStep(code, /^Traceback \(most recent call last\)/.test(output[0]));
    if (carried) setup.push(carried);
    volatility.record(code);
  }
  return { examples, skipped };
}

/** An earlier step as a statement for the later ones: a step that raised is caught (doctest goes on); a bare name read is left out. */
function carriedStep(code: string, raised: boolean): string | undefined {
  const bareRead = withPythonTree(code, (root) => {
    const top = root.namedChildren;
    return top.length === 1 && top[0]?.type === 'expression_statement' && top[0].childCount === 1;
  });
  if (bareRead && /^[A-Za-z_][\w.]*$/.test(code.trim())) return undefined;
  if (namesOf(code).uses.has('_')) return undefined; // `_` exists only in the interactive interpreter
  if (!raised) return code;
  return `try:\n${code
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')}\nexcept Exception:\n    pass`;
}

function classify(code: string, output: string[]): Omit<DocExample, 'setup' | 'line' | 'imports'> | string {
  if (/^Traceback \(most recent call last\)/.test(output[0])) {
    const last = output[output.length - 1];
    const m = /^([A-Za-z_][\w.]*)(?::|$)/.exec(last.trim());
    return m ? { call: code, outcome: 'throws', error: m[1].split('.').pop()! } : 'traceback without an exception line';
  }
  const shape = withPythonTree(code, (root) => {
    if (firstError(root) !== undefined) return 'the doctest source does not parse as Python';
    const top = root.namedChildren;
    return top.length === 1 && top[0] && isExpressionStatement(top[0]) ? undefined : 'output follows a statement, not an expression';
  });
  if (shape) return shape;
  const text = output.join('\n');
  if (/\.\.\./.test(text)) return 'output uses the ELLIPSIS wildcard';
  const printed = /^print\(([\s\S]*)\)$/.exec(code.trim());
  if (printed) return { call: printed[1], outcome: 'prints', expected: text };
  const value = withoutUnicodePrefixes(text);
  if (parseLiteral(value, 'python')) return { call: code, outcome: 'value', expected: value };
  // Not a literal (e.g. `Decimal('1.5')`): doctest compares repr text, and the engineer does too.
  if (/ at 0x[0-9a-f]+/i.test(text)) return 'output contains a memory address';
  return { call: code, outcome: 'value', expected: text };
}

/** `assert call == literal` (either side) → the call and the literal; anything else → undefined. */
function assertedEquality(code: string): { call: string; expected: string } | undefined {
  const sides = withPythonTree(code, (root) => {
    const [only, ...more] = root.namedChildren;
    if (!only || more.length || only.type !== 'assert_statement' || firstError(root) !== undefined) return undefined;
    const cmp = only.namedChildren.find((n) => n?.type === 'comparison_operator');
    const parts = cmp ? cmp.children : [];
    if (parts.length !== 3 || parts[1]?.type !== '==') return undefined;
    return [parts[0]!.text, parts[2]!.text];
  });
  if (!sides) return undefined;
  const [l, r] = sides;
  if (parseLiteral(r, 'python') && !parseLiteral(l, 'python')) return { call: l, expected: r };
  if (parseLiteral(l, 'python') && !parseLiteral(r, 'python')) return { call: r, expected: l };
  return undefined;
}

/**
 * Python 2 doctests print text as `u'…'`; in Python 3 the same value is `'…'` (the prefix means
 * nothing there), so the prefix of each string literal, read from the syntax tree, is dropped.
 * Output that does not parse as Python is left as it is.
 */
export function withoutUnicodePrefixes(text: string): string {
  const prefixed = withPythonTree(text, (root) => {
    if (firstError(root) !== undefined) return [];
    const at: number[] = [];
    walkPython(root, (n) => {
      if (n.type !== 'string') return true;
      if (/^[uU]['"]/.test(text.slice(n.startIndex, n.startIndex + 2))) at.push(n.startIndex);
      return false;
    });
    return at;
  });
  let out = text;
  for (const at of prefixed.reverse()) out = out.slice(0, at) + out.slice(at + 1);
  return out;
}
