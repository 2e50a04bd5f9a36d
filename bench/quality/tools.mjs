// The bench's own measuring tools, installed into bench/.work and never into AMTP's dependencies or
// the measured package's package.json: StrykerJS 9.x (the last line that runs on Node 20) with the
// runner plugin of the package's framework, and coverage.py from Debian for Python. Versions are
// exact, so figures are comparable across runs. JavaScript coverage is istanbul's, from AMTP's own
// devDependencies (istanbulInPlace.mjs) or jest's.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { WORK, installRunner, sh } from './prepare.mjs';

export const STRYKER = '9.6.1';

/** The Stryker test-runner plugin per framework; the command runner (built into core) for the rest. */
export const STRYKER_RUNNER = {
  mocha: '@stryker-mutator/mocha-runner',
  jest: '@stryker-mutator/jest-runner',
  vitest: '@stryker-mutator/vitest-runner',
  'node-tap': '@stryker-mutator/tap-runner',
};

/** What the measuring node_modules adds to the package's own dependencies and framework. */
function toolsFor(framework) {
  return { '@stryker-mutator/core': STRYKER, ...(STRYKER_RUNNER[framework] ? { [STRYKER_RUNNER[framework]]: STRYKER } : {}) };
}

/**
 * node_modules for the bench's measurements of one package: its dependencies, its framework at the
 * same range as for AMTP's run, and the tools above (cached per package × framework).
 */
export function measureModules(subject, framework, source, runners) {
  return join(installRunner(subject, framework, source, runners, toolsFor(framework)).dir, 'node_modules');
}

/** A folder to put on PYTHONPATH that holds coverage.py (Debian's python3-coverage, unpacked, cached). */
export function pythonCoverage() {
  const root = join(WORK, 'tools', 'python3-coverage');
  const site = join(root, 'usr/lib/python3/dist-packages');
  if (existsSync(join(site, 'coverage'))) return site;
  const debs = join(WORK, 'debs');
  mkdirSync(debs, { recursive: true });
  const have = () => readdirSync(debs).find((f) => f.startsWith('python3-coverage_') && f.endsWith('.deb'));
  if (!have()) sh('apt-get', ['download', 'python3-coverage'], debs, 'fetching python3-coverage (run `apt-get update` first)');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  sh('dpkg', ['-x', join(debs, have()), root], debs, 'unpacking python3-coverage');
  return site;
}

/** The version of a package in a node_modules folder, or undefined. */
export function versionIn(nodeModules, name) {
  const file = join(nodeModules, name, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
}
