// Is this Python? Asked of CPython itself (assets/pycheck.py, one `python3` process for a whole batch,
// parse and compile only, nothing runs): a snippet CPython rejects would stop pytest from collecting
// every test in its file. Without python3 or python on PATH, the tree-sitter grammar answers
// instead, and its reasons say so.
import { spawnSync } from 'node:child_process';
import { childEnv, inTempHome } from '../util/childEnv';
import { asset } from './assets';
import { pythonParser } from './pyGrammar';
import { firstError, isExpressionStatement, lineColumn, statementsOf, withPythonTree } from './pyTree';

export interface PySnippet {
  /** where it came from, for the reason: `oracle.call`, `oracle.setup`, … */
  field: string;
  source: string;
  /** `eval`: one expression; `exec`: statements */
  mode: 'eval' | 'exec';
}

export interface PyCheckItem {
  key: string;
  snippets: PySnippet[];
  /** the code the snippets end up in (a whole test function), compiled as CPython would import it */
  unit?: string;
}

const INTERPRETERS = ['python3', 'python'];
/** the interpreter that answered last time: the next batch goes to it first */
let known: string | undefined;

/**
 * The reason for each item that is not valid Python, by key.
 * @param interpreters where to look for CPython (tests pass [] to exercise the grammar fallback)
 */
export function checkPython(items: PyCheckItem[], interpreters = INTERPRETERS): Map<string, string> {
  if (!items.length) return new Map();
  pythonParser(); // the fallback needs the grammar: a caller that did not load it fails here, python3 or not
  const order = known && interpreters.includes(known) ? [known, ...interpreters.filter((p) => p !== known)] : interpreters;
  return withCPython(items, order) ?? withGrammar(items);
}

function withCPython(items: PyCheckItem[], interpreters: string[]): Map<string, string> | undefined {
  const input = JSON.stringify(items);
  for (const python of interpreters) {
    // -I and a neutral cwd: this runs before any approval, so nothing of the workspace (a json.py
    // beside AMTP's cwd, PYTHON* variables) may be imported into it.
    const r = inTempHome((home) =>
      spawnSync(python, ['-I', '-c', asset('pycheck.py')], {
        input,
        cwd: home,
        env: childEnv({ home }),
        encoding: 'utf8',
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
        windowsHide: true,
      }),
    );
    if (r.error || r.status !== 0) continue;
    try {
      const out = JSON.parse(r.stdout) as Record<string, string>;
      known = python;
      return new Map(Object.entries(out));
    } catch {
      continue;
    }
  }
  return undefined;
}

const GRAMMAR = '(python3 was not found: checked with the tree-sitter Python grammar)';

function withGrammar(items: PyCheckItem[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of items) {
    const reason = item.snippets.map(grammarReason).find((r) => r !== undefined) ?? unitReason(item.unit);
    if (reason) out.set(item.key, `${reason} ${GRAMMAR}`);
  }
  return out;
}

function grammarReason(s: PySnippet): string | undefined {
  return withPythonTree(s.source, (root) => {
    const error = firstError(root);
    if (error !== undefined) return `${s.field} does not parse: invalid syntax at ${lineColumn(s.source, error)}`;
    if (s.mode === 'exec') return undefined;
    const statements = statementsOf(root);
    return statements.length === 1 && isExpressionStatement(statements[0]) ? undefined : `${s.field} is not one expression`;
  });
}

function unitReason(unit: string | undefined): string | undefined {
  if (unit === undefined) return undefined;
  const error = withPythonTree(unit, firstError);
  return error === undefined ? undefined : `the test does not parse: invalid syntax at ${lineColumn(unit, error)} of the test`;
}
