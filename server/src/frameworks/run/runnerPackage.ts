// Where an installed runner's command-line entry is: the `bin` its own package.json declares, so any
// version is found (mocha 5–9 ship `bin/mocha` without `.js`, jest and vitest moved theirs over the
// years); the path of the version AMTP is tested with is only the fallback when package.json says nothing.
// Each runner (frameworks/<id>/runner.ts) names its package; runnerBin.ts finds it by framework.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunnerPackage {
  pkg: string;
  /** the `bin` command that runs tests (package.json's `bin` may list several) */
  command: string;
  /** node_modules-relative entry of the tested version, used when package.json has no usable `bin` */
  known: string;
  /** the oldest major version whose command-line flags the runner file (frameworks/<id>/runner.ts) uses, if it matters */
  minMajor?: number;
}

interface PackageJson {
  version?: unknown;
  bin?: unknown;
}

function packageJson(dir: string, pkg: string): PackageJson | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
}

/** The entry file `dir/node_modules/<runner>` declares for its command, if it exists. */
function declaredEntry(dir: string, r: RunnerPackage): string | undefined {
  const bin = packageJson(dir, r.pkg)?.bin;
  const rel = typeof bin === 'string' ? bin : bin && typeof bin === 'object' ? (bin as Record<string, unknown>)[r.command] : undefined;
  if (typeof rel !== 'string') return undefined;
  const file = join(dir, 'node_modules', r.pkg, rel);
  return existsSync(file) ? file : undefined;
}

/** The absolute entry file of runner package `r` installed in `dir/node_modules`, if any. */
export function installedEntryOf(dir: string, r: RunnerPackage): string | undefined {
  const declared = declaredEntry(dir, r);
  if (declared) return declared;
  const known = join(dir, 'node_modules', r.known);
  return existsSync(known) ? known : undefined;
}

/** The entry to spawn for `r` from `binDir` (the known path when none is found: the spawn then fails clearly). */
export function runnerEntryOf(binDir: string, r: RunnerPackage): string {
  return installedEntryOf(binDir, r) ?? join(binDir, 'node_modules', r.known);
}

/** The installed runner's major and minor version (undefined when unreadable). */
export function runnerVersionOf(binDir: string, r: RunnerPackage): [number, number] | undefined {
  const v = packageJson(binDir, r.pkg)?.version;
  const m = typeof v === 'string' ? /^(\d+)\.(\d+)/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}
