// Shared setup of AMTP's pytest files in a fixture, as a maintainer would ask before merging
// (issue 27): when at least three module-level tests start with the same `s = Stack()` (after their
// docstring), the file gets
//
//     @pytest.fixture
//     def s():
//         return Stack()
//
// and those tests take `s` as a parameter instead of building it. A fixture is function-scoped, so
// each test still gets a fresh value. Only where nothing else could see the change: `s` is no other
// name of the file (module level, a parameter, a function's free name, a string a decorator or call
// could name a fixture by), and each moved test does not bind a name the value is built from. The
// verifier runs the file again before it keeps it (verifier/tidyPhase.ts).
import type { SharedSetup } from '../descriptor';
import { applyEdits, type Edit } from '../../util/textEdits';
import { lineStartOf } from '../jsTestFind';
import { MIN_TESTS } from '../sharedSetup';
import { parsePyTests } from '../pyTestFind';
import { boundNames, namesRead, parameterNames, usedOutsideLocals } from '../pyScope';
import { statementsOf, walkPython, withPythonTree, type PyNode } from '../pyTree';

/** pytest's own fixtures: one of the file's would replace it for every fixture that asks for it (tmpdir asks for tmp_path). */
const PYTEST_FIXTURES = new Set(
  'cache capfd capfdbinary caplog capsys capsysbinary capteesys doctest_namespace monkeypatch pytestconfig pytester record_property record_testsuite_property record_xml_attribute recwarn request subtests testdir tmp_path tmp_path_factory tmpdir tmpdir_factory'.split(
    ' ',
  ),
);

/** A test that may take its first statement from a fixture. */
interface Candidate {
  fn: PyNode;
  /** its first character, the comments above it included */
  fullStart: number;
  name: string;
  expr: string;
  /** the statement's line(s), newline included */
  line: { start: number; end: number };
  indent: string;
}

/**
 * The file with each shared first statement in a fixture; undefined when nothing is shared. With
 * `ours`, only those of these cases move: a test an earlier run wrote keeps the text that run
 * recorded, and a person's own test is theirs.
 */
export const pytestFixtures: SharedSetup = (path, content, ours) => {
  if (!path.endsWith('.py')) return undefined;
  const found = parsePyTests(content).tests;
  const out = withPythonTree(content, (root) => {
    if (root.hasError) return undefined;
    const candidates: Candidate[] = [];
    for (const st of statementsOf(root)) {
      const fn = st.type === 'decorated_definition' ? st.childForFieldName('definition') : st;
      const test = found.find((t) => !t.owner && t.nameStart === fn?.childForFieldName('name')?.startIndex);
      if (fn?.type !== 'function_definition' || !test || (ours && !(test.caseId && ours.has(test.caseId)))) continue;
      const c = candidate(content, fn, test.fullStart);
      if (c) candidates.push(c);
    }
    return fixtureEdits(content, root, candidates);
  });
  if (!out?.length) return undefined;
  const text = applyEdits(content, out);
  return withPythonTree(text, (root) => (root.hasError ? undefined : text));
};

/** `fn` when it is a plain test whose first statement (after its docstring) is `name = expr` that a fixture could build. */
function candidate(content: string, fn: PyNode, fullStart: number): Candidate | undefined {
  if (fn.children[0]?.type === 'async') return undefined;
  const params = fn.childForFieldName('parameters')!.namedChildren;
  if (params.some((p) => p?.type !== 'identifier')) return undefined; // `*args`, defaults, `/`: not a plain test
  const body = statementsOf(fn.childForFieldName('body')!);
  const skip = body[0] && isDocstring(body[0]) ? 1 : 0;
  const [first, ...rest] = body.slice(skip);
  // The test must keep a statement of its own.
  if (!first || !rest.length || first.type !== 'expression_statement' || first.namedChildCount !== 1) return undefined;
  const a = first.namedChildren[0]!;
  const left = a.childForFieldName('left');
  const right = a.childForFieldName('right');
  if (a.type !== 'assignment' || left?.type !== 'identifier' || !right || a.childForFieldName('type')) return undefined;
  if (right.type === 'assignment' || hasAny(right, ['await', 'yield', 'named_expression'])) return undefined;
  // The value may not read a name the test binds: there it was the test's (unbound yet), in a fixture it would be the module's.
  const locals = new Set([...boundNames(fn, true), ...parameterNames(fn)]);
  if (namesRead(right).some((n) => locals.has(n))) return undefined;
  const name = left.text;
  // `global name` would make the line assign the module's; a parameter may not be global.
  if (hasAny(fn, ['global_statement', 'nonlocal_statement'], (n) => n.namedChildren.some((c) => c?.text === name))) return undefined;
  const start = lineStartOf(content, first.startIndex);
  const nl = content.indexOf('\n', first.endIndex);
  const end = nl < 0 ? content.length : nl + 1;
  // Alone on its line(s), a comment after it aside: removing the lines removes nothing else.
  if (content.slice(start, first.startIndex).trim() || !/^[ \t]*(#.*)?\r?\n?$/.test(content.slice(first.endIndex, end))) return undefined;
  return { fn, fullStart, name, expr: right.text, line: { start, end }, indent: content.slice(start, first.startIndex) };
}

/** For each group of at least MIN_TESTS candidates with the same statement, the fixture and the tests' edits. */
function fixtureEdits(content: string, root: PyNode, candidates: Candidate[]): Edit[] {
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) groups.set(`${c.name}\n${c.expr}`, [...(groups.get(`${c.name}\n${c.expr}`) ?? []), c]);
  const taken = new Set<string>();
  const edits: Edit[] = [];
  // The largest group first: two groups of one name cannot both have its fixture.
  for (const group of [...groups.values()].sort((a, b) => b.length - a.length)) {
    const { name, expr, indent } = group[0];
    if (group.length < MIN_TESTS || taken.has(name)) continue;
    const existing = sameFixture(root, name, expr);
    if (!freeForFixture(root, name, new Set([...group.map((c) => c.fn.id), ...(existing ? [existing.id] : [])]))) continue;
    taken.add(name);
    const at = group[0].fullStart;
    const blank = /\n*$/.exec(content.slice(0, at))![0].length - 1;
    const fixture = `@pytest.fixture\ndef ${name}():\n${indent}return ${expr}\n${'\n'.repeat(Math.max(blank, 1))}`;
    if (!existing) edits.push({ start: at, end: at, text: fixture });
    for (const c of group) edits.push(parameterEdit(c.fn, name), { ...c.line, text: '' });
  }
  if (!edits.length) return [];
  const imported = importPytest(content, root);
  if (imported === null) return [];
  return imported ? [...edits, imported] : edits;
}

/**
 * The file's own `@pytest.fixture def name(): return expr`, as this module writes it: a later run
 * that wrote its tests again kept it (the writer leaves what is not a test), and they can use it.
 */
function sameFixture(root: PyNode, name: string, expr: string): PyNode | undefined {
  for (const st of statementsOf(root)) {
    const fn = st.childForFieldName('definition');
    if (st.type !== 'decorated_definition' || fn?.childForFieldName('name')?.text !== name) continue;
    const decorators = st.namedChildren.filter((c) => c?.type === 'decorator');
    const body = statementsOf(fn.childForFieldName('body')!);
    const returned = body.length === 1 && body[0].type === 'return_statement' ? body[0].namedChildren[0] : undefined;
    if (decorators.length === 1 && decorators[0]!.text === '@pytest.fixture' && !fn.childForFieldName('parameters')!.namedChildCount)
      if (returned?.text === expr) return fn;
  }
  return undefined;
}

/**
 * Whether a module-level fixture `name` changes nothing but the `group`'s tests: `name` is no
 * other name of the file (at module level, a function's parameter, which a fixture of the file
 * would answer instead of conftest.py's, or a free name of a function), and no string outside the
 * group's tests names it (`@pytest.mark.parametrize("name", …)`, `@pytest.fixture(name="name")`,
 * `request.getfixturevalue("name")`).
 */
function freeForFixture(root: PyNode, name: string, group: Set<number>): boolean {
  if (PYTEST_FIXTURES.has(name) || name === 'pytest' || /^test/.test(name)) return false;
  if (usedOutsideLocals(root, name, (fn) => group.has(fn.id))) return false;
  let named = false;
  walkPython(root, (n) => {
    if (named || group.has(n.id)) return false;
    if (n.type === 'string' && !isDocstring(n.parent!)) named = wordsOf(n).includes(name);
    return !named;
  });
  return !named;
}

/** `def test_x(a):` → `def test_x(a, name):`. */
function parameterEdit(fn: PyNode, name: string): Edit {
  const params = fn.childForFieldName('parameters')!;
  const last = params.namedChildren[params.namedChildCount - 1];
  return last
    ? { start: last.endIndex, end: last.endIndex, text: `, ${name}` }
    : { start: params.endIndex - 1, end: params.endIndex - 1, text: name };
}

/**
 * `import pytest` after the file's imports when it has none; nothing when it has one; null when
 * `pytest` is some other name at module level, which the line would not win against.
 */
function importPytest(content: string, root: PyNode): Edit | undefined | null {
  const top = statementsOf(root);
  if (top.some((s) => s.type === 'import_statement' && s.namedChildren.some((c) => c?.type === 'dotted_name' && c.text === 'pytest')))
    return undefined;
  if (usedOutsideLocals(root, 'pytest', () => false)) return null;
  // After the docstring and the imports the file starts with.
  let after: PyNode | undefined;
  for (const [i, s] of top.entries()) {
    if (!/import/.test(s.type) && !(i === 0 && isDocstring(s))) break;
    after = s;
  }
  if (!after) return { start: 0, end: 0, text: 'import pytest\n' };
  const nl = content.indexOf('\n', after.endIndex);
  return nl < 0
    ? { start: content.length, end: content.length, text: '\nimport pytest\n' }
    : { start: nl, end: nl, text: '\nimport pytest' };
}

function isDocstring(n: PyNode): boolean {
  return n.type === 'expression_statement' && n.namedChildCount === 1 && /^(concatenated_)?string$/.test(n.namedChildren[0]!.type);
}

/** A string's words, as pytest reads a list of names in one (`"a, b"`). */
function wordsOf(s: PyNode): string[] {
  return s.namedChildren
    .flatMap((c) => (c?.type === 'string_content' ? [c.text] : []))
    .join('')
    .split(/[\s,]+/);
}

/** Whether `node` holds a node of one of `types` (that `also` accepts). */
function hasAny(node: PyNode, types: string[], also: (n: PyNode) => boolean = () => true): boolean {
  let found = false;
  walkPython(node, (n) => {
    if (types.includes(n.type) && also(n)) found = true;
    return !found;
  });
  return found;
}
