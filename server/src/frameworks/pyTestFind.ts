// Every test inside a Python file, from its syntax tree (@lezer/python, which also recovers from
// errors so a file that does not load still shows its tests): `def test…` functions at module level
// and in classes (any nesting, unittest or pytest style), with their decorators (a parametrize
// included) and the comments right above them, hand-written ones included. A test's case id is the
// `# tc_…` comment on its `def` line or right above it (files written before ids left the names: in
// its name). A `def test…` inside a function is not collected.
import { childrenOf, parsePython, type PyNode, type PyTree } from './pyTree';
import { CASE_ID, lineStartOf, type FoundTest } from './jsTestFind';

export interface PyFoundTest extends FoundTest {
  /** the class body it sits in, if any */
  owner?: PyNode;
}

export interface ParsedPy {
  tree: PyTree;
  tests: PyFoundTest[];
  /** offsets where a comment starts */
  comments: Set<number>;
}

export function parsePyTests(content: string): ParsedPy {
  const tree = parsePython(content);
  const comments = new Set<number>();
  tree.iterate({ enter: (n) => void (n.name === 'Comment' && comments.add(n.from)) });
  const tests: PyFoundTest[] = [];
  const walk = (body: PyNode, owner: PyNode | undefined, suites: string[]) => {
    for (const st of childrenOf(body)) {
      const inner =
        st.name === 'DecoratedStatement' ? childrenOf(st).find((c) => c.name === 'FunctionDefinition' || c.name === 'ClassDefinition') : st;
      if (inner?.name === 'ClassDefinition') {
        const classBody = inner.getChild('Body');
        const name = inner.getChild('VariableName');
        if (classBody) walk(classBody, classBody, [...suites, name ? content.slice(name.from, name.to) : '']);
      } else if (inner?.name === 'FunctionDefinition') {
        const test = asTest(content, comments, st, inner, owner, suites);
        if (test) tests.push(test);
      }
    }
  };
  walk(tree.topNode, undefined, []);
  return { tree, tests, comments };
}

function asTest(
  content: string,
  comments: Set<number>,
  outer: PyNode,
  def: PyNode,
  owner: PyNode | undefined,
  suites: string[],
): PyFoundTest | undefined {
  const nameNode = def.getChild('VariableName');
  const name = nameNode ? content.slice(nameNode.from, nameNode.to) : '';
  if (!/^test/.test(name) || !nameNode) return undefined;
  const lineStart = lineStartOf(content, outer.from);
  const indent = content.slice(lineStart, outer.from);
  const fullStart = pyCommentsAbove(content, comments, lineStart, indent);
  const caseId = CASE_ID.exec(name)?.[0] ?? idInComments(content, comments, def.from, fullStart, outer.from);
  return {
    ...(caseId ? { caseId } : {}),
    name,
    suites,
    nameStart: nameNode.from,
    nameEnd: nameNode.to,
    fullStart,
    start: outer.from,
    end: pyStatementEnd(def),
    callee: name,
    calleeStart: nameNode.from,
    calleeEnd: nameNode.to,
    indent: /^[ \t]*$/.test(indent) ? indent : '',
    owner,
  };
}

/** A case id in the comment on the `def` line (`def test_x():  # tc_…`), or in a comment right above the test. */
function idInComments(content: string, comments: Set<number>, def: number, fullStart: number, start: number): string | undefined {
  const nl = content.indexOf('\n', def);
  const lineEnd = nl < 0 ? content.length : nl;
  for (const at of comments) {
    if (at > def && at < lineEnd) return CASE_ID.exec(content.slice(at, lineEnd))?.[0];
  }
  return CASE_ID.exec(content.slice(fullStart, start))?.[0];
}

/** Where a function ends: its last statement (a comment after it may belong to what follows). */
export function pyStatementEnd(node: PyNode): number {
  const body = node.getChild('Body');
  const last =
    body &&
    childrenOf(body)
      .filter((c) => c.name !== 'Comment' && c.name !== ':')
      .pop();
  return last ? pyStatementEnd(last) : node.to;
}

/** Comment lines right above (same indentation, no blank line between) belong to the test. */
export function pyCommentsAbove(content: string, comments: Set<number>, lineStart: number, indent: string): number {
  let start = lineStart;
  while (start > 0) {
    const prev = lineStartOf(content, start - 1);
    const line = content.slice(prev, start - 1);
    if (!line.startsWith(indent) || !comments.has(prev + indent.length) || /^[ \t]/.test(line.slice(indent.length))) break;
    start = prev;
  }
  return start;
}
