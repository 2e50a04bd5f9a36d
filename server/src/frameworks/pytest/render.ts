import { quote } from 'shell-quote';
import type { Oracle, OracleBinding, TestCase } from '../../contracts/types';
import { fileHeader } from '../header';

import { parseLiteral, pyString, toPython } from '../literals';
import { printFunction, printModule, printStatements, pyDocstring, type PyFunction, type PyStatement } from '../pyModel';
import { checkPython, type PySnippet } from '../pySyntax';
import { isVariableName, walkPython, withPythonTree } from '../pyTree';
import { srcConftestFor } from './srcPath';
import type { BodyPlan, FrameworkRenderer, PyCaseBody, TestFilePlan } from '../types';

type Rejected = { reason: string };

/** pytest: plain test functions with assert; Python's own doctest semantics (repr text) when the result is not a literal. */
export const pytest: FrameworkRenderer = {
  id: 'pytest',
  language: 'python',
  detect: (p) => p.test_setup.framework === 'pytest' || (p.test_setup.others ?? []).includes('pytest'),
  body: pyBody,
  parseBody: parsePyBody,
  printBody: (body) => printStatements((body as PyCaseBody).function.body),
  // Every snippet and every whole test function is checked before a file is printed, in one batch.
  validate: (items) =>
    checkPython(
      items.map(({ caseId, body }) => ({
        key: caseId,
        snippets: (body as PyCaseBody).snippets,
        unit: printFunction((body as PyCaseBody).function),
      })),
    ),
  render: renderPyFile,
  // src/ layout: a conftest.py beside the tests puts src/ on sys.path (srcPath.ts); only where the
  // folder has a conftest of its own does the command carry PYTHONPATH=src.
  supportFiles: (p, paths, targets) => {
    const conftest = srcConftestFor(p, paths, targets);
    return conftest ? [conftest] : [];
  },
  runCommand: (p, paths, targets) =>
    `${targets.some((t) => t.startsWith('src/')) && !srcConftestFor(p, paths, targets) ? 'PYTHONPATH=src ' : ''}python3 -m pytest ${quote(paths)}`,
  devDependencies: (p) =>
    p.test_setup.framework === 'pytest' || p.test_setup.framework === 'unittest' || (p.test_setup.others ?? []).includes('pytest')
      ? []
      : ['pytest'],
  extension: () => '.py',
  esm: () => false,
};

/** `pkg/core.py` → `pkg.core`; `src/pkg/__init__.py` → `pkg` (the run command adds src/ to the path). */
export function pythonModule(file: string, specifier: string | undefined): string {
  if (specifier && /^[A-Za-z_][\w.]*$/.test(specifier)) return specifier;
  return file
    .replace(/^src\//, '')
    .replace(/\.py$/, '')
    .replace(/\/__init__$/, '')
    .replace(/\//g, '.');
}

/** A body written as text: checked with the rest of the batch by `validate`, like the offline engineer's own. */
function parsePyBody(c: TestCase, text: string, plan: BodyPlan, async: boolean): PyCaseBody | Rejected {
  if (async || awaits(text)) return { reason: 'async Python tests need an event-loop plugin the project may not have' };
  const source = text.replace(/^(?:[ \t]*\n)+|\s+$/g, '');
  if (!source) return { reason: 'the test body is empty' };
  const snippets: PySnippet[] = [...importSnippets(plan), { field: 'the test body', source, mode: 'exec' }];
  return { language: 'python', function: testFunction(c, [{ code: source }]), snippets };
}

function importSnippets(plan: BodyPlan): PySnippet[] {
  return plan.bindings.map((b, i) => ({
    field: `oracle.bindings[${i}] (as an import line)`,
    source: importLine(b, plan.importPath),
    mode: 'exec',
  }));
}

function testFunction(c: TestCase, body: PyStatement[]): PyFunction {
  return {
    name: `test_${slug(c.title)}`,
    caseId: c.id,
    docstring: pyString(c.title.replace(/\s+/g, ' ')),
    body,
    params: fixturesUsed(body),
  };
}

/** pytest's own fixtures a body reads (`tmp_path`, `monkeypatch`): they become the test's parameters. */
function fixturesUsed(body: PyStatement[]): string[] {
  const used = new Set<string>();
  const text = printStatements(body);
  withPythonTree(text, (root) => {
    for (const n of root.descendantsOfType('identifier')) if (n && isVariableName(n) && PYTEST_FIXTURES.includes(n.text)) used.add(n.text);
  });
  return PYTEST_FIXTURES.filter((f) => used.has(f));
}

const PYTEST_FIXTURES = ['tmp_path', 'monkeypatch'];

/** One of the oracle's further checks, asserted after the main one. */
function checkStatements(
  k: NonNullable<Oracle['checks']>[number],
  i: number,
  expr: (field: string, source: string) => string,
): PyStatement[] {
  const call = expr(`oracle.checks[${i}].call`, k.call);
  if (k.kind === 'throws')
    return [
      { head: `with pytest.raises(BaseException) as excinfo_${i}:`, body: [{ code: call }] },
      { code: `assert type(excinfo_${i}.value).__name__ == ${pyString(k.expected.split('.').pop()!)}` },
    ];
  return compare(`(${call})`, k.kind, k.expected).map((code) => ({ code }));
}

function pyBody(c: TestCase, plan: BodyPlan): PyCaseBody | Rejected {
  const o = c.oracle;
  if (!o)
    return { reason: 'no oracle: the documentation states no checkable result for this case, and the offline engineer never guesses one' };
  if (o.language !== 'python') return { reason: 'the case targets JavaScript code' };
  if (c.target.async || [o.setup, o.call].some((code) => code && awaits(code)))
    return { reason: 'async Python examples need an event-loop plugin the project may not have' };
  // The import lines are snippets too: a module path or name that is not Python would break the file.
  const snippets = importSnippets(plan);
  const use = (field: string, source: string, mode: PySnippet['mode']): string => {
    snippets.push({ field, source, mode });
    return source;
  };
  const setupText = (o.setup ?? '').replace(/^(?:[ \t]*\n)+|\s+$/g, '');
  const setup: PyStatement[] = setupText ? [{ code: use('oracle.setup', setupText, 'exec') }] : [];
  const statements = bodyStatements(c, o, (field, source) => use(field, source, 'eval'));
  if ('reason' in statements) return statements;
  const checks = (o.checks ?? []).flatMap((k, i) => checkStatements(k, i, (field, source) => use(field, source, 'eval')));
  return { language: 'python', function: testFunction(c, [...setup, ...statements, ...checks]), snippets };
}

function bodyStatements(c: TestCase, o: Oracle, expr: (field: string, source: string) => string): PyStatement[] | Rejected {
  const code = (text: string): PyStatement => ({ code: text });
  if (o.property === 'order_independent') {
    return (o.sequence ?? []).flatMap((s, i) => [
      code(`r${i} = ${expr(`oracle.sequence[${i}].call`, s.call)}`),
      ...compare(`r${i}`, s.kind, s.expected).map(code),
    ]);
  }
  if (!o.call) return { reason: 'the oracle has no call to evaluate' };
  const call = expr('oracle.call', o.call);
  switch (o.kind) {
    case 'type': {
      const lines = [`actual = ${call}`, 'assert callable(actual)'];
      if (c.target.arity !== undefined && c.target.symbol_kind === 'function')
        lines.push(`assert len(inspect.signature(actual).parameters) == ${c.target.arity}`);
      return lines.map(code);
    }
    case 'exports':
      return [code(`${call}  # the import above is the check: the name exists`)];
    case 'throws':
      return [
        { head: 'with pytest.raises(BaseException) as excinfo:', body: [code(call)] },
        ...(o.error && o.error !== 'Exception' ? [code(`assert type(excinfo.value).__name__ == ${pyString(o.error)}`)] : []),
      ];
    case 'equals':
    case 'deep_equals':
    case 'prints': {
      if (o.expected === undefined) return { reason: 'the oracle has no expected value' };
      const again = o.property === 'deterministic' ? [`again = ${call}`, 'assert again == actual'] : [];
      return [`actual = ${call}`, ...again, ...compare('actual', o.kind, o.expected)].map(code);
    }
    default:
      return { reason: `oracle kind '${o.kind}' has no offline renderer` };
  }
}

/** print() output compares with str(); a shown result compares as a literal when it is one, else as repr text (doctest's rule). */
function compare(actual: string, kind: Oracle['kind'], expected: string): string[] {
  if (kind === 'prints') return [`assert str(${actual}) == ${pyString(expected)}`];
  const lit = parseLiteral(expected, 'python');
  if (lit?.t === 'nan') return [`assert math.isnan(${actual})`];
  if (lit) return [`assert ${actual} == ${toPython(lit)}`];
  return [`assert repr(${actual}) == ${pyString(expected)}`];
}

function renderPyFile(plan: TestFilePlan): string {
  return printModule({
    docstring: pyDocstring(fileHeader(plan), pyString),
    imports: [
      ['import inspect  # noqa: F401', 'import math  # noqa: F401'],
      ['import pytest  # noqa: F401'],
      plan.bindings.map((b) => importLine(b, plan.importPath)),
    ],
    functions: uniqueNames(plan.cases.map((r) => (r.body as PyCaseBody).function)),
  });
}

/** A name the file already has gets `_2`, `_3`…: a second `def` of a name would replace the first. */
function uniqueNames(fns: PyFunction[], taken: Iterable<string> = []): PyFunction[] {
  const used = new Set(taken);
  return fns.map((fn) => {
    let name = fn.name;
    for (let n = 2; used.has(name); n++) name = `${fn.name}_${n}`;
    used.add(name);
    return name === fn.name ? fn : { ...fn, name };
  });
}

function importLine(b: OracleBinding, module: string): string {
  if (b.import === 'named')
    return b.name && b.name !== b.local ? `from ${module} import ${b.name} as ${b.local}` : `from ${module} import ${b.local}`;
  return `import ${module} as ${b.local}`;
}

/** An `await` (or `async for`/`async with`) outside a function of its own, as the grammar sees it (not the word in a string). */
function awaits(code: string): boolean {
  let found = false;
  withPythonTree(code, (root) =>
    walkPython(root, (n) => {
      if (found || n.type === 'function_definition' || n.type === 'lambda') return false;
      if (n.type === 'await' || n.type === 'async') found = true;
      return true;
    }),
  );
  return found;
}

function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
      .slice(0, 60)
      .replace(/_$/, '') || 'case'
  );
}
