// Python's name scopes, read from the syntax tree: which names a function binds (a name bound
// anywhere in a function is local to all of it, CPython decides so when it compiles), and whether a
// name is read anywhere it is not such a local. Code that moves a statement between functions
// (pytest/sharedSetup.ts) asks these before it changes what a name refers to.
import { isVariableName, walkPython, type PyNode } from './pyTree';

const SCOPES = new Set(['function_definition', 'lambda']);
const TARGET_GROUPS = new Set([
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'list_splat_pattern',
  'tuple',
  'list',
  'list_splat',
  'parenthesized_expression',
  'expression_list',
  'as_pattern_target',
]);

/** The names an assignment target binds: `a`, `a, (b, *c)`; none for `a.b` or `a[0]`, which read `a`. */
function targetNames(n: PyNode): string[] {
  if (n.type === 'identifier') return [n.text];
  if (!TARGET_GROUPS.has(n.type)) return [];
  return n.namedChildren.flatMap((c) => (c ? targetNames(c) : []));
}

/** The parameters' names of a function or lambda (`self`, `x=1`, `*args`, `k: int`). */
export function parameterNames(fn: PyNode): string[] {
  const name = (p: PyNode): string | undefined => {
    if (p.type === 'identifier') return p.text;
    const inner = p.childForFieldName('name') ?? p.namedChildren.find((c) => c?.type === 'identifier' || c?.type.endsWith('splat_pattern'));
    return inner ? name(inner) : undefined;
  };
  return (fn.childForFieldName('parameters')?.namedChildren ?? []).flatMap((p) => (p ? (name(p) ?? []) : []));
}

/**
 * The names `fn`'s body binds: assignments, loop and `with … as` targets, `except … as`, walrus,
 * imports, nested `def` and `class` names, `del`. `wide` adds the names a comprehension binds in its
 * own scope and those of `global`/`nonlocal`: every name that might be bound there, for a caller
 * that must not miss one; without it, only the function's own locals.
 */
export function boundNames(fn: PyNode, wide: boolean): Set<string> {
  const out = new Set<string>();
  const add = (names: string[]) => names.forEach((n) => out.add(n));
  const body = fn.childForFieldName('body');
  if (!body) return out;
  const visit = (n: PyNode): void => {
    const field = (f: string) => n.childForFieldName(f);
    switch (n.type) {
      case 'function_definition':
      case 'class_definition':
        if (field('name')) out.add(field('name')!.text);
        return; // a scope of its own
      case 'lambda':
        return;
      case 'assignment':
      case 'augmented_assignment':
      case 'for_statement':
        add(targetNames(field('left')!));
        break;
      case 'for_in_clause':
        if (wide) add(targetNames(field('left')!));
        break;
      case 'as_pattern':
        if (field('alias')) add(targetNames(field('alias')!));
        break;
      case 'named_expression':
        add([field('name')!.text]);
        break;
      case 'delete_statement':
        add(n.namedChildren.flatMap((c) => (c ? targetNames(c) : [])));
        break;
      case 'import_statement':
      case 'import_from_statement':
        add(importedNames(n));
        break;
      case 'global_statement':
      case 'nonlocal_statement':
        if (wide) add(n.namedChildren.flatMap((c) => (c ? [c.text] : [])));
        break;
    }
    for (const c of n.namedChildren) if (c) visit(c);
  };
  for (const c of body.namedChildren) if (c) visit(c);
  return out;
}

/** `import a.b` binds `a`, `import a as b` and `from m import a as b` bind `b`, `from m import *` binds "*". */
function importedNames(n: PyNode): string[] {
  const module = n.childForFieldName('module_name');
  return n.namedChildren.flatMap((c) => {
    if (!c || c.id === module?.id) return [];
    if (c.type === 'wildcard_import') return ['*'];
    if (c.type === 'aliased_import') return [c.childForFieldName('alias')!.text];
    if (c.type === 'dotted_name') return [c.namedChildren[0]!.text];
    return [];
  });
}

/**
 * Whether `name` is read or bound anywhere in `root` (a module) other than as a local of the
 * function around it: at module level (a module-level function's parameter included), in a class
 * body outside functions, or in a function that does not bind it itself nor sits in one that does.
 * Functions `skip` accepts are not looked into. A keyword argument's name (`f(name=1)`) is not the
 * variable. Comprehensions count as their function, so a name they alone bind counts as read from
 * outside.
 */
export function usedOutsideLocals(root: PyNode, name: string, skip: (fn: PyNode) => boolean): boolean {
  const visit = (n: PyNode, local: boolean): boolean => {
    if (SCOPES.has(n.type)) {
      if (skip(n)) return false;
      const inner = local || parameterNames(n).includes(name) || boundNames(n, false).has(name);
      // The function's name, return annotation and parameter defaults belong to the scope around it.
      return n.namedChildren.some((c) => !!c && (c.id === n.childForFieldName('body')?.id ? visit(c, inner) : visit(c, local)));
    }
    // `from name import x` and `import x as name`: only what an import binds is a name here.
    if (n.type === 'import_statement' || n.type === 'import_from_statement')
      return !local && importedNames(n).some((b) => b === name || b === '*');
    if (n.type === 'identifier') return n.text === name && !local && isVariableName(n) && !isKeywordName(n);
    return n.namedChildren.some((c) => !!c && visit(c, local));
  };
  return visit(root, false);
}

/** The names an expression reads (not `obj.attr` nor a keyword argument's name), lambdas' and comprehensions' own included. */
export function namesRead(expr: PyNode): string[] {
  const out: string[] = [];
  walkPython(expr, (n) => {
    if (n.type === 'identifier' && isVariableName(n) && !isKeywordName(n)) out.push(n.text);
  });
  return out;
}

function isKeywordName(n: PyNode): boolean {
  return n.parent?.type === 'keyword_argument' && n.parent.childForFieldName('name')?.id === n.id;
}
