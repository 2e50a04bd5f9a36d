// Characterization and the offline search, cached by what decides their result (docs/characterization.md,
// "Cache"): the module's bytes and those of every workspace module it imports (directly or not), the
// job AMTP planned for it (targets, binding, the existence checks it may replace), the runs the budget
// gave it, the run's seed, scope and lessons about the module, and the engine itself (the hash of the
// running AMTP bundle, so any change to AMTP misses). An unchanged module is never searched or
// characterized again: its part of the characterization artifact is read from .amtp/cache/. What
// depends on the machine's speed (a search the safety clock cut short) or failed is never cached.
// Each entry is sealed with the person's owner key (store/ownership.ts): an entry a repository
// shipped under .amtp/cache is never read, so no repository file can plant tests.
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalJson } from '../core/canonical';
import type { ModuleCharacterizationDoc } from '../contracts/types';
import { ownerKey } from '../store/ownership';
import { engineHash } from '../util/engineHash';
import { dependenciesOf } from '../util/importGraph';

const DIR = path.join('.amtp', 'cache', 'characterize');

/** The key of one module's characterization: its bytes and its imports', the job and the run's inputs. */
export function cacheKey(root: string, graph: Map<string, string[]>, module: string, inputs: unknown): string | undefined {
  const h = createHash('sha1').update(engineHash()).update(canonicalJson(inputs));
  try {
    for (const f of dependenciesOf(graph, module))
      h.update(f)
        .update('\0')
        .update(readFileSync(path.join(root, f)));
  } catch {
    return undefined;
  }
  return h.digest('hex');
}

/** The cached result of `key`, or `exec()`'s, cached when it does not depend on the machine and did not fail. */
export async function cached(
  root: string,
  key: string | undefined,
  exec: () => Promise<ModuleCharacterizationDoc>,
  onHit?: () => void,
): Promise<ModuleCharacterizationDoc> {
  const file = key ? path.join(root, DIR, `${key}.json`) : undefined;
  if (file)
    try {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as { seal?: string; doc: ModuleCharacterizationDoc };
      if (entry.seal === seal(key!, entry.doc)) {
        onHit?.();
        return entry.doc;
      }
    } catch {
      // Not cached (or unreadable): characterized below.
    }
  const doc = await exec();
  if (file && !doc.cut_by_clock && !doc.search?.error)
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify({ seal: seal(key!, doc), doc }));
      renameSync(`${file}.tmp`, file);
    } catch {
      // A cache that cannot be written costs the next run the same work, nothing else.
    }
  return doc;
}

function seal(key: string, doc: ModuleCharacterizationDoc): string {
  return 'c1_' + createHmac('sha256', ownerKey().key).update(key).update('\0').update(canonicalJson(doc)).digest('hex');
}
