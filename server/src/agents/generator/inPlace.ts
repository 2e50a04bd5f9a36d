// A function documented to change its argument in place and return nothing (`@returns {void}`,
// "reverses the array in place") whose example shows a value (`reverse(list) //=> [3, 2, 1]`) shows
// the argument after the call, not what the call returns: the example's oracle checks the argument.
import type { SymbolInfo } from '../../contracts/types';
import { jsParser, type EsNode } from '../../util/jsParser';
import type { DocExample } from './examples';

const IN_PLACE =
  /\bin[- ]place\b|\bmutat(?:es|ing)\b|\bmodif(?:y|ies|ying) (?:the |its )?(?:given |original |input |passed )?(?:array|object|list|argument|input)\b/i;
const RETURNS_NOTHING = /\breturns? (?:nothing|no value|void|undefined)\b|@returns?\s*\{\s*(?:void|undefined)\s*\}/i;

/** The example with its call moved into the setup and the argument it changes as the checked expression, when the docs say so. */
export function inPlaceExample(ex: DocExample, symbol: SymbolInfo | undefined): DocExample {
  if (ex.outcome !== 'value' || !symbol?.doc || !IN_PLACE.test(symbol.doc)) return ex;
  const voidish = symbol.returns ? /^\s*(?:void|undefined)\s*$/.test(symbol.returns) : RETURNS_NOTHING.test(symbol.doc);
  if (!voidish && symbol.returns) return ex;
  const changed = firstArgument(ex.call);
  if (!changed) return ex;
  return { ...ex, setup: [...ex.setup, ex.call], call: changed, changedBy: ex.call };
}

/** `f(list, 1)` → `list` when the first argument is a plain name the example bound. */
function firstArgument(call: string): string | undefined {
  const body = jsParser().parse('call.ts', call, { preserveParens: true }).program.body as EsNode[];
  const e = body.length === 1 && body[0].type === 'ExpressionStatement' ? body[0].expression : undefined;
  if (e?.type !== 'CallExpression' || !e.arguments.length) return undefined;
  const a: EsNode = e.arguments[0];
  return a.type === 'Identifier' ? a.name : undefined;
}
