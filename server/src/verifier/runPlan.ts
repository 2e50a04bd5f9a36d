// How to run the written tests the way the user's terminal would: the project's own runner binary
// (looked up in node_modules from the workspace upwards), the options the engineer's run command
// carries (jest --config, --import tsx, NODE_OPTIONS, PYTHONPATH), and the coverage tool.
import type { Framework } from '../core/frameworks';
import type { Confinement } from '../core/run';
import { networkConfinement } from '../frameworks/run/confine';
import { pythonWithPytest } from '../frameworks/run/python';
import { findRunnerDir, runnerPackage, unsupportedVersion } from '../frameworks/run/runnerBin';
import { nodeLoader } from '../frameworks/run/tsLoader';

export interface RunPlan {
  framework: Framework;
  binDir: string;
  args: string[];
  env: Record<string, string>;
  python?: string;
  /** why coverage cannot be measured (the filter is then skipped), if so */
  noCoverage?: string;
  /** how the runner is confined on this machine (frameworks/run/confine.ts); part of the plan, so a replay reports the recorded one */
  confinement?: Confinement;
  /** AMTP's own module loader stood in (server/src/frameworks/run/tsLoader.ts): what the project's own command needs */
  loaderNote?: string;
}

/** A plan, or the reason the tests cannot run here (then the verifier is skipped, nothing asked). */
export function planRun(framework: Framework, workspace: string, command: string, testFiles: string[]): RunPlan | { cannot: string } {
  const plan = runnerPlan(framework, workspace, command, testFiles);
  return 'cannot' in plan ? plan : { ...plan, confinement: networkConfinement() };
}

function runnerPlan(framework: Framework, workspace: string, command: string, testFiles: string[]): RunPlan | { cannot: string } {
  const env: Record<string, string> = {};
  for (const m of command.matchAll(/(?:^|\s)([A-Z_][A-Z0-9_]*)=(\S+)/g)) env[m[1]] = m[2];
  const args: string[] = [];
  if (framework === 'pytest') {
    const python = pythonWithPytest(workspace);
    if (!python) return { cannot: "pytest is not installed for python3 (python3 -m pytest fails), nor in the project's .venv" };
    // Coverage needs nothing installed: coverage.py when present, else AMTP's tracer (server/src/coverage/python.ts).
    return { framework, binDir: workspace, args, env, python };
  }
  // TypeScript and JSON imports in ESM: the project's tsx, else AMTP's own loader (and a note saying what the project needs).
  const loader =
    framework === 'node-test' || framework === 'mocha'
      ? nodeLoader(workspace, testFiles, /--import[= ]tsx\b|--node-option[= ]import=tsx\b/.test(command))
      : undefined;
  const note = loader?.note ? { loaderNote: loader.note } : {};
  if (framework === 'node-test') {
    if (loader) args.push('--import', loader.importSpec);
    return { framework, binDir: workspace, args, env, ...note };
  }
  const binDir = findRunnerDir(workspace, framework);
  if (!binDir) {
    const pkg = runnerPackage(framework).pkg;
    return { cannot: `${framework} is not installed (no node_modules/${pkg} with a runnable \`bin\` in the workspace or above)` };
  }
  const tooOld = unsupportedVersion(binDir, framework);
  if (tooOld) return { cannot: tooOld };
  const config = /--config[= ](\S+)/.exec(command)?.[1];
  if (framework === 'jest' && config) args.push('--config', config.replace(/^['"]|['"]$/g, ''));
  if (framework === 'mocha' && loader) args.push('--node-option', `import=${loader.importSpec}`);
  // Coverage is Node's own V8 coverage or jest's built-in provider (server/src/coverage/measure.ts).
  return { framework, binDir, args, env, ...note };
}
