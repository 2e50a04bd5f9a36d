// Mutation results cached per file under test (docs/mutation.md, "Cache"): a file's mutants are not run
// again while what decides their outcomes is unchanged. That is the file's bytes and those of every
// workspace module it imports; each test that reaches one of its mutants (its own text and its file's
// text outside every test, frameworks/testTexts.ts) with the bytes of the module it targets and that
// module's imports; the runner and its arguments; and AMTP itself. A change to lib/kem.js then mutates
// lib/kem.js again, not the 39 other files of node-forge@1.3.1. A file's entry holds every one of
// its mutants, those its run's budget left not run too (so the key holds the budget asked for:
// a new --mutation-budget runs them). Entries are sealed with the person's owner key, as the
// characterization cache's are, so a repository cannot plant results.
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalJson } from '../core/canonical';
import { testTexts } from '../frameworks/testTexts';
import { ownerKey } from '../store/ownership';
import { engineHash } from '../util/engineHash';
import { dependenciesOf, importGraph } from '../util/importGraph';
import { mutantKey, type Mutant, type MutantResult, type MutationRequest } from './types';

const DIR = path.join('.amtp', 'cache', 'mutation');

/** A mutant's outcome without its id (ids are numbered anew by every instrumentation). */
type CachedMutant = Omit<MutantResult, 'id'>;

const DONE = new Set<MutantResult['status']>(['killed', 'timeout', 'survived', 'no_coverage', 'filtered']);
const EARLIER =
  'in the run that last mutated this file; nothing that decides its mutants changed since, and a new --mutation-budget runs them again';

export interface MutationCache {
  /** the outcomes of `mutants` (all of `file`'s) from the run that last mutated the file under the same key, with this run's ids */
  read(file: string, mutants: Mutant[]): MutantResult[] | undefined;
  /** keeps the outcomes of all of `file`'s mutants */
  write(file: string, results: MutantResult[]): void;
}

/**
 * The cache of one mutation run, once the coverage round says which tests reach each file's mutants
 * (`reach`: file under test → case ids). Undefined when there is nothing to key on (no product file
 * list) or the run is not a whole one (`only`: a new test against known survivors).
 */
export function mutationCache(
  req: MutationRequest,
  tool: string,
  testFileTexts: Map<string, string>,
  reach: Map<string, Set<string>>,
): MutationCache | undefined {
  if (req.only || !req.cache?.sources.length) return undefined;
  const { sources, budgetSeconds } = req.cache;
  const graph = importGraph(req.workspace, sources);
  const texts = new Map<string, Map<string, string>>();
  const textOf = (file: string, caseId: string) => {
    if (!texts.has(file)) texts.set(file, testTexts(file, testFileTexts.get(file) ?? ''));
    return texts.get(file)!.get(caseId);
  };
  const testOf = new Map(req.tests.map((t) => [t.caseId, t]));
  const depsOf = new Map<string, string[]>();
  const deps = (module: string) => depsOf.get(module) ?? depsOf.set(module, dependenciesOf(graph, module)).get(module)!;
  const keys = new Map<string, string | undefined>();
  const keyOf = (file: string): string | undefined => {
    if (keys.has(file)) return keys.get(file);
    let key: string | undefined;
    try {
      // the tests that ran its code, and those of modules that import it (a mutant that runs while the
      // file loads is run against every test; these are the ones it can reach through the code)
      const ids = new Set(reach.get(file) ?? []);
      for (const t of req.tests) if (t.target && deps(t.target).includes(file)) ids.add(t.caseId);
      const tests = [...ids].sort().map((id) => {
        const t = testOf.get(id);
        const text = t && textOf(t.file, id);
        if (!t || text === undefined) throw new Error(`no text for ${id}`);
        return { id, file: t.file, target: t.target ?? null, text };
      });
      const modules = new Set(deps(file));
      for (const t of tests) if (t.target) for (const f of deps(t.target)) modules.add(f);
      const h = createHash('sha1')
        .update(engineHash())
        .update(canonicalJson({ tool, file, framework: req.plan.framework, args: req.plan.args, budgetSeconds, tests }));
      for (const f of [...modules].sort())
        h.update(f)
          .update('\0')
          .update(readFileSync(path.join(req.workspace, f)));
      key = h.digest('hex');
    } catch {
      key = undefined; // a file that cannot be read, a test not found: run it
    }
    keys.set(file, key);
    return key;
  };
  const entryFile = (key: string) => path.join(req.workspace, DIR, `${key}.json`);
  return {
    read(file, mutants) {
      const key = keyOf(file);
      if (!key) return undefined;
      try {
        const entry = JSON.parse(readFileSync(entryFile(key), 'utf8')) as { seal?: string; mutants: CachedMutant[] };
        if (entry.seal !== seal(key, entry.mutants)) return undefined;
        const byKey = new Map(entry.mutants.map((m) => [mutantKey(m), m]));
        const out: MutantResult[] = [];
        for (const m of mutants) {
          const hit = byKey.get(mutantKey(m));
          if (!hit) return undefined;
          out.push({ ...hit, id: m.id, ...(hit.reason && !DONE.has(hit.status) ? { reason: `${hit.reason} (${EARLIER})` } : {}) });
        }
        return out;
      } catch {
        return undefined;
      }
    },
    write(file, results) {
      const key = keyOf(file);
      if (!key || !results.length) return;
      const mutants = results.map(({ id: _id, ...m }) => m);
      try {
        mkdirSync(path.join(req.workspace, DIR), { recursive: true });
        writeFileSync(`${entryFile(key)}.tmp`, JSON.stringify({ seal: seal(key, mutants), mutants }));
        renameSync(`${entryFile(key)}.tmp`, entryFile(key));
      } catch {
        // A cache that cannot be written costs the next run the same work, nothing else.
      }
    },
  };
}

function seal(key: string, mutants: CachedMutant[]): string {
  return 'm1_' + createHmac('sha256', ownerKey().key).update(key).update('\0').update(canonicalJson(mutants)).digest('hex');
}
