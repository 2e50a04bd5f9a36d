// How a JavaScript test run is measured, with nothing installed in the user's project:
// - node:test, mocha, vitest: Node's own V8 coverage (NODE_V8_COVERAGE), converted by v8-to-istanbul
//   (server/src/coverage/v8.ts); vitest's transformed modules map back through their source maps.
// - jest: its built-in V8 provider (part of jest itself), because jest runs modules inside vm
//   contexts with its own wrapper, which only jest can undo.
// Python is measured by server/src/coverage/python.ts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Framework } from '../core/frameworks';
import { withSyntaxStatements } from './statements';
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

export function jsMeasurement(framework: Exclude<Framework, 'pytest'>, covDir: string, dir: string, files: string[]): JsMeasurement {
  if (framework === 'jest') {
    const collectFrom = files.flatMap((f) => ['--collectCoverageFrom', f]);
    return {
      args: ['--coverage', '--coverageProvider=v8', '--coverageReporters=json', `--coverageDirectory=${covDir}`, ...collectFrom],
      env: {},
      tool: 'jest (v8)',
      collect: async () => {
        const file = join(covDir, 'coverage-final.json');
        if (!existsSync(file)) return undefined;
        const raw = JSON.parse(readFileSync(file, 'utf8')) as IstanbulMap;
        // jest's v8 report has a statement per line: re-read as nyc counts them (./statements.ts), by line.
        const map = Object.fromEntries(Object.entries(raw).map(([f, d]) => [f, withSyntaxStatements(d, f)]));
        return { map, units: unitsOf(map, dir) };
      },
    };
  }
  const v8Dir = join(covDir, 'v8');
  return {
    args: [],
    env: v8Env(v8Dir),
    tool: 'node (v8)',
    collect: async () => {
      if (!existsSync(v8Dir)) return undefined;
      const map = await v8ToMap(v8Dir, dir, files);
      return { map, units: unitsOf(map, dir) };
    },
  };
}
