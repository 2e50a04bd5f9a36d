// An example whose result is random (`nanoid() //=> "V1StGXR8_Z5jdHi6B-myT"`), or that reads the
// command line, the environment, the clock or the network (`mri(process.argv.slice(2)) //=> {…}`,
// `sysTimezone() //=> "America/Los_Angeles"`), shows the shape of a result on the author's machine,
// not a value a test can expect: such examples get no equality oracle.
import type { SymbolInfo } from '../../contracts/types';
import type { DocExample } from './examples';

const RANDOM_DOC = /\b(?:random(?:ly)?|uuid|guid|nonce|unique (?:id|identifier|string|key|token|name)s?)\b/i;

/** What a documented snippet reads from outside the program: argv, env, the clock, randomness, the network, the machine. */
const OUTSIDE: [RegExp, string][] = [
  [/\bprocess\.argv\b/, 'the command line (process.argv)'],
  [/\bprocess\.env\b|\bDeno\.env\b/, 'the environment (process.env)'],
  [/\bprocess\.(?:cwd|hrtime|uptime|memoryUsage|pid)\b/, 'the running process'],
  [/\bDate\.now\s*\(|\bnew\s+Date\s*(?:\(\s*\))?(?!\s*\()|(?<![\w$.])Date\s*\(\s*\)|\bperformance\.now\s*\(/, 'the clock'],
  [/\bMath\.random\s*\(|\bcrypto\.(?:random\w*|getRandomValues)\s*\(|\brandomUUID\s*\(/, 'randomness'],
  [
    /(?<![\w$.])fetch\s*\(|\bhttps?\.(?:get|request)\s*\(|\bnew\s+(?:XMLHttpRequest|WebSocket|EventSource)\b|\bnet\.(?:connect|createConnection)\s*\(|\bdns\.\w+\s*\(/,
    'the network',
  ],
  [/\bos\.(?:hostname|homedir|tmpdir|uptime|userInfo|networkInterfaces|cpus|freemem|loadavg)\s*\(/, 'the machine (os)'],
  [/\bIntl\.DateTimeFormat\s*\(\s*\)\.resolvedOptions\b/, 'the system time zone and locale'],
];
const OUTSIDE_DOC =
  /\b(?:current|system|local|user'?s)\s+(?:environment|time\s*zone|timezone|locale|date|time|working directory|user|home directory|platform)\b|\benvironment variables?\b|\bcommand[- ]line arguments\b/i;

/**
 * What an example's setup or call reads from outside the program (its symbol's documentation
 * counts too), as the reason it gets no equality oracle; undefined when it reads nothing of the kind.
 */
export function readsOutside(ex: DocExample, symbol: SymbolInfo | undefined): string | undefined {
  if (ex.outcome === 'throws') return undefined;
  const code = [...ex.setup, ex.call].join('\n').replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, '""');
  const hit = OUTSIDE.find(([re]) => re.test(code));
  const doc = !hit && symbol?.doc && OUTSIDE_DOC.exec(symbol.doc);
  if (!hit && !doc) return undefined;
  const what = hit ? hit[1] : `what its documentation calls the ${doc ? doc[0] : ''}`;
  return `'${ex.call.slice(0, 60)}' reads ${what}: the shown value is the author's, not one a test can expect`;
}

/** The reason an example's documented value cannot be expected, or undefined when it can. */
export function looksRandom(ex: DocExample, symbol: SymbolInfo | undefined): string | undefined {
  if (ex.outcome === 'throws') return undefined;
  if (symbol?.doc && RANDOM_DOC.test(symbol.doc))
    return `'${ex.call.slice(0, 60)}': its documentation says the result is random or unique, so the shown value cannot be expected`;
  if (/^[\w$.]+\(\s*\)$/.test(ex.call.trim()) && looksLikeId(ex.expected ?? ''))
    return `'${ex.call.slice(0, 60)}' takes no arguments and shows an id-like result: an illustration, not a value to expect`;
  return undefined;
}

/** A quoted token of 8+ characters mixing letters and digits, without spaces (`"V1StGXR8_Z5jdHi6B-myT"`). */
function looksLikeId(text: string): boolean {
  const m = /^(['"`])([^\s'"`]{8,})\1$/.exec(text.trim());
  if (!m) return false;
  return /\d/.test(m[2]) && /[A-Za-z]/.test(m[2]);
}
