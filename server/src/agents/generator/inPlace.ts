// A function documented to change its argument in place and return nothing (`@returns {void}`,
// "reverses the array in place") whose example shows a value (`reverse(list) //=> [3, 2, 1]`) shows
// the argument after the call, not what the call returns: the example's oracle checks the argument.
import type * as TS from 'typescript';
import type { SymbolInfo } from '../../contracts/types';
import { typescript } from '../../util/typescript';
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
  const ts = typescript();
  const sf = ts.createSourceFile('call.ts', call, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const [st] = sf.statements;
  if (sf.statements.length !== 1 || !st || !ts.isExpressionStatement(st)) return undefined;
  const e: TS.Expression = st.expression;
  if (!ts.isCallExpression(e) || !e.arguments.length) return undefined;
  const a = e.arguments[0];
  return ts.isIdentifier(a) ? a.text : undefined;
}
