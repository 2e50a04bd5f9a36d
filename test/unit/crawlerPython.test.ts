import { strict as assert } from 'node:assert';
import type { SymbolInfo } from '../../server/src/contracts/types';
import { loadPython, type PyParser } from '../../server/src/frameworks/pyGrammar';
import { extractPySymbols } from '../../server/src/agents/crawler/pySymbols';

// Class-based Python modules through the tree-sitter reader: what each symbol looks like in the map.
const MODULE = `"""Shapes."""
from __future__ import annotations
import math, os.path as osp
from .units import (
    Unit,
)
from . import registry

__all__ = ["Shape", "area"]
__all__ += ["Grid"]


class Shape:
    """A shape.

    Google style.

    Args:
        name (str): what to call it.

    Raises:
        ValueError: if the name is empty
            or only spaces.
        shapes.errors.ShapeError: on a bad shape
    """

    sides: int = 0

    def __init__(self, name: str, *, sides: int = 0) -> None:
        self.name = name

    @property
    def label(self) -> str:
        """The label."""
        return self.name

    @staticmethod
    def unit(scale: float = 1.0) -> "Shape":
        """NumPy style.

        Parameters
        ----------
        scale : float

        Raises
        ------
        ZeroDivisionError
            When scale is zero.
        OverflowError

        Examples
        --------
        >>> Shape.unit(2).name
        'unit'
        """
        return Shape("unit")

    @classmethod
    def parse(
        cls,
        text: str,
        strict: bool = False,  # a comment inside the signature
    ) -> Shape:
        """reST style.

        :param text: the text
        :raises KeyError: when the key
            is missing
        :raises ValueError:
        """
        return cls(text)

    async def grow(self, by: int | None = None, *factors: float, **options: object) -> list[dict[str, int]]:
        """Grow.

        >>> import asyncio
        >>> def f(x):
        ...     return x * 2
        >>> f(2)
        4
        >>> print({'a': 1,
        ...        'b': 2})
        {'a': 1,
         'b': 2}
        """

    def _private(self):
        pass

    def __repr__(self):
        return "Shape()"

    class Style:
        """Nested class."""

        def paint(self, colour: str = 'red') -> None:
            """Paint it.

            Raises:
                RuntimeError: no paint
            """

        def _mix(self):
            pass

    def after_nested(self):
        """A method after the nested class still belongs to Shape."""
        def helper():
            """not a method"""


@decorator(with_args=True)
def area(shape: Shape, /, precision: int = 2) -> float:
    r"""Area of \`shape\`, raw docstring: \\n stays.

    >>> area(Shape("x"))
    0.0
    """
    return 0.0


def helper():
    """Not in __all__."""


class Grid:
    """Escapes decode like Python: tab\\there."""


class _Hidden:
    def shown(self):
        pass

if True:
    def conditional():
        pass
`;

describe('crawler: Python through tree-sitter', () => {
  let py: PyParser;
  let syms: Map<string, SymbolInfo>;
  let imports: string[];
  before(async () => {
    py = await loadPython();
    const facts = extractPySymbols(py, MODULE);
    syms = new Map(facts.symbols.map((s) => [s.name, s]));
    imports = facts.imports;
  });

  it('lists top-level defs and classes, public methods as Class.method, nested classes as Outer.Inner', () => {
    assert.deepEqual(
      [...syms.keys()],
      [
        'Shape',
        'Shape.__init__',
        'Shape.label',
        'Shape.unit',
        'Shape.parse',
        'Shape.grow',
        'Shape.Style',
        'Shape.Style.paint',
        'Shape.after_nested',
        'area',
        'helper',
        'Grid',
        '_Hidden',
        '_Hidden.shown',
      ],
    );
    assert.equal(syms.get('Shape.Style')!.kind, 'class');
    assert.equal(syms.get('Shape.Style.paint')!.kind, 'method');
    assert.deepEqual(syms.get('Shape.Style.paint')!.throws, ['RuntimeError: no paint']);
  });

  it('honours __all__ (with +=); methods are as exported as their class', () => {
    const exported = [...syms.values()].filter((s) => s.exported).map((s) => s.name);
    assert.ok(exported.includes('Shape') && exported.includes('area') && exported.includes('Grid') && exported.includes('Shape.parse'));
    assert.ok(!exported.includes('helper'), 'not in __all__');
    assert.ok(!exported.includes('_Hidden.shown'), 'a method of a private class is private');
  });

  it('signatures: multi-line, type hints, defaults, *args/**kwargs, / and * markers, receivers dropped', () => {
    const init = syms.get('Shape.__init__')!;
    assert.equal(init.signature, '__init__(self, name: str, *, sides: int = 0) -> None');
    assert.deepEqual(init.params, [
      { name: 'name', type: 'str' },
      { name: 'sides', type: 'int', default: '0', optional: true },
    ]);
    const parse = syms.get('Shape.parse')!;
    assert.equal(parse.signature, 'parse(cls, text: str, strict: bool = False) -> Shape', 'comments are not part of it');
    assert.deepEqual(
      parse.params?.map((p) => p.name),
      ['text', 'strict'],
      'classmethod: cls is bound',
    );
    assert.equal(parse.line, 59, 'the def line, not the decorator line');
    const unit = syms.get('Shape.unit')!;
    assert.deepEqual(unit.params, [{ name: 'scale', type: 'float', default: '1.0', optional: true }], 'staticmethod: nothing is bound');
    assert.equal(unit.returns, '"Shape"');
    const label = syms.get('Shape.label')!;
    assert.equal(label.kind, 'variable', '@property: an attribute, not a method to call');
    assert.equal(label.params, undefined);
    assert.equal(label.returns, 'str');
    const grow = syms.get('Shape.grow')!;
    assert.equal(grow.async, true);
    assert.equal(grow.signature, 'async grow(self, by: int | None = None, *factors: float, **options: object) -> list[dict[str, int]]');
    assert.deepEqual(grow.params, [
      { name: 'by', type: 'int | None', default: 'None', optional: true },
      { name: 'factors', type: 'float', rest: true },
      { name: 'options', type: 'object', rest: true },
    ]);
    const area = syms.get('area')!;
    assert.equal(area.signature, 'area(shape: Shape, /, precision: int = 2) -> float');
    assert.equal(area.line, 113);
    assert.equal(syms.get('Shape')!.signature, 'Shape');
  });

  it('docstrings: Google, NumPy and reST Raises sections', () => {
    assert.deepEqual(syms.get('Shape')!.throws, [
      'ValueError: if the name is empty or only spaces.',
      'shapes.errors.ShapeError: on a bad shape',
    ]);
    assert.deepEqual(syms.get('Shape.unit')!.throws, ['ZeroDivisionError: When scale is zero.', 'OverflowError']);
    assert.deepEqual(syms.get('Shape.parse')!.throws, ['KeyError: when the key is missing', 'ValueError']);
    assert.equal(syms.get('Shape.label')!.doc, 'The label.');
    assert.match(syms.get('Shape')!.doc!, /^A shape\.\n\nGoogle style\.\n\nArgs:\n {4}name \(str\): what to call it\./);
  });

  it('doctests keep their expected output, continuation lines and relative indentation', () => {
    assert.deepEqual(syms.get('Shape.unit')!.examples, [">>> Shape.unit(2).name\n'unit'"]);
    assert.deepEqual(syms.get('Shape.grow')!.examples, [
      ">>> import asyncio\n>>> def f(x):\n...     return x * 2\n>>> f(2)\n4\n>>> print({'a': 1,\n...        'b': 2})\n{'a': 1,\n 'b': 2}",
    ]);
    assert.deepEqual(syms.get('area')!.examples, ['>>> area(Shape("x"))\n0.0']);
  });

  it('docstring values: raw strings stay raw, escapes decode, nested defs and docstring text are no symbols', () => {
    assert.match(syms.get('area')!.doc!, /raw docstring: \\n stays\./);
    assert.equal(syms.get('Grid')!.doc, 'Escapes decode like Python: tab        here.', 'a tab, expanded as inspect.cleandoc does');
    assert.equal(syms.get('Shape.after_nested')!.doc, 'A method after the nested class still belongs to Shape.');
    assert.equal(syms.get('helper')!.doc, 'Not in __all__.');
  });

  it('imports: every module imported, relative ones as written (__future__ is no module file)', () => {
    assert.deepEqual(imports, ['math', 'os.path', '.units', '.']);
  });

  it('a file that does not parse still yields what could be read', () => {
    const facts = extractPySymbols(py, 'def ok(a):\n    """Fine."""\n\ndef broken(:\n    pass\n');
    assert.equal(facts.symbols[0]?.name, 'ok');
    assert.equal(facts.symbols[0]?.doc, 'Fine.');
  });
});
