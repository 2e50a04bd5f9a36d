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
import { unitsOf, type IstanbulMap, type MeasuredUnits } from './units';
import { v8Env, v8ToMap } from './v8';

export interface JsMeasurement {
  /** added to the runner's arguments (before the test files) */
  args: string[];
  env: Record<string, string>;
  /** the tool, as the run record names it */
  tool: string;
  /** reads the coverage after the run; undefined when the run wrote none */
  collect(): Promise<{ map: IstanbulMap; units: MeasuredUnits } | undefined>;
}

/** `sourcesPreload`: the NODE_OPTIONS option that preloads the recorder of vm-run modules (V8 runners). */
export function jsMeasurement(
  framework: Exclude<Framework, 'pytest'>,
  covDir: string,
  dir: string,
  files: string[],
  sourcesPreload: string,
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
  mkdirSync(sources, { recursive: true });
  return {
    args: [],
    env: { ...v8Env(v8Dir), AMTP_V8_SOURCES: sources, NODE_OPTIONS: sourcesPreload },
    tool: 'node (v8)',
    collect: async () => {
      if (!existsSync(v8Dir)) return undefined;
      const map = await v8ToMap(v8Dir, dir, files, sources);
      return { map, units: unitsOf(map, dir) };
    },
  };
}
