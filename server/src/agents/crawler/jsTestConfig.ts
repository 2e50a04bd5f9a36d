// The test-file patterns written as literals in a jest or vitest config file (jest.config.js,
// vitest.config.ts, vite.config.ts), read from its syntax tree (crawler/jsParser.ts): the file is
// never run. Anything computed (a variable, a spread, a function call) is left to the defaults.
import { loadJsParser, type EsNode } from './jsParser';

const CONFIG_FILES: Record<'jest' | 'vitest', string[]> = {
  jest: ['jest.config.js', 'jest.config.cjs', 'jest.config.mjs', 'jest.config.ts', 'jest.config.mts', 'jest.config.cts'],
  vitest: [
    'vitest.config.ts',
    'vitest.config.mts',
    'vitest.config.js',
    'vitest.config.mjs',
    'vite.config.ts',
    'vite.config.mts',
    'vite.config.js',
    'vite.config.mjs',
  ],
};

export interface ConfigPatterns {
  patterns: string[];
  source: string;
}

/** jest: `testMatch` or `testRegex` (as `/regex/`); vitest: `test.include`. */
export async function jsConfigPatterns(
  runner: string,
  files: ReadonlySet<string>,
  read: (path: string) => Promise<string | undefined>,
): Promise<ConfigPatterns | undefined> {
  if (runner !== 'jest' && runner !== 'vitest') return undefined;
  const file = CONFIG_FILES[runner].find((f) => files.has(f));
  const text = file ? await read(file) : undefined;
  if (!file || text === undefined) return undefined;
  let program: EsNode;
  try {
    program = (await loadJsParser()).parse(file, text).program;
  } catch {
    return undefined; // a config that does not parse: the runner will report it
  }
  if (runner === 'vitest') {
    const test = findProperty(program, 'test');
    const include = test?.value?.type === 'ObjectExpression' ? ownProperty(test.value, 'include') : undefined;
    const patterns = include ? literalStrings(include.value) : undefined;
    return patterns?.length ? { patterns, source: `${file} test.include` } : undefined;
  }
  const match = findProperty(program, 'testMatch');
  const matchPatterns = match ? literalStrings(match.value) : undefined;
  if (matchPatterns?.length) return { patterns: matchPatterns, source: `${file} testMatch` };
  const regex = findProperty(program, 'testRegex');
  const regexPatterns = regex ? literalStrings(regex.value) : undefined;
  return regexPatterns?.length ? { patterns: regexPatterns.map((r) => `/${r}/`), source: `${file} testRegex` } : undefined;
}

/** The first object property named `name` anywhere in the tree, depth first. */
function findProperty(node: unknown, name: string): EsNode | undefined {
  if (!node || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = findProperty(n, name);
      if (found) return found;
    }
    return undefined;
  }
  const n = node as EsNode;
  if (n.type === 'Property' && keyName(n) === name) return n;
  for (const [k, v] of Object.entries(n))
    if (k !== 'parent' && v && typeof v === 'object') {
      const found = findProperty(v, name);
      if (found) return found;
    }
  return undefined;
}

function ownProperty(obj: EsNode, name: string): EsNode | undefined {
  return (obj.properties as EsNode[]).find((p) => p.type === 'Property' && keyName(p) === name);
}

function keyName(p: EsNode): string | undefined {
  const k = p.key as EsNode;
  return k.type === 'Identifier' ? k.name : k.type === 'Literal' && typeof k.value === 'string' ? k.value : undefined;
}

/** A string, a regex literal or an array of them; undefined when any part is computed. */
function literalStrings(v: EsNode): string[] | undefined {
  const one = (n: EsNode | null): string | undefined => {
    if (!n) return undefined;
    if (n.type === 'Literal') return typeof n.value === 'string' ? n.value : n.regex ? String(n.regex.pattern) : undefined;
    if (n.type === 'TemplateLiteral' && n.expressions.length === 0) return String(n.quasis[0].value.cooked);
    return undefined;
  };
  const list = v.type === 'ArrayExpression' ? (v.elements as (EsNode | null)[]).map(one) : [one(v)];
  return list.every((s): s is string => s !== undefined) ? list : undefined;
}
