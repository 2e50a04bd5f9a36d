// The project's own lint and format config, applied to the test files AMTP wrote (issue 27 item 5):
// Prettier (`--write`) and ESLint (`--fix`, then what is left) for JavaScript/TypeScript; ruff
// (`format`, `check --fix`) or black for Python. Only where the project configures the tool and
// has it installed: its own binary (node_modules of the workspace or a folder above it; ruff and
// black on PATH), never one AMTP brings. Their configs are code (eslint.config.js) and the tools
// are the project's, so they run only under the run's "run workspace code" approval (tests.run),
// confined like a test run (spawn.ts). What cannot be made to pass is said, never hidden.
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { exec } from './spawn';

export interface StyleOutcome {
  tool: 'prettier' | 'eslint' | 'ruff' | 'black';
  files: string[];
  /** the tool exited cleanly: the files pass it as the project configures it */
  passed: boolean;
  /** what is left when they do not (the tool's first lines) */
  problems?: string;
}

const PRETTIER_CONFIGS = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.json5',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  '.prettierrc.toml',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
];
const ESLINT_CONFIGS = [
  'eslint.config.js',
  'eslint.config.cjs',
  'eslint.config.mjs',
  'eslint.config.ts',
  '.eslintrc',
  '.eslintrc.js',
  '.eslintrc.cjs',
  '.eslintrc.json',
  '.eslintrc.yaml',
  '.eslintrc.yml',
];

function packageJson(workspace: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The entry of a package's bin, from the nearest node_modules at or above `from`. */
function binOf(from: string, pkg: string, bin: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', pkg, 'package.json');
    if (existsSync(manifest)) {
      try {
        const b = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> }).bin;
        const rel = typeof b === 'string' ? b : b?.[bin];
        return rel ? join(dirname(manifest), rel) : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

/** The tools this project configures and has installed, for these files. */
export function projectStyleTools(
  workspace: string,
  files: string[],
): { tool: StyleOutcome['tool']; cmd: string; argv: (f: string[]) => string[][] }[] {
  const pkg = packageJson(workspace);
  const has = (names: string[]) => names.some((n) => existsSync(join(workspace, n)));
  const js = files.filter((f) => /\.[cm]?[jt]sx?$/.test(f));
  const py = files.filter((f) => f.endsWith('.py'));
  const out: ReturnType<typeof projectStyleTools> = [];
  const node = process.execPath;
  const prettier = js.length && (has(PRETTIER_CONFIGS) || 'prettier' in pkg) ? binOf(workspace, 'prettier', 'prettier') : undefined;
  if (prettier) out.push({ tool: 'prettier', cmd: node, argv: (f) => [[prettier, '--write', ...f]] });
  const eslint = js.length && (has(ESLINT_CONFIGS) || 'eslintConfig' in pkg) ? binOf(workspace, 'eslint', 'eslint') : undefined;
  if (eslint) out.push({ tool: 'eslint', cmd: node, argv: (f) => [[eslint, '--fix', ...f]] });
  const pyproject = existsSync(join(workspace, 'pyproject.toml')) ? readFileSync(join(workspace, 'pyproject.toml'), 'utf8') : '';
  const ruff = py.length && (has(['ruff.toml', '.ruff.toml']) || /^\[tool\.ruff\b/m.test(pyproject)) ? onPath('ruff') : undefined;
  if (ruff)
    out.push({
      tool: 'ruff',
      cmd: ruff,
      argv: (f) => [
        ['format', ...f],
        ['check', '--fix', ...f],
      ],
    });
  const black = py.length && !ruff && /^\[tool\.black\]/m.test(pyproject) ? onPath('black') : undefined;
  if (black) out.push({ tool: 'black', cmd: black, argv: (f) => [[...f]] });
  return out;
}

/** Runs each configured tool over the files it handles; the last step's exit says whether they pass. */
export async function applyProjectStyle(
  workspace: string,
  files: string[],
  opts: { timeoutMs: number; signal?: AbortSignal; onSpawn?: (pid: number) => void },
): Promise<StyleOutcome[]> {
  const outcomes: StyleOutcome[] = [];
  for (const t of projectStyleTools(workspace, files)) {
    const mine = files.filter((f) => (t.tool === 'ruff' || t.tool === 'black' ? f.endsWith('.py') : !f.endsWith('.py')));
    let passed = true;
    let problems = '';
    for (const args of t.argv(mine)) {
      const p = await exec(t.cmd, args, workspace, {}, opts.timeoutMs, opts.signal, opts.onSpawn);
      passed = p.code === 0;
      if (!passed) problems = firstLines(p.timedOut ? `timed out after ${Math.round(opts.timeoutMs / 1000)} s\n${p.output}` : p.output);
    }
    outcomes.push({ tool: t.tool, files: mine, passed, ...(passed ? {} : { problems }) });
  }
  return outcomes;
}

function firstLines(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(0, 12)
    .join('\n')
    .slice(0, 1500);
}
