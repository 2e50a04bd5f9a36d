// How a JavaScript test run is measured, with nothing installed in the user's project:
// - node:test, mocha, vitest: Node's own V8 coverage (NODE_V8_COVERAGE), converted by v8-to-istanbul
//   (server/src/coverage/v8.ts); vitest's transformed modules map back through their source maps,
//   recorded in the test process by a preload (`sourcesPreload`: server/src/frameworks/assets/amtp.v8-sources.cjs).
// - jest: its built-in babel provider (istanbul's instrumenter, part of jest itself), because jest runs
//   modules inside vm contexts with its own wrapper, which only jest can undo. Its statements are
//   istanbul's, counted on the code jest runs and mapped back through the transformer's source map
//   (ts-jest's CommonJS for TypeScript), as nyc counts them: they are taken as they are.
// Python is measured by server/src/coverage/python.ts.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Framework } from '../core/frameworks';
import { perTestEnv, perTestMeasurement, readSegments, type PerTestUnits } from './perTest';
import { unitsOf, type IstanbulMap, type MeasuredUnits } from './units';
import { v8Env, v8ToMap, readScripts } from './v8';
import { readVmSources } from './vmSources';

export interface JsMeasurement {
  /** added to the runner's arguments (before the test files) */
  args: string[];
  env: Record<string, string>;
  /** the tool, as the run record names it */
  tool: string;
  /** reads the coverage after the run; undefined when the run wrote none */
  collect(): Promise<{ map: IstanbulMap; units: MeasuredUnits; perTest?: PerTestUnits } | undefined>;
}

/**
 * Per-test coverage from the one process (./perTest.ts): the preload that takes V8's coverage at each
 * test boundary, as the runner loads it. `spec`: a spec file given before the test files (mocha's
 * root-suite hooks); `nodeOptions`: preloaded into every process (node:test's file processes).
 */
export interface PerTestHook {
  /** the preload's path (for `nodeOptions`, quoted for NODE_OPTIONS) */
  preload: string;
  via: 'spec' | 'nodeOptions';
  /** the case id of the test a take is labelled with (its reported name, and its file when the runner says): frameworks/caseMap.ts */
  idOf: (label: string, file: string) => string | undefined;
}

/** `sourcesPreload`: the NODE_OPTIONS option that preloads the recorder of vm-run modules (V8 runners). */
export function jsMeasurement(
  framework: Exclude<Framework, 'pytest'>,
  covDir: string,
  dir: string,
  files: string[],
  sourcesPreload: string,
  perTest?: PerTestHook,
): JsMeasurement {
  if (framework === 'jest') {
    const collectFrom = files.flatMap((f) => ['--collectCoverageFrom', f]);
    return {
      args: ['--coverage', '--coverageProvider=babel', '--coverageReporters=json', `--coverageDirectory=${covDir}`, ...collectFrom],
      env: {},
      tool: 'jest (istanbul)',
      collect: async () => {
        const file = join(covDir, 'coverage-final.json');
        if (!existsSync(file)) return undefined;
        const map = JSON.parse(readFileSync(file, 'utf8')) as IstanbulMap;
        return { map, units: unitsOf(map, dir, false) };
      },
    };
  }
  const v8Dir = join(covDir, 'v8');
  const sources = join(covDir, 'sources');
  const takes = join(covDir, 'takes');
  mkdirSync(sources, { recursive: true });
  mkdirSync(takes, { recursive: true });
  const preloads = [sourcesPreload, ...(perTest?.via === 'nodeOptions' ? [`--require ${perTest.preload}`] : [])];
  return {
    args: perTest?.via === 'spec' ? [perTest.preload] : [],
    env: {
      ...v8Env(v8Dir),
      AMTP_V8_SOURCES: sources,
      NODE_OPTIONS: preloads.join(' '),
      ...(perTest ? perTestEnv(takes, dir) : {}),
      ...(perTest?.via === 'nodeOptions' ? { AMTP_PERTEST_NODE_TEST: '1' } : {}),
    },
    tool: 'node (v8)',
    collect: async () => {
      // With the per-test preload, NODE_V8_COVERAGE's own files hold only what ran after the last take,
      // and the source maps of the modules a loader transformed: those are read from them.
      const segments = perTest ? readSegments(takes) : [];
      if (segments.length)
        return perTestMeasurement(segments, readScripts(v8Dir).sourceMaps, readVmSources(sources), dir, files, perTest!.idOf);
      if (!existsSync(v8Dir)) return undefined;
      const map = await v8ToMap(v8Dir, dir, files, sources);
      return { map, units: unitsOf(map, dir) };
    },
  };
}
