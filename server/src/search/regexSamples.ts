// Strings a module's own regular expressions accept: validators and parsers compare their input with
// them (`TYPE_REGEXP.test(type)`), so a matching string reaches the code behind the check. The regex
// literals and `new RegExp('…')` of a file are read from its syntax tree, and samples are drawn with
// randexp (https://github.com/fent/randexp.js) from a generator seeded by the pattern, so the same
// module gives the same strings on every run.
import RandExpModule from 'randexp';
import type { EsNode } from '../util/jsParser';
import { walk } from '../util/esTree';
import { hashSeed, makeRng } from './rng';

// randexp is CommonJS with an `exports.default`; the bundle and tsx see either shape.
const RandExp = ((RandExpModule as unknown as { default?: typeof RandExpModule }).default ?? RandExpModule) as typeof RandExpModule;

export interface RegexSource {
  pattern: string;
  flags: string;
  /** the variable it is bound to (`const TYPE_REGEXP = /…/`), if any */
  name?: string;
}

function regexOf(n: EsNode): { pattern: string; flags: string } | undefined {
  if (n.regex && typeof n.regex.pattern === 'string') return { pattern: n.regex.pattern, flags: n.regex.flags ?? '' };
  const isCtor =
    (n.type === 'NewExpression' || n.type === 'CallExpression') && n.callee?.type === 'Identifier' && n.callee.name === 'RegExp';
  const first = isCtor ? n.arguments?.[0] : undefined;
  if (first && (first.type === 'Literal' || first.type === 'StringLiteral') && typeof first.value === 'string') {
    const flags = n.arguments[1]?.value;
    return { pattern: first.value, flags: typeof flags === 'string' ? flags : '' };
  }
  return undefined;
}

/** The regular expressions written in a file (at most `max`), with the names they are bound to. */
export function regexesIn(program: EsNode, max = 40): RegexSource[] {
  const out: RegexSource[] = [];
  const named = new Map<EsNode, string>();
  walk(program, (n) => {
    if (n.type === 'VariableDeclarator' && n.id?.type === 'Identifier' && n.init) named.set(n.init, n.id.name);
  });
  const all: EsNode[] = [];
  walk(program, (n) => {
    if (regexOf(n)) all.push(n);
  });
  all.sort((a, b) => a.start - b.start);
  for (const n of all) {
    const re = regexOf(n)!;
    if (out.length >= max || out.some((o) => o.pattern === re.pattern && o.flags === re.flags)) continue;
    out.push({ ...re, ...(named.has(n) ? { name: named.get(n) } : {}) });
  }
  return out;
}

/** Up to `n` distinct strings the expression matches (none when it cannot be sampled). */
export function regexSamples(re: { pattern: string; flags: string }, n = 3): string[] {
  let gen: InstanceType<typeof RandExp>;
  try {
    gen = new RandExp(new RegExp(re.pattern, re.flags.replace(/[gy]/g, '')));
  } catch {
    return [];
  }
  const rng = makeRng(hashSeed(7, `${re.pattern}/${re.flags}`));
  gen.randInt = (a: number, b: number) => a + rng.int(b - a + 1);
  gen.max = 4;
  const out: string[] = [];
  for (let i = 0; i < n * 3 && out.length < n; i++) {
    let s: string;
    try {
      s = gen.gen();
    } catch {
      break;
    }
    if (s.length <= 60 && !out.includes(s)) out.push(s);
  }
  return out;
}
