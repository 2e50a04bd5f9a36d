// Where an installed runner's command-line entry is: the `bin` its own package.json declares, so any
// version is found (mocha 5–9 ship `bin/mocha` without `.js`, jest and vitest moved theirs over the
// years); the path of the version AMTP is tested with is only the fallback when package.json says nothing.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Framework } from '../../core/frameworks';

export type NodeRunnerFramework = Exclude<Framework, 'node-test' | 'pytest'>;

interface RunnerPackage {
  pkg: string;
  /** the `bin` command that runs tests (package.json's `bin` may list several) */
  command: string;
  /** node_modules-relative entry of the tested version, used when package.json has no usable `bin` */
  known: string;
  /** the oldest major version whose command-line flags the runner file (frameworks/run/) uses, if it matters */
  minMajor?: number;
}

export const RUNNER_PACKAGES: Record<NodeRunnerFramework, RunnerPackage> = {
  jest: { pkg: 'jest', command: 'jest', known: 'jest/bin/jest.js' },
  vitest: { pkg: 'vitest', command: 'vitest', known: 'vitest/vitest.mjs' },
  mocha: { pkg: 'mocha', command: 'mocha', known: 'mocha/bin/mocha.js' },
  ava: { pkg: 'ava', command: 'ava', known: 'ava/entrypoints/cli.mjs' },
  // tap 15–17 take --no-coverage instead of --disable-coverage (nodeTap.ts); before 15, t.equal was not strict.
  'node-tap': { pkg: 'tap', command: 'tap', known: 'tap/dist/esm/run.mjs', minMajor: 15 },
};

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

/** The absolute entry file of `framework`'s runner installed in `dir/node_modules`, if any. */
export function installedEntry(dir: string, framework: NodeRunnerFramework): string | undefined {
  const r = RUNNER_PACKAGES[framework];
  const declared = declaredEntry(dir, r);
  if (declared) return declared;
  const known = join(dir, 'node_modules', r.known);
  return existsSync(known) ? known : undefined;
}

/** The entry to spawn for `framework` from `binDir` (the known path when none is found: the spawn then fails clearly). */
export function runnerEntry(binDir: string, framework: NodeRunnerFramework): string {
  return installedEntry(binDir, framework) ?? join(binDir, 'node_modules', RUNNER_PACKAGES[framework].known);
}

/** The nearest directory at or above `from` whose node_modules holds a runnable `framework` runner. */
export function findRunnerDir(from: string, framework: NodeRunnerFramework): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (installedEntry(dir, framework)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The installed runner's major and minor version (undefined when unreadable). */
export function runnerVersion(binDir: string, framework: NodeRunnerFramework): [number, number] | undefined {
  const v = packageJson(binDir, RUNNER_PACKAGES[framework].pkg)?.version;
  const m = typeof v === 'string' ? /^(\d+)\.(\d+)/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Why the runner installed in `binDir` cannot be driven (a version older than its flags), if so. */
export function unsupportedVersion(binDir: string, framework: NodeRunnerFramework): string | undefined {
  const { pkg, minMajor } = RUNNER_PACKAGES[framework];
  const major = runnerVersion(binDir, framework)?.[0];
  if (minMajor === undefined || major === undefined || major >= minMajor) return undefined;
  return `${pkg} ${major}.x is installed; AMTP drives ${pkg} ${minMajor} or later: upgrade it (npm install --save-dev ${pkg}@${minMajor}) or pick another framework (--framework node-test)`;
}

/** The folder at or above `from` whose node_modules has tsx, the TypeScript loader the written commands name. */
export function findTsx(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', 'tsx', 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
