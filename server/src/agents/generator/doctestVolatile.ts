// A doctest whose code reads the clock, randomness, the process or the environment shows a value
// that held when it was written, not one a test can expect: `naturaltime(dt.datetime.now() - …)`,
// `random.choice(…)`, `uuid.uuid4()`, `id(x)`, `hash('a')` (randomized per process). Read on the
// syntax tree, so a name inside a string does not count.
import { isVariableName, walkPython, withPythonTree, type PyNode } from '../../frameworks/pyTree';
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
  let found: string | undefined;
  withPythonTree(code, (root) =>
    walkPython(root, (n) => {
      if (found || n.type === 'string') return false;
      if (/^(?:future_)?import(?:_from)?_statement$/.test(n.type)) {
        const m = /^\s*(?:from\s+(\w+)|import\s+(\w+))/.exec(n.text);
        const mod = m?.[1] ?? m?.[2];
        if (mod && MODULES.has(mod)) found = `randomness (${mod})`;
        return false;
      }
      found = nodeRead(n);
      return true;
    }),
  );
  return found;
}

/** What one node reads that varies between runs: a volatile module's member, `_`, the clock, the process. */
function nodeRead(n: PyNode): string | undefined {
  if (isVariableName(n)) {
    if (MODULES.has(n.text) && n.parent?.type === 'attribute') return `randomness (${n.text})`;
    // `>>> _[0]`: the interactive interpreter's last result, which a test does not have
    if (n.text === '_') return "the interactive interpreter's last result (`_`)";
  }
  if (n.type === 'attribute') return memberRead(n.text.replace(/\s+/g, ''));
  if (n.type === 'call') {
    const callee = n.childForFieldName('function');
    if (callee?.type === 'identifier' && BUILTINS.has(callee.text)) return `the process (${callee.text}())`;
  }
  return undefined;
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
