// Mutation outcomes cached per mutant and test (docs/mutation.md, "Cache"): what a test did to a
// mutant is not asked again while neither changed. A file's entry is keyed by the file's bytes and
// those of every workspace module it imports, the runner and its arguments, the budget asked for and
// AMTP itself; in it each mutant keeps its outcome per test, the test named by its own key: its text
// and its file's text outside every AMTP test (frameworks/testTexts.ts) with the bytes of the module
// it targets and that module's imports. So after a one-line change to node-forge@1.3.1's lib/kem.js,
// kem's mutants run again, and the other files' mutants run only against kem's new tests, and only
// those no unchanged test kills. A mutant its run's budget left not run stays so under the same key
// (a new --mutation-budget runs it). Entries are sealed with the person's owner key, as the
// characterization cache's are, so a repository cannot plant outcomes.
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalJson } from '../core/canonical';
import { testTexts } from '../frameworks/testTexts';
import { ownerKey } from '../store/ownership';
import { engineHash } from '../util/engineHash';
import { dependenciesOf, importGraph } from '../util/importGraph';
import type { TestOutcome } from './schedule';
import { mutantKey, type Mutant, type MutantResult, type MutationRequest } from './types';

const DIR = path.join('.amtp', 'cache', 'mutation');
const EARLIER =
  'in the run that last mutated this file; nothing that decides its mutants changed since, and a new --mutation-budget runs them again';

/** One mutant in an entry: its outcome per test key, or why it has none. */
interface CachedMutant {
  key: string;
  outcomes: Record<string, TestOutcome>;
  /** the budget left it not run */
  notRun?: string;
}

/** What the cache says of one mutant of this run. */
export interface Known {
  /** its result, when no test needs to run against it */
  result?: MutantResult;
  /** else: the tests to run against it (those whose outcome is not known) */
  tests?: string[];
  /** the outcomes known, by case id */
  outcomes: Map<string, TestOutcome>;
  /** why the budget left it not run, as its run said */
  notRun?: string;
}

export interface MutationCache {
  /** what is known of each mutant (by id) that the cache has seen, given the tests that reach it now (`reach`: mutant id → case ids) */
  known(mutants: Mutant[], reach: Map<string, string[]>): Map<string, Known>;
  /** keeps each mutant's outcomes per test (mutant id → case id → outcome), and those the budget left not run */
  write(mutants: Mutant[], outcomes: Map<string, Map<string, TestOutcome>>, notRun: Map<string, string>): void;
}

/** Undefined when there is nothing to key on (no product file list), or the run is not a whole one (`only`: new tests against known survivors). */
export function mutationCache(req: MutationRequest, tool: string, testFileTexts: Map<string, string>): MutationCache | undefined {
  if (req.only || !req.cache?.sources.length) return undefined;
  const { fileKey, testKey } = cacheKeys(req, req.cache, tool, testFileTexts);
  const entry = memo((key: string) => readEntry(req.workspace, key));
  return {
    known(mutants, reach) {
      const out = new Map<string, Known>();
      for (const m of mutants) {
        const key = fileKey(m.file);
        const c = key ? entry(key).get(mutantKey(m)) : undefined;
        const k = c && knownOf(m, c, reach.get(m.id) ?? [], testKey);
        if (k) out.set(m.id, k);
      }
      return out;
    },
    write(mutants, outcomes, notRun) {
      const byFile = new Map<string, CachedMutant[]>();
      for (const m of mutants) {
        const key = fileKey(m.file);
        if (!key) continue;
        const kept: Record<string, TestOutcome> = {};
        for (const [t, o] of outcomes.get(m.id) ?? []) {
          const k = testKey(t);
          if (k) kept[k] = o;
        }
        const reason = notRun.get(m.id);
        (byFile.get(key) ?? byFile.set(key, []).get(key)!).push({
          key: mutantKey(m),
          outcomes: kept,
          ...(reason !== undefined ? { notRun: reason } : {}),
        });
      }
      for (const [key, list] of byFile) writeEntry(req.workspace, key, list);
    },
  };
}

const memo = <T>(fn: (k: string) => T) => {
  const m = new Map<string, T>();
  return (k: string) => (m.has(k) ? m.get(k)! : m.set(k, fn(k)).get(k)!);
};

/** The keys of a file under test and of a test (by case id); undefined when what they hold cannot be read. */
function cacheKeys(
  req: MutationRequest,
  { sources, budgetSeconds }: { sources: string[]; budgetSeconds: number },
  tool: string,
  testFileTexts: Map<string, string>,
): { fileKey: (file: string) => string | undefined; testKey: (caseId: string) => string | undefined } {
  const graph = importGraph(req.workspace, sources);
  const deps = memo((module: string) => dependenciesOf(graph, module));
  const hashed = (what: unknown, files: string[]): string | undefined => {
    try {
      const h = createHash('sha1').update(canonicalJson(what));
      for (const f of files)
        h.update(f)
          .update('\0')
          .update(readFileSync(path.join(req.workspace, f)));
      return h.digest('hex');
    } catch {
      return undefined; // a file that cannot be read: nothing is known
    }
  };
  const runner = { engine: engineHash(), tool, framework: req.plan.framework, args: req.plan.args, budgetSeconds };
  const texts = memo((file: string) => testTexts(file, testFileTexts.get(file) ?? ''));
  const testOf = new Map(req.tests.map((t) => [t.caseId, t]));
  return {
    fileKey: memo((file) => hashed({ ...runner, file }, deps(file))),
    testKey: memo((caseId) => {
      const t = testOf.get(caseId);
      const text = t && texts(t.file).get(caseId);
      return t && text !== undefined ? hashed({ caseId, file: t.file, text }, t.target ? deps(t.target) : []) : undefined;
    }),
  };
}

/** What an entry's mutant says now that `tests` reach it; undefined when it says nothing (every test is new to it). */
function knownOf(m: Mutant, c: CachedMutant, tests: string[], testKey: (caseId: string) => string | undefined): Known | undefined {
  const { filtered: _filtered, ...mutant } = m as Mutant & { filtered?: string };
  const base = { ...mutant, coveredBy: tests, killedBy: [] as string[] };
  if (c.notRun)
    return { result: { ...base, status: 'not_run', reason: `${c.notRun} (${EARLIER})` }, outcomes: new Map(), notRun: c.notRun };
  const outcomes = new Map<string, TestOutcome>();
  for (const t of tests) {
    const k = testKey(t);
    const o = k ? c.outcomes[k] : undefined;
    if (o) outcomes.set(t, o);
  }
  const killers = [...outcomes].filter(([, o]) => o !== 'survived');
  const left = tests.filter((t) => !outcomes.has(t));
  if (killers.length) {
    const status = killers.every(([, o]) => o === 'timeout') ? 'timeout' : 'killed';
    return { result: { ...base, status, killedBy: killers.map(([t]) => t).sort() }, outcomes };
  }
  if (!tests.length) return undefined;
  return left.length ? { tests: left, outcomes } : { result: { ...base, status: 'survived' }, outcomes };
}

const entryFile = (root: string, key: string) => path.join(root, DIR, `${key}.json`);

/** An entry by mutant key; empty when there is none, or its seal is not this person's. */
function readEntry(root: string, key: string): Map<string, CachedMutant> {
  try {
    const e = JSON.parse(readFileSync(entryFile(root, key), 'utf8')) as { seal?: string; mutants: CachedMutant[] };
    return e.seal === seal(key, e.mutants) ? new Map(e.mutants.map((m) => [m.key, m])) : new Map();
  } catch {
    return new Map();
  }
}

function writeEntry(root: string, key: string, mutants: CachedMutant[]): void {
  try {
    mkdirSync(path.join(root, DIR), { recursive: true });
    writeFileSync(`${entryFile(root, key)}.tmp`, JSON.stringify({ seal: seal(key, mutants), mutants }));
    renameSync(`${entryFile(root, key)}.tmp`, entryFile(root, key));
  } catch {
    // A cache that cannot be written costs the next run the same work, nothing else.
  }
}

function seal(key: string, mutants: CachedMutant[]): string {
  return 'm2_' + createHmac('sha256', ownerKey().key).update(key).update('\0').update(canonicalJson(mutants)).digest('hex');
}
