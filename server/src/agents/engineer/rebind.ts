// One test file's bindings: every case of a module gets the names its oracle uses, even when two
// cases bind the same local to different imports (clsx's README calls the named export `clsx`, its
// type check binds the whole module as `clsx`). The binding most cases use keeps the local; each
// other one is bound under a distinct local (`clsx_module`, `clsx_named`, ...) and the cases that use
// it are rewritten on the syntax tree (frameworks/rename.ts) to call it by that name. Two imports
// are never assumed to be the same value: whether `default` and a named export are one function is
// not known here, and a second import line costs nothing.
import type { OracleBinding, TestCase } from '../../contracts/types';
import { renameInSnippet } from '../../frameworks/rename';

export interface Rebound {
  /** the group's cases, those that needed it rewritten to their distinct locals */
  cases: TestCase[];
  bindings: OracleBinding[];
  notWritten: { caseId: string; reason: string }[];
}

type Needed = (c: TestCase) => OracleBinding[];

/** Bindings for a group's cases: locals that two cases bind differently are given distinct names. */
export function rebind(cases: TestCase[], neededOf: Needed, reserved: ReadonlySet<string>): Rebound {
  const keeps = winners(cases, neededOf, reserved);
  const bindings = new Map<string, OracleBinding>();
  const taken = new Set([...reserved, ...cases.flatMap((c) => neededOf(c).map((b) => b.local))]);
  const renamedTo = new Map<string, string>();
  const out: Rebound = { cases: [], bindings: [], notWritten: [] };
  for (const c of cases) {
    const renames = new Map<string, string>();
    const own: OracleBinding[] = [];
    for (const b of neededOf(c)) {
      if (keeps.get(b.local) === key(b)) own.push(b);
      else {
        const local = renamedTo.get(key(b)) ?? distinctLocal(b, taken, c);
        renamedTo.set(key(b), local);
        renames.set(b.local, local);
        own.push({ ...b, local, ...(b.import === 'named' ? { name: b.name ?? b.local } : {}) });
      }
    }
    const rewritten = renames.size ? renamed(c, renames, own) : c;
    if (!rewritten) {
      const local = [...renames.keys()][0];
      out.notWritten.push({ caseId: c.id, reason: `the name '${local}' is already bound differently in this test file` });
      continue;
    }
    for (const b of own) bindings.set(b.local, b);
    out.cases.push(rewritten);
  }
  out.bindings = [...bindings.values()];
  return out;
}

function key(b: OracleBinding): string {
  return b.import === 'named' ? `named:${b.name ?? b.local}` : b.import;
}

/** For each local, the import that keeps it: the one most cases use, the first on a tie; never a reserved name. */
function winners(cases: TestCase[], neededOf: Needed, reserved: ReadonlySet<string>): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const c of cases)
    for (const b of neededOf(c)) {
      if (reserved.has(b.local)) continue;
      const byKey = counts.get(b.local) ?? new Map<string, number>();
      byKey.set(key(b), (byKey.get(key(b)) ?? 0) + 1);
      counts.set(b.local, byKey);
    }
  const out = new Map<string, string>();
  for (const [local, byKey] of counts) {
    let best: [string, number] | undefined;
    for (const entry of byKey) if (!best || entry[1] > best[1]) best = entry;
    out.set(local, best![0]);
  }
  return out;
}

const SUFFIX: Record<OracleBinding['import'], string> = { module: 'module', default: 'default', namespace: 'ns', named: 'named' };

/** A local no binding of the file and no name in the case's snippets has: `clsx_named`, then `clsx_named2`. */
function distinctLocal(b: OracleBinding, taken: Set<string>, c: TestCase): string {
  const base = `${b.local}_${SUFFIX[b.import]}`;
  const snippets = [
    c.oracle?.setup,
    c.oracle?.call,
    ...[...(c.oracle?.sequence ?? []), ...(c.oracle?.checks ?? [])].map((s) => s.call),
  ].join('\n');
  let local = base;
  for (let n = 2; taken.has(local) || snippets.includes(local); n++) local = `${base}${n}`;
  taken.add(local);
  return local;
}

/** The case with its oracle's setup and calls using the new locals, or undefined when a snippet cannot be rewritten. */
function renamed(c: TestCase, renames: Map<string, string>, bindings: OracleBinding[]): TestCase | undefined {
  const oracle = c.oracle;
  if (!oracle) return undefined;
  const language = oracle.language === 'python' ? 'python' : 'javascript';
  const rewrite = (text: string | undefined, shape: 'expression' | 'statements'): string | undefined | null => {
    if (text === undefined) return undefined;
    let out: string | undefined = text;
    for (const [from, to] of renames) out = out === undefined ? undefined : renameInSnippet(out, from, to, language, shape);
    return out ?? null;
  };
  const setup = rewrite(oracle.setup, 'statements');
  const call = rewrite(oracle.call, 'expression');
  const sequence = oracle.sequence?.map((s) => ({ ...s, call: rewrite(s.call, 'expression') }));
  const checks = oracle.checks?.map((s) => ({ ...s, call: rewrite(s.call, 'expression') }));
  if (setup === null || call === null || [...(sequence ?? []), ...(checks ?? [])].some((s) => s.call === null || s.call === undefined))
    return undefined;
  return {
    ...c,
    oracle: {
      ...oracle,
      bindings,
      ...(setup !== undefined ? { setup } : {}),
      ...(call !== undefined ? { call } : {}),
      ...(sequence ? { sequence: sequence as NonNullable<typeof oracle.sequence> } : {}),
      ...(checks ? { checks: checks as NonNullable<typeof oracle.checks> } : {}),
    },
  };
}
