// A doctest whose code reads the clock, randomness, the process or the environment shows a value
// that held when it was written, not one a test can expect: `naturaltime(dt.datetime.now() - …)`,
// `random.choice(…)`, `uuid.uuid4()`, `id(x)`, `hash('a')` (randomized per process). Read on the
// syntax tree, so a name inside a string does not count.
import { parsePython } from '../../frameworks/pyTree';
import { namesOf } from '../crawler/doctestSetup';

/** Modules whose every use is volatile. */
const MODULES = new Set(['random', 'secrets', 'uuid']);
/** Attribute names that read the clock when called on a time/date object or module. */
const CLOCK = /^(now|utcnow|today|time|time_ns|monotonic|monotonic_ns|perf_counter|perf_counter_ns|process_time|localtime|ctime|asctime)$/;
const CLOCK_OWNER = /(^|\.)(time|datetime|date|dt|arrow|pendulum)$/;
/** Reads of the process and its environment. */
const PROCESS = /(^|\.)(os\.(urandom|getpid|getppid|environ|getenv|getcwd|times)|sys\.argv)$/;
const BUILTINS = new Set(['id', 'hash']);

/** What the code reads that varies between runs (`the clock (datetime.now)`), or undefined. */
export function volatileRead(code: string): string | undefined {
  const tree = parsePython(code);
  let found: string | undefined;
  tree.iterate({
    enter: (n) => {
      if (found) return false;
      if (n.name === 'String' || n.name === 'FormatString') return false;
      const text = code.slice(n.from, n.to);
      if (n.name === 'ImportStatement') {
        const m = /^\s*(?:from\s+(\w+)|import\s+(\w+))/.exec(text);
        const mod = m?.[1] ?? m?.[2];
        if (mod && MODULES.has(mod)) found = `randomness (${mod})`;
        return false;
      }
      if (n.name === 'VariableName' && MODULES.has(text) && n.node.parent?.name === 'MemberExpression') found = `randomness (${text})`;
      // `>>> _[0]`: the interactive interpreter's last result, which a test does not have
      if (n.name === 'VariableName' && text === '_') found = "the interactive interpreter's last result (`_`)";
      if (n.name === 'MemberExpression') found = memberRead(text.replace(/\s+/g, ''));
      if (n.name === 'CallExpression') {
        const callee = n.node.firstChild;
        const name = callee ? code.slice(callee.from, callee.to) : '';
        if (callee?.name === 'VariableName' && BUILTINS.has(name)) found = `the process (${name}())`;
      }
      return undefined;
    },
  });
  return found;
}

function memberRead(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  const owner = path.slice(0, dot);
  const attr = path.slice(dot + 1);
  if (CLOCK.test(attr) && CLOCK_OWNER.test(owner)) return `the clock (${path})`;
  if (PROCESS.test(path)) return `the process or its environment (${path})`;
  return undefined;
}

/**
 * Follows volatility through a doctest's names: `>>> now = dt.datetime.now()` makes `now` volatile,
 * and a later `>>> naturaltime(now)` with it; a step that only acted (`>>> naturaltime(...)`) taints
 * nothing, so the steps after it that do not read such a name keep their oracles.
 */
export class VolatileNames {
  private readonly tainted = new Map<string, string>();

  /** What the step reads that varies between runs, itself or through a name bound earlier. */
  check(code: string): string | undefined {
    const own = volatileRead(code);
    if (own) return own;
    for (const u of namesOf(code).uses) {
      const why = this.tainted.get(u);
      if (why) return why;
    }
    return undefined;
  }

  /** Records the names a step binds, volatile when the step is. */
  record(code: string): void {
    const why = this.check(code);
    for (const d of namesOf(code).defs) {
      if (why) this.tainted.set(d, why);
      else this.tainted.delete(d);
    }
  }
}
