// Scripts written for browsers and Node alike wrap their module in a function: an IIFE
// (`(function (globals) { var each = …; if (module.exports) module.exports = each; })(this)`) or a
// UMD wrapper that calls a factory (`(function (root, factory) { … module.exports = factory(); })(this,
// function () { … return api; })`). Their declarations and exports are inside that function, so the
// statements the crawler reads are its body's (the factory's, whose returned value is the export).
import type { EsNode } from '../../util/jsParser';
import { cjsTarget, walk } from '../../util/esTree';

export interface ModuleBody {
  body: EsNode[];
  /** where the body starts (JSDoc is looked for after it) */
  start: number;
  /** a factory's returned value: what `module.exports = factory()` exports */
  returned?: { statement: EsNode; value: EsNode };
}

const FUNCTION = new Set(['FunctionExpression', 'ArrowFunctionExpression']);

/** `(function () {…})()`, `!function () {…}()`, `(function () {…}).call(this)`: the function and its arguments. */
function iifeOf(st: EsNode): { fn: EsNode; args: EsNode[] } | undefined {
  if (st.type !== 'ExpressionStatement') return undefined;
  let e = st.expression as EsNode;
  if (e.type === 'UnaryExpression' && ['!', 'void', '+', '-', '~'].includes(e.operator as string)) e = e.argument as EsNode;
  if (e.type !== 'CallExpression') return undefined;
  let callee = e.callee as EsNode;
  let args = e.arguments as EsNode[];
  if (callee.type === 'MemberExpression' && !callee.computed && (callee.property.name === 'call' || callee.property.name === 'apply')) {
    args = callee.property.name === 'call' ? args.slice(1) : [];
    callee = callee.object as EsNode;
  }
  return FUNCTION.has(callee.type) && callee.body?.type === 'BlockStatement' ? { fn: callee, args } : undefined;
}

/**
 * The factory a UMD wrapper exports the result of (`module.exports = factory()`): a parameter whose
 * argument is a function with a body. A factory that fills the `exports` it is given is left alone:
 * such bundles (rollup's) ship an ES build beside them, which the crawler reads instead (reach.ts).
 */
function factoryOf(iife: { fn: EsNode; args: EsNode[] }): EsNode | undefined {
  const params = (iife.fn.params as EsNode[]).map((p) => (p.type === 'Identifier' ? (p.name as string) : undefined));
  const called = new Set<string>();
  walk(iife.fn.body as EsNode, (n) => {
    const right = n.type === 'AssignmentExpression' ? (n.right as EsNode) : undefined;
    if (right?.type === 'CallExpression' && right.callee.type === 'Identifier' && cjsTarget(n.left as EsNode) === 'module.exports')
      called.add(right.callee.name as string);
  });
  const at = params.findIndex((p) => p !== undefined && called.has(p));
  const arg = at >= 0 ? iife.args[at] : undefined;
  return arg && FUNCTION.has(arg.type) && arg.body?.type === 'BlockStatement' ? arg : undefined;
}

function code(body: EsNode[]): EsNode[] {
  return body.filter(
    (st) => st.type !== 'EmptyStatement' && !(st.type === 'ExpressionStatement' && st.directive !== undefined && st.directive !== null),
  );
}

/** The statements that make a file's module: the program's, or those of the function it is wrapped in. */
export function moduleBody(program: EsNode): ModuleBody {
  let body = program.body as EsNode[];
  let start = program.start as number;
  for (let depth = 0; depth < 3; depth++) {
    const statements = code(body);
    const iife = statements.length === 1 ? iifeOf(statements[0]) : undefined;
    if (!iife) break;
    const factory = factoryOf(iife);
    const fn = factory ?? iife.fn;
    body = fn.body.body as EsNode[];
    start = fn.body.start as number;
    if (factory) {
      const ret = body.find((st) => st.type === 'ReturnStatement' && st.argument);
      return { body, start, ...(ret ? { returned: { statement: ret, value: ret.argument as EsNode } } : {}) };
    }
  }
  return { body, start };
}
