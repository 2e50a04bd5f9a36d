// A docstring's doctest blocks run in one namespace: `>>> import datetime as dt` and `>>> delta = …`
// in the first block still hold for `>>> precisedelta(delta, format="%0.4f")` three paragraphs down
// (humanize's docstrings). Each block becomes an example of its own (pyDocstring.ts), so the earlier
// blocks' statements a block needs are carried in front of it: only those that define a name the
// block uses before defining it, with the statements those depend on, in their order. A statement
// that only acts (`>>> activate("fr")`) is not carried: which later blocks rely on it cannot be told.
import { isVariableName, walkPython, withPythonTree, type PyNode } from '../../frameworks/pyTree';

interface Statement {
  /** the statement's source, prompts removed */
  code: string;
  /** the doctest lines as written (`>>> `, `... `) */
  lines: string[];
  /** it has expected output: an example, never carried */
  output: boolean;
}

/** The blocks, each with the earlier blocks' statements it needs put first. */
export function withCarriedSetup(blocks: string[]): string[] {
  const pool: Statement[] = [];
  return blocks.map((block) => {
    const own = statementsOf(block);
    const needed = freeNames(own.map((s) => s.code));
    const carried = slice(pool, needed);
    pool.push(...own.filter((s) => !s.output));
    return carried.length ? [...carried.flatMap((s) => s.lines), block].join('\n') : block;
  });
}

function statementsOf(block: string): Statement[] {
  const out: Statement[] = [];
  for (const line of block.split('\n')) {
    const last = out[out.length - 1];
    if (/^>>>(?: |$)/.test(line)) out.push({ code: line.replace(/^>>> ?/, ''), lines: [line], output: false });
    else if (last && !last.output && /^\.\.\.(?: |$)/.test(line)) {
      last.code += `\n${line.replace(/^\.\.\. ?/, '')}`;
      last.lines.push(line);
    } else if (last && line.trim()) last.output = true;
  }
  return out;
}

/** The pool's statements that define `needed` names, with their own dependencies, in pool order. */
function slice(pool: Statement[], needed: Set<string>): Statement[] {
  const taken: Statement[] = [];
  for (let i = pool.length - 1; i >= 0 && needed.size; i--) {
    const { defs, uses } = namesOf(pool[i].code);
    if (![...defs].some((d) => needed.has(d))) continue;
    taken.unshift(pool[i]);
    for (const d of defs) needed.delete(d);
    for (const u of uses) needed.add(u);
  }
  return taken;
}

/** Names the statements use before they define them, in order. */
function freeNames(codes: string[]): Set<string> {
  const defined = new Set<string>();
  const free = new Set<string>();
  for (const code of codes) {
    const { defs, uses } = namesOf(code);
    for (const u of uses) if (!defined.has(u)) free.add(u);
    for (const d of defs) defined.add(d);
  }
  return free;
}

/** The names one statement binds and the names it reads, from its syntax tree. */
export function namesOf(code: string): { defs: Set<string>; uses: Set<string> } {
  return withPythonTree(code, (root) => {
    const defs = new Set<string>();
    const defNodes = new Set<number>();
    for (const stmt of root.namedChildren) {
      if (!stmt) continue;
      if (IMPORT.test(stmt.type)) for (const n of importedNames(stmt.text)) defs.add(n);
      const assigned = assignedNodes(stmt);
      for (const target of assigned.nodes) {
        defs.add(target.text);
        if (!assigned.update) defNodes.add(target.startIndex);
      }
    }
    const uses = new Set<string>();
    walkPython(root, (n) => {
      if (IMPORT.test(n.type)) return false;
      if (!isVariableName(n) || defNodes.has(n.startIndex)) return true;
      // `f(format="%0.4f")`: a keyword, not a read of `format`.
      const p = n.parent;
      if (p?.type === 'keyword_argument' && p.childForFieldName('name')?.id === n.id) return true;
      uses.add(n.text);
      return true;
    });
    return { defs, uses };
  });
}

const IMPORT = /^(?:future_)?import(?:_from)?_statement$/;

/** `import a.b`, `import a as b`, `from m import x, y as z` → a, b, x, z. */
function importedNames(stmt: string): string[] {
  const m = /^\s*from\s+\S+\s+import\s+([\s\S]+)$|^\s*import\s+([\s\S]+)$/.exec(stmt);
  if (!m) return [];
  return (m[1] ?? m[2])
    .replace(/[()\\]/g, ' ')
    .split(',')
    .map((part) =>
      part
        .trim()
        .split(/\s+as\s+/)
        .pop()!
        .split('.')[0]
        .trim(),
    )
    .filter((n) => /^[A-Za-z_]\w*$/.test(n));
}

/** The names an assignment (`a = …`, `a = b = …`, `a, b = …`, `a += …`), `def` or `class` binds; `update` for `+=`. */
function assignedNodes(stmt: PyNode): { nodes: PyNode[]; update: boolean } {
  if (stmt.type === 'function_definition' || stmt.type === 'class_definition') {
    const name = stmt.childForFieldName('name');
    return { nodes: name ? [name] : [], update: false };
  }
  let e = stmt.type === 'expression_statement' && stmt.childCount === 1 ? stmt.firstChild : null;
  const update = e?.type === 'augmented_assignment';
  const nodes: PyNode[] = [];
  while (e?.type === 'assignment' || e?.type === 'augmented_assignment') {
    const left = e.childForFieldName('left');
    const parts = left && /^(?:pattern_list|tuple_pattern|list_pattern)$/.test(left.type) ? left.namedChildren : [left];
    nodes.push(...parts.filter((p): p is PyNode => p?.type === 'identifier'));
    e = e.childForFieldName('right');
  }
  return { nodes, update };
}
