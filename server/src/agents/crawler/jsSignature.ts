// A JavaScript/TypeScript function's signature from its syntax tree: parameters with their types,
// defaults and rest markers (TypeScript annotations first, then the JSDoc's), the return type, async.
import type { SymbolInfo } from '../../contracts/types';
import type { EsNode } from '../../util/jsParser';

export type DocParams = Map<string, { type?: string; optional?: boolean; default?: string }>;

export function signatureOf(text: string, fn: EsNode, name: string, docParams: DocParams, docReturns?: string): Partial<SymbolInfo> {
  const slice = (start: number, end: number) => text.slice(start, end);
  const params = (fn.params as EsNode[]).map((raw) => {
    const p = raw.type === 'TSParameterProperty' ? (raw.parameter as EsNode) : raw;
    const rest = p.type === 'RestElement';
    const binding: EsNode = p.type === 'AssignmentPattern' ? p.left : rest ? p.argument : p;
    const pname =
      binding.type === 'Identifier'
        ? (binding.name as string)
        : slice(binding.start, binding.typeAnnotation?.start ?? binding.end)
            .trim()
            .replace(/\?$/, '');
    const d = docParams.get(pname);
    const out: NonNullable<SymbolInfo['params']>[number] = { name: pname };
    const type = typeText(text, binding.typeAnnotation ?? p.typeAnnotation) ?? d?.type;
    if (type) out.type = type;
    if (binding.optional || p.type === 'AssignmentPattern' || d?.optional) out.optional = true;
    const dflt = p.type === 'AssignmentPattern' ? slice(p.right.start, p.right.end) : d?.default;
    if (dflt) out.default = dflt;
    if (rest) out.rest = true;
    return out;
  });
  const returns = typeText(text, fn.returnType) ?? docReturns;
  const isAsync = fn.async === true;
  const paramText = params
    .map(
      (p) =>
        `${p.rest ? '...' : ''}${p.name}${p.optional && !p.default ? '?' : ''}${p.type ? `: ${p.type}` : ''}${p.default ? ` = ${p.default}` : ''}`,
    )
    .join(', ');
  const sig: Partial<SymbolInfo> = {
    signature: `${isAsync ? 'async ' : ''}${name}(${paramText})${returns ? `: ${returns}` : ''}`.replace(/\s+/g, ' '),
    params,
  };
  if (returns) sig.returns = returns;
  if (isAsync) sig.async = true;
  return sig;
}

/** `: T` annotations are TSTypeAnnotation wrappers; the text is the inner type's. */
function typeText(text: string, ann: EsNode | null | undefined): string | undefined {
  if (!ann) return undefined;
  const t = ann.type === 'TSTypeAnnotation' ? (ann.typeAnnotation as EsNode) : ann;
  return text.slice(t.start, t.end);
}
