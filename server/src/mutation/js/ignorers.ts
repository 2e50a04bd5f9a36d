// Equivalent-mutant noise, filtered the way Meta's ACH does before any test runs (docs/mutation.md):
// mutants in logging calls, in code that cannot run, and in the text of error messages change
// nothing a caller can assert on, so they would only ever "survive". Each is a StrykerJS ignorer: the
// instrumenter calls it for every node on its way down, and a node it names is left unmutated with
// its whole subtree; the mutants it held are reported as ignored, with the reason.

/** The part of a babel node and NodePath the filters read (the instrumenter hands real ones). */
interface BabelNode {
  type: string;
  [field: string]: unknown;
}

interface NodePath {
  node: BabelNode;
  parentPath: NodePath | null;
  key: string | number | null;
}

export interface Ignorer {
  shouldIgnore(path: NodePath): string | undefined;
}

/** The reasons, as the run record and the summary count them. */
const FILTER_REASONS = {
  logging: 'in a logging call',
  dead: 'in code that cannot run',
  errorMessage: 'in the text of an error message',
} as const;

const LOGGER_OBJECTS = new Set(['logger', 'log', 'winston', 'pino', 'bunyan', 'signale', 'consola']);
const LOGGER_METHODS = new Set(['log', 'debug', 'info', 'warn', 'error', 'trace', 'fatal', 'verbose', 'silly']);
/** Functions that only log: `debug(…)` of the debug package and its common names. */
const LOGGER_FUNCTIONS = new Set(['debug', 'log', 'trace', 'logDebug']);
const JUMPS = new Set(['ReturnStatement', 'ThrowStatement', 'BreakStatement', 'ContinueStatement']);

/**
 * The branch a constant condition never takes is noted when its `if`/`while` is entered: by the time the
 * branch is, the instrumenter has already replaced the condition with its mutant switches.
 */
const neverTaken = new WeakSet<object>();

export const ACH_IGNORERS: Ignorer[] = [
  { shouldIgnore: (p) => (isLoggingCall(p.node) ? FILTER_REASONS.logging : undefined) },
  {
    shouldIgnore: (p) => {
      noteDeadBranch(p.node);
      return neverTaken.has(p.node) || isDeadCode(p) ? FILTER_REASONS.dead : undefined;
    },
  },
  { shouldIgnore: (p) => (isErrorMessageText(p) ? FILTER_REASONS.errorMessage : undefined) },
];

/** `if (false) A else B`: A never runs (B does); `if (true) A else B`: B never runs; `while (0) A`: A never runs. */
function noteDeadBranch(n: BabelNode): void {
  const test = node(n.test);
  if (n.type === 'IfStatement') {
    const dead = isFalsyLiteral(test) ? n.consequent : isTruthyLiteral(test) ? n.alternate : undefined;
    if (dead && typeof dead === 'object') neverTaken.add(dead);
  } else if (n.type === 'WhileStatement' && isFalsyLiteral(test) && n.body && typeof n.body === 'object') neverTaken.add(n.body);
}

const node = (v: unknown): BabelNode | undefined =>
  v && typeof v === 'object' && typeof (v as BabelNode).type === 'string' ? (v as BabelNode) : undefined;

/** `console.log(…)`, `logger.debug(…)`, `this.log.warn(…)`, `debug(…)` (the debug package). */
function isLoggingCall(n: BabelNode): boolean {
  if (n.type !== 'CallExpression' && n.type !== 'OptionalCallExpression') return false;
  const callee = node(n.callee);
  if (!callee) return false;
  if (callee.type === 'Identifier') return LOGGER_FUNCTIONS.has(callee.name as string);
  if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') return false;
  const object = lastName(node(callee.object));
  const method = lastName(node(callee.property));
  if (object === 'console') return true;
  return !!object && LOGGER_OBJECTS.has(object) && !!method && LOGGER_METHODS.has(method);
}

/** The last name of `a.b.c` (`c`), `this.logger` (`logger`), or an identifier. */
function lastName(e: BabelNode | undefined): string | undefined {
  if (!e) return undefined;
  if (e.type === 'Identifier') return e.name as string;
  if (e.type === 'MemberExpression' || e.type === 'OptionalMemberExpression') return lastName(node(e.property));
  return undefined;
}

/** Statements after a `return`, `throw`, `break` or `continue` in the same block (constant conditions: noteDeadBranch). */
function isDeadCode(p: NodePath): boolean {
  const parent = p.parentPath?.node;
  if (!parent) return false;
  if ((parent.type === 'BlockStatement' || parent.type === 'Program') && Array.isArray(parent.body)) {
    // A function declaration is hoisted: callable from before the jump.
    if (p.node.type === 'FunctionDeclaration') return false;
    const body = parent.body as BabelNode[];
    const at = body.indexOf(p.node);
    return at > 0 && body.slice(0, at).some((s) => JUMPS.has(s.type));
  }
  return false;
}

function isFalsyLiteral(e: BabelNode | undefined): boolean {
  if (!e) return false;
  return (e.type === 'BooleanLiteral' && e.value === false) || (e.type === 'NumericLiteral' && e.value === 0) || e.type === 'NullLiteral';
}

function isTruthyLiteral(e: BabelNode | undefined): boolean {
  if (!e) return false;
  return (e.type === 'BooleanLiteral' && e.value === true) || (e.type === 'NumericLiteral' && e.value !== 0);
}

/**
 * A string or template that is (part of) the message of an error: an argument of `new XError(…)` or
 * `XError(…)`, or the value thrown (`throw 'bad'`), directly or through `+` concatenations.
 */
function isErrorMessageText(p: NodePath): boolean {
  if (p.node.type !== 'StringLiteral' && p.node.type !== 'TemplateLiteral') return false;
  let at: NodePath = p;
  while (at.parentPath?.node.type === 'BinaryExpression' && at.parentPath.node.operator === '+') at = at.parentPath;
  const parent = at.parentPath?.node;
  if (!parent) return false;
  if (parent.type === 'ThrowStatement') return true;
  if ((parent.type === 'NewExpression' || parent.type === 'CallExpression') && at.key !== 'callee') return isErrorName(node(parent.callee));
  return false;
}

function isErrorName(callee: BabelNode | undefined): boolean {
  const name = lastName(callee);
  return !!name && /(?:^|[a-z])Error$|Exception$/.test(name);
}
