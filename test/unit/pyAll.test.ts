// `__all__` built by an expression (server/src/agents/crawler/pyAll.ts): read with literal-only
// evaluation on the syntax tree, never by importing. test/fixtures/py-parse/parse.py is Debian's
// python3-parse 1.19.0 as published: its `__all__ = 'parse search findall with_pattern'.split()`
// left the crawler with no export, and the run crashed.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadPython, type PyParser } from '../../server/src/frameworks/pyGrammar';
import { extractPySymbols } from '../../server/src/agents/crawler/pySymbols';
import { arityOf } from '../../server/src/agents/generator/modules';

const PARSE = resolve(__dirname, '..', 'fixtures', 'py-parse', 'parse.py');

describe('Python __all__ evaluated from the syntax tree', () => {
  let py: PyParser;
  before(async () => {
    py = await loadPython();
  });
  const exported = (src: string) =>
    extractPySymbols(py, src)
      .symbols.filter((s) => s.exported && s.kind !== 'method')
      .map((s) => s.name)
      .sort();
  const defs = (...names: string[]) => names.map((n) => `def ${n}(): pass\n`).join('');

  it("python3-parse's `'…'.split()` exports its four functions, and its classes stay unexported", () => {
    const names = exported(readFileSync(PARSE, 'utf8'));
    assert.deepEqual(names, ['findall', 'parse', 'search', 'with_pattern']);
  });

  it('concatenation, +=, .append/.extend, list()/tuple() of a name bound earlier, implicit string concatenation', () => {
    const src = [
      "_core = ('a', 'b')",
      "__all__ = list(_core) + 'c d'.split() + ['e' 'f']",
      "__all__ += ('g',)",
      "__all__.append('h')",
      "__all__.extend('i,j'.split(','))",
      defs('a', 'b', 'c', 'd', 'ef', 'g', 'h', 'i', 'j', 'hidden'),
    ].join('\n');
    assert.deepEqual(exported(src), ['a', 'b', 'c', 'd', 'ef', 'g', 'h', 'i', 'j']);
  });

  it('a comprehension that yields its loop variable over literals; an annotated __all__', () => {
    assert.deepEqual(exported(`__all__ = [n for n in ('x', 'y')]\n${defs('x', 'y', 'z')}`), ['x', 'y']);
    assert.deepEqual(exported(`__all__: list = sorted({'y', 'x'})\n${defs('x', 'y', 'z')}`), ['x', 'y']);
  });

  it('an __all__ that cannot be evaluated without running code falls back to the underscore rule, never to no export', () => {
    assert.deepEqual(exported(`__all__ = [n for n in dir() if not n.startswith('_')]\n${defs('a', '_b')}`), ['a']);
    assert.deepEqual(exported(`__all__ = ['a']\n__all__ += other.__all__\n${defs('a', 'c', '_b')}`), ['a', 'c']);
    assert.deepEqual(exported(`__all__ = 'a b'.split(maxsplit=1)\n${defs('a', 'b', 'c')}`), ['a', 'b', 'c']);
  });
});

describe('Python arity of a module-level function', () => {
  it('counts a leading `self` as inspect.signature does (cachetools.keys.methodkey(self, *args, **kwargs) has 3)', async () => {
    const py = await loadPython();
    const src = readFileSync(resolve(__dirname, '..', 'fixtures', 'py-cachetools', 'cachetools', 'keys.py'), 'utf8');
    const methodkey = extractPySymbols(py, src).symbols.find((s) => s.name === 'methodkey')!;
    assert.equal(arityOf(methodkey, 'python'), 3);
  });
});

describe('Python properties', () => {
  it("cachetools' `@property def maxsize` is an attribute of Cache, not a method a test calls", async () => {
    const py = await loadPython();
    const src = readFileSync(resolve(__dirname, '..', 'fixtures', 'py-cachetools', 'cachetools', '__init__.py'), 'utf8');
    const syms = extractPySymbols(py, src).symbols;
    const maxsize = syms.filter((s) => s.name === 'Cache.maxsize');
    assert.deepEqual(
      maxsize.map((s) => [s.kind, s.params]),
      [['variable', undefined]],
    );
    assert.equal(syms.find((s) => s.name === 'Cache.get')?.kind, 'method');
  });
});
