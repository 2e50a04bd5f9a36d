// Python signatures as input seeds: the crawler's Python symbols carry signatures such as
// `parse(text: str, strict: Optional[bool] = None) -> dict` (server/src/agents/crawler/pySymbols.ts).
// The hints are reduced to the kinds ../inputs.ts knows (Optional[X] and `X | None` are X, List[int]
// a list, Mapping a dict), and only the required positional parameters are passed: the others keep
// their defaults, and keyword-only ones cannot be passed by position.
import { candidateInputs, kindOfType, type InputSeed, type ParamKind } from '../inputs';

interface PyParam {
  name: string;
  hint?: string;
  hasDefault: boolean;
  /** `*args`, `**kwargs`, or after a bare `*` */
  keywordOrRest: boolean;
}

/** Splits at top-level commas (not those inside brackets, parentheses or strings). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') cur += c + (text[++i] ?? '');
      else {
        if (c === quote) quote = '';
        cur += c;
      }
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

/** The parameters of `[async] [def] name(params) [-> ret]`, or undefined when it has no parameter list. */
function pyParams(signature: string): PyParam[] | undefined {
  const open = signature.indexOf('(');
  if (open < 0) return undefined;
  let depth = 0;
  let close = -1;
  for (let i = open; i < signature.length && close < 0; i++) {
    if (signature[i] === '(') depth++;
    else if (signature[i] === ')' && --depth === 0) close = i;
  }
  if (close < 0) return undefined;
  let afterStar = false;
  const params: PyParam[] = [];
  for (const p of splitTopLevel(signature.slice(open + 1, close))) {
    if (p === '/') continue;
    if (p === '*') {
      afterStar = true;
      continue;
    }
    const m = /^(\*{0,2})([A-Za-z_]\w*)\s*(?::\s*([^=]+?))?\s*(=.*)?$/s.exec(p);
    if (!m || m[2] === 'self' || m[2] === 'cls') continue;
    params.push({ name: m[2], hint: m[3]?.trim(), hasDefault: m[4] !== undefined, keywordOrRest: afterStar || m[1] !== '' });
    if (m[1] === '*') afterStar = true;
  }
  return params;
}

/** A Python type hint as one of the kinds ../inputs.ts generates values for. */
export function pyKind(hint: string | undefined): ParamKind {
  if (!hint) return 'unknown';
  let h = hint.replace(/^['"]|['"]$/g, '').trim();
  const optional = /^(?:typing\.)?Optional\[(.*)\]$/s.exec(h);
  if (optional) h = optional[1];
  const union = /^(?:typing\.)?Union\[(.*)\]$/s.exec(h);
  const members = (union ? splitTopLevel(union[1]) : h.split('|')).map((s) => s.trim()).filter((s) => s !== 'None');
  if (members.length !== 1) return 'unknown';
  const base = members[0].replace(/^typing\.|^collections\.abc\./, '').replace(/\[.*$/s, '');
  if (/^(Sequence|Iterable|List|Tuple|Set|FrozenSet|set|frozenset|Collection)$/.test(base)) return 'array';
  if (/^(Dict|Mapping|MutableMapping)$/.test(base)) return 'object';
  if (base === 'Decimal' || base === 'SupportsFloat' || base === 'SupportsInt') return 'number';
  return kindOfType(base);
}

/** The seed ../inputs.ts reads, for the required positional parameters of a Python signature. */
export function pySeed(seed: InputSeed): InputSeed {
  const params = seed.signature ? pyParams(seed.signature) : undefined;
  if (!params) return seed;
  const passed = params.filter((p) => !p.hasDefault && !p.keywordOrRest);
  const kinds = passed.map((p) => pyKind(p.hint));
  return { ...seed, arity: passed.length, signature: `(${passed.map((p, i) => `${p.name}: ${kinds[i]}`).join(', ')})` };
}

/** Argument lists for a Python function: ../inputs.ts candidates from the reduced seed. */
export function pyCandidateInputs(seed: InputSeed, max: number): unknown[][] {
  return candidateInputs(pySeed(seed), max);
}
