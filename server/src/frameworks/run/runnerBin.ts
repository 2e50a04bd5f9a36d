// A framework's installed runner, found by the package its runner names (frameworks/<id>/runner.ts
// `package`, read through the registry); the lookup itself is runnerPackage.ts.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Framework } from '../../core/frameworks';
import { FRAMEWORK_REGISTRY } from '../registry';
import { installedEntryOf, runnerEntryOf, runnerVersionOf, type RunnerPackage } from './runnerPackage';

type NodeRunnerFramework = Exclude<Framework, 'node-test' | 'pytest'>;

/** The npm package whose command line runs `framework`'s tests. */
export function runnerPackage(framework: NodeRunnerFramework): RunnerPackage {
  const r = FRAMEWORK_REGISTRY[framework].runner.package;
  if (!r) throw new Error(`${framework}'s runner names no package`);
  return r;
}

/** The absolute entry file of `framework`'s runner installed in `dir/node_modules`, if any. */
export function installedEntry(dir: string, framework: NodeRunnerFramework): string | undefined {
  return installedEntryOf(dir, runnerPackage(framework));
}

/** The entry to spawn for `framework` from `binDir` (the known path when none is found: the spawn then fails clearly). */
export function runnerEntry(binDir: string, framework: NodeRunnerFramework): string {
  return runnerEntryOf(binDir, runnerPackage(framework));
}

/** The nearest directory at or above `from` whose node_modules holds a runnable `framework` runner. */
export function findRunnerDir(from: string, framework: NodeRunnerFramework): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (installedEntry(dir, framework)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Why the runner installed in `binDir` cannot be driven (a version older than its flags), if so. */
export function unsupportedVersion(binDir: string, framework: NodeRunnerFramework): string | undefined {
  const r = runnerPackage(framework);
  const { pkg, minMajor } = r;
  const major = runnerVersionOf(binDir, r)?.[0];
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
