// Every test inside a Python file, from its syntax tree (tree-sitter, which also recovers from
// errors so a file that does not load still shows its tests): `def test…` functions at module level
// and in classes (any nesting, unittest or pytest style), with their decorators (a parametrize
// included) and the comments right above them, hand-written ones included. A test's case id is the
// `# tc_…` comment on its `def` line or right above it (files written before ids left the names: in
// its name). A `def test…` inside a function is not collected.
import { statementsOf, withPythonTree, type PyNode } from './pyTree';
import { CASE_ID, lineStartOf, type FoundTest } from './jsTestFind';

/** The class a test sits in, as offsets (the tree is gone once the file is read). */
export interface PyClassBody {
  /** where each statement of the class body starts, comments aside */
  statements: number[];
  /** the class's first character, its decorators included */
  start: number;
  /** the end of its last statement */
  end: number;
}

export interface PyFoundTest extends FoundTest {
  /** the class body it sits in, if any: one object per class, shared by its tests */
  owner?: PyClassBody;
}

export interface ParsedPy {
  tests: PyFoundTest[];
  /** offsets where a comment starts */
  comments: Set<number>;
}

/** A `def test…` as the tree showed it, in offsets. */
interface TestDef {
  name: string;
  nameStart: number;
  nameEnd: number;
  /** its decorators' start, else the `def`'s */
  start: number;
  def: number;
  end: number;
  owner?: PyClassBody;
  suites: string[];
}

export function parsePyTests(content: string): ParsedPy {
  const comments = new Set<number>();
  const whole: TestDef[] = [];
  if (!readDefs(content, comments, whole).hasError) return { tests: whole.map((d) => asTest(content, comments, d)), comments };
  // tree-sitter's recovery can fold what follows an error into it (an unclosed bracket swallows the
  // next `def`): a broken file is read again one top-level definition at a time, each at its offsets;
  // a part that alone reads as nothing keeps what the whole file showed there, cut at the part's end.
  const defs: TestDef[] = [];
  const starts = definitionStarts(content);
  starts.forEach((at, i) => {
    const end = at + content.slice(at, starts[i + 1] ?? content.length).trimEnd().length;
    const own: TestDef[] = [];
    readDefs(content.slice(0, at).replace(/[^\n]/g, ' ') + content.slice(at, end), comments, own);
    const fallback = whole.filter((d) => d.start >= at && d.start < end).map((d) => ({ ...d, end: Math.min(d.end, end) }));
    defs.push(...(own.length ? own : fallback));
  });
  return { tests: defs.map((d) => asTest(content, comments, d)), comments };
}

/** Collects the comments and the `def test…` of `text` (the file, or the file with all but a part blanked). */
function readDefs(text: string, comments: Set<number>, defs: TestDef[]): { hasError: boolean } {
  return withPythonTree(text, (root) => {
    for (const c of root.descendantsOfType('comment')) comments.add(c!.startIndex);
    const walk = (body: PyNode, owner: PyClassBody | undefined, suites: string[]) => {
      for (const st of statementsOf(body)) {
        const inner = st.type === 'decorated_definition' ? st.childForFieldName('definition') : st;
        const name = inner?.childForFieldName('name');
        const classBody = inner?.childForFieldName('body');
        if (inner?.type === 'class_definition' && classBody) {
          const cls = { statements: statementsOf(classBody).map((b) => b.startIndex), start: st.startIndex, end: pyStatementEnd(inner) };
          walk(classBody, cls, [...suites, name ? name.text : '']);
        } else if (inner?.type === 'function_definition' && name && /^test/.test(name.text)) {
          const at = { name: name.text, nameStart: name.startIndex, nameEnd: name.endIndex };
          defs.push({ ...at, start: st.startIndex, def: inner.startIndex, end: pyStatementEnd(inner), owner, suites });
        }
      }
    };
    walk(root, undefined, []);
    return { hasError: root.hasError };
  });
}

/** Where each top-level `def`, `class` or decorated one starts (its first decorator), from line starts. */
function definitionStarts(content: string): number[] {
  const starts = [0];
  let decorated = false;
  for (let at = 0; at < content.length; at = content.indexOf('\n', at) + 1 || content.length) {
    const line = content.slice(at, content.indexOf('\n', at) < 0 ? content.length : content.indexOf('\n', at));
    if (/^(?:[ \t]|#|$)/.test(line)) continue; // indented, a comment or blank: inside what came before
    const definition = /^(?:async[ \t]+def|def|class)\b/.test(line);
    if ((definition || line.startsWith('@')) && !decorated && at > 0) starts.push(at);
    decorated = line.startsWith('@') || (decorated && !definition && /^[)\]}]/.test(line));
  }
  return starts;
}

function asTest(content: string, comments: Set<number>, d: TestDef): PyFoundTest {
  const lineStart = lineStartOf(content, d.start);
  const indent = content.slice(lineStart, d.start);
  const fullStart = pyCommentsAbove(content, comments, lineStart, indent);
  const caseId = CASE_ID.exec(d.name)?.[0] ?? idInComments(content, comments, d.def, fullStart, d.start);
  return {
    ...(caseId ? { caseId } : {}),
    name: d.name,
    suites: d.suites,
    nameStart: d.nameStart,
    nameEnd: d.nameEnd,
    fullStart,
    start: d.start,
    end: d.end,
    callee: d.name,
    calleeStart: d.nameStart,
    calleeEnd: d.nameEnd,
    indent: /^[ \t]*$/.test(indent) ? indent : '',
    owner: d.owner,
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

/** Where a function or class ends: its last token that is not a comment (a comment after it may belong to what follows). */
function pyStatementEnd(node: PyNode): number {
  const last = node.children.filter((c): c is PyNode => !!c && c.type !== 'comment').pop();
  return last ? pyStatementEnd(last) : node.endIndex;
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
