// Which files the project's own test command runs: package.json `scripts.test` split into argv by
// shell-quote, then the runner's file arguments or its config (package.json keys, `.mocharc.*`,
// pytest.ini, pyproject `[tool.pytest.ini_options]`), else the runner's documented defaults. mocha
// before 8 also takes words from `./test/mocha.opts` (mochaOpts.ts).
// frameworks/layout.ts names AMTP's test files so that these patterns match them.
import { load as loadYaml } from 'js-yaml';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as shellParse } from 'shell-quote';
import { parse as parseToml } from 'smol-toml';
import type { TestRuns } from '../../contracts/types';
import { FRAMEWORK_REGISTRY, runnerName } from '../../frameworks/registry';
import { mochaOpts } from './mochaOpts';
import { configRuns, type ConfigRuns } from './runnerConfigs';

export interface TestRunsInput {
  /** the root package.json, parsed */
  pkg?: Record<string, unknown>;
  /** root-relative paths of the workspace's files */
  files: ReadonlySet<string>;
  read: (path: string) => Promise<string | undefined>;
  pyproject?: string;
  isPython: boolean;
}

const JS_EXT = '{js,cjs,mjs}';
const DESCRIPTORS = Object.values(FRAMEWORK_REGISTRY);
/** The runners' defaults, from their documentation (each framework's descriptor). */
const DEFAULTS: Record<string, string[]> = Object.fromEntries(DESCRIPTORS.map((d) => [runnerName(d), d.detection.defaultPatterns]));
/** The commands that start a runner; `node` starts node:test only with --test (detectTestRuns). */
const RUNNERS = new Set([...DESCRIPTORS.map(runnerName).filter((n) => n !== 'node-test'), 'node']);
/** Commands that start the next word (`npx mocha`, `c8 mocha`, `cross-env X=1 jest`). */
const WRAPPERS = new Set([
  'npx',
  'c8',
  'nyc',
  'cross-env',
  'dotenv',
  'env',
  'pnpm',
  'yarn',
  'exec',
  'time',
  'uv',
  'poetry',
  'pipenv',
  'hatch',
]);
/** Options of the runners that take a value, so the value is not read as a file. */
const VALUED = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--extension',
  '-t',
  '--timeout',
  '-R',
  '--reporter',
  '-O',
  '--reporter-option',
  '-u',
  '--ui',
  '--config',
  '-c',
  '--grep',
  '-g',
  '--fgrep',
  '-f',
  '--file',
  '--ignore',
  '--exclude',
  '--slow',
  '-s',
  '--retries',
  '-j',
  '--jobs',
  '--package',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-name-pattern',
  '--experimental-loader',
  '--rootDir',
  '--testTimeout',
  '-k',
  '-m',
  '-p',
  '--maxfail',
  '--rootdir',
  '--cov',
  '--cov-report',
  '--tb',
  '--env',
  '--environment',
  '--project',
  '--opts',
  '--compilers',
  '--watch-extensions',
  '--reporter-options',
]);

interface Invocation {
  runner: string;
  args: string[];
  command: string;
}

/** The test command's runner and the files it runs; undefined when there is no test command AMTP can read. */
export async function detectTestRuns(inp: TestRunsInput): Promise<TestRuns | undefined> {
  const scripts = objectAt(inp.pkg, 'scripts');
  const script = typeof scripts.test === 'string' && !/no test specified/.test(scripts.test) ? scripts.test : undefined;
  const own = script
    ? findRunner(script, scripts, 0)
    : inp.isPython && (await pytestConfigured(inp))
      ? { runner: 'pytest', args: [], command: 'pytest' }
      : undefined;
  if (!own) return undefined;
  const base = { runner: own.runner, command: script ?? own.command };
  const opts = own.runner === 'mocha' ? await mochaOpts({ pkg: inp.pkg ?? {}, files: inp.files, read: inp.read }, own.args) : undefined;
  // mocha puts the opts file's words before the command's own.
  const inv = opts ? { ...own, args: [...opts.words, ...own.args] } : own;
  const fromArgs = fileArgs(inv);
  if (inv.runner === 'node' && !inv.args.some((a) => a === '--test' || a.startsWith('--test='))) {
    // `node SCRIPT`: a script of the project's own decides which files run.
    return { ...base, runner: 'node-script', patterns: fromArgs.slice(0, 1), source: 'scripts.test' };
  }
  const runner = inv.runner === 'node' ? 'node-test' : inv.runner;
  // The opts file counts as a source when it names files or how folders are searched.
  const optsShapes =
    opts && (fileArgs({ ...own, args: opts.words }).length > 0 || opts.words.some((w) => /^--(recursive|extension|compilers)\b/.test(w)));
  const argSource = opts && optsShapes ? (fileArgs(own).length ? `scripts.test and ${opts.file}` : opts.file) : 'scripts.test';
  if (fromArgs.length) return { ...base, runner, patterns: expandArgs(runner, fromArgs, inv.args, inp.files), source: argSource };
  const configured = await fromConfig(runner, inp, inv);
  if (configured) return { ...base, runner, ...configured };
  // No spec anywhere: mocha runs ./test, searched the way the opts file says (`--recursive`).
  if (optsShapes) return { ...base, runner, patterns: expandArgs(runner, ['test'], inv.args, inp.files), source: argSource };
  if (DEFAULTS[runner]) return { ...base, runner, patterns: DEFAULTS[runner], source: `${runner} defaults` };
  return { ...base, runner, patterns: [], source: 'scripts.test' };
}

/** The first runner a script starts, following `npm run X` into other scripts (three levels at most). */
function findRunner(script: string, scripts: Record<string, unknown>, depth: number): Invocation | undefined {
  let words: string[] = [];
  const commands: string[][] = [];
  for (const tok of shellParse(script, (name) => `$${name}`)) {
    if (typeof tok === 'string') words.push(tok);
    else if ('op' in tok && tok.op === 'glob') words.push((tok as { pattern: string }).pattern);
    else if ('op' in tok) {
      commands.push(words);
      words = [];
    }
  }
  commands.push(words);
  for (const cmd of commands) {
    let i = 0;
    while (i < cmd.length && (/^\w+=/.test(cmd[i]) || WRAPPERS.has(cmd[i]) || (cmd[i].startsWith('-') && i > 0))) i++;
    const head = cmd[i]?.replace(/^.*[\\/]/, '');
    if (!head) continue;
    if ((head === 'npm' || head === 'yarn' || head === 'pnpm') && cmd[i + 1] === 'run' && depth < 3) {
      const next = scripts[cmd[i + 2] ?? ''];
      const found = typeof next === 'string' ? findRunner(next, scripts, depth + 1) : undefined;
      if (found) return found;
      continue;
    }
    if (/^python[\d.]*$/.test(head) && cmd[i + 1] === '-m' && cmd[i + 2] === 'pytest')
      return { runner: 'pytest', args: cmd.slice(i + 3), command: cmd.join(' ') };
    if (RUNNERS.has(head)) return { runner: head, args: cmd.slice(i + 1), command: cmd.join(' ') };
  }
  return undefined;
}

/** The words of the command that name files, folders or globs (options and their values skipped). */
function fileArgs(inv: Invocation): string[] {
  const out: string[] = [];
  for (let i = 0; i < inv.args.length; i++) {
    const a = inv.args[i];
    if (a === '--spec' && inv.args[i + 1]) out.push(inv.args[++i]);
    else if (a.startsWith('--spec=')) out.push(a.slice(7));
    else if (a.startsWith('-')) {
      if (VALUED.has(a)) i++;
    } else if (!/^(run|watch|test)$/.test(a) || inv.runner !== 'vitest') out.push(a.replace(/^\.\//, ''));
  }
  // jest and vitest read their words as filters on their own patterns, not as files.
  return inv.runner === 'jest' || inv.runner === 'vitest' ? [] : out;
}

/** A folder argument stands for the runner's files inside it. */
function expandArgs(runner: string, args: string[], all: string[], files: ReadonlySet<string>): string[] {
  const recursive = all.includes('--recursive');
  const ext = runner === 'mocha' ? mochaExtensions(all) : JS_EXT;
  return args.flatMap((a) => {
    const dir = a.replace(/\/$/, '');
    // A folder: named with a slash, holding files, or a name without an extension (`mocha test`).
    const isDir =
      !/[*?{[]/.test(a) && !files.has(dir) && (a.endsWith('/') || !/\.\w+$/.test(dir) || [...files].some((f) => f.startsWith(`${dir}/`)));
    if (!isDir) return [a];
    if (runner === 'mocha') return [`${dir}/${recursive ? '**/' : ''}*.${ext}`];
    if (runner === 'pytest') return DEFAULTS.pytest.map((p) => `${dir}/${p}`);
    return (DEFAULTS[runner] ?? [`**/*.${JS_EXT}`]).map((p) => `${dir}/${p}`);
  });
}

/** The extensions mocha looks for in a folder: its own, and those `--extension` (mocha 6+) or `--compilers ext:module` (mocha 5) add. */
function mochaExtensions(all: string[]): string {
  const added = all.flatMap((a, i) => {
    const value = a.startsWith('--extension=') ? a.slice(12) : all[i - 1] === '--extension' ? a : '';
    const compiler = all[i - 1] === '--compilers' ? a.split(',').map((c) => c.split(':')[0]) : [];
    return [...value.split(','), ...compiler].map((e) => e.replace(/^\./, '')).filter((e) => /^[\w-]+$/.test(e));
  });
  const exts = [...new Set(['js', 'cjs', 'mjs', ...added])];
  return `{${exts.join(',')}}`;
}

async function fromConfig(runner: string, inp: TestRunsInput, inv: Invocation): Promise<ConfigRuns | undefined> {
  const pkg = inp.pkg ?? {};
  const avaFiles = objectAt(pkg, 'ava').files;
  if (runner === 'ava' && Array.isArray(avaFiles))
    return { patterns: strings(avaFiles).filter((p) => !p.startsWith('!')), source: 'package.json ava.files' };
  const configArg = inv.args.find((a, i) => i > 0 && (inv.args[i - 1] === '--config' || inv.args[i - 1] === '-c'));
  const fromRunner = await configRuns(runner, {
    pkg,
    files: inp.files,
    read: inp.read,
    defaults: DEFAULTS,
    ...(configArg ? { configArg } : {}),
  });
  if (fromRunner) return fromRunner;
  if (runner === 'mocha') return mochaConfig(pkg, inp);
  if (runner === 'pytest') return pytestConfig(inp);
  return undefined;
}

async function mochaConfig(pkg: Record<string, unknown>, inp: TestRunsInput): Promise<Pick<TestRuns, 'patterns' | 'source'> | undefined> {
  for (const name of ['.mocharc.json', '.mocharc.jsonc', '.mocharc.yml', '.mocharc.yaml']) {
    if (!inp.files.has(name)) continue;
    const text = await inp.read(name);
    let cfg: unknown;
    try {
      cfg = name.endsWith('.json') || name.endsWith('.jsonc') ? parseJsonc(text ?? '') : loadYaml(text ?? '');
    } catch {
      continue; // an unreadable config: mocha's own error will say why; AMTP keeps its defaults
    }
    const spec = (cfg as { spec?: unknown } | null)?.spec;
    if (spec !== undefined)
      return {
        patterns: (Array.isArray(spec) ? strings(spec) : [String(spec)]).map((s) => s.replace(/^\.\//, '')),
        source: `${name} spec`,
      };
  }
  const spec = objectAt(pkg, 'mocha').spec;
  if (spec !== undefined) return { patterns: Array.isArray(spec) ? strings(spec) : [String(spec)], source: 'package.json mocha.spec' };
  return undefined;
}

async function pytestConfig(inp: TestRunsInput): Promise<Pick<TestRuns, 'patterns' | 'source'> | undefined> {
  let opts: { testpaths?: unknown; python_files?: unknown } | undefined;
  let source = '';
  const ini = inp.files.has('pytest.ini') ? await inp.read('pytest.ini') : undefined;
  if (ini !== undefined) {
    opts = iniSection(ini, 'pytest');
    source = 'pytest.ini';
  } else if (inp.pyproject && /^\[tool\.pytest/m.test(inp.pyproject)) {
    try {
      const toml = parseToml(inp.pyproject) as { tool?: { pytest?: { ini_options?: typeof opts } } };
      opts = toml.tool?.pytest?.ini_options;
      source = 'pyproject.toml [tool.pytest.ini_options]';
    } catch {
      return undefined; // pyproject.toml that is not TOML: pytest will say so itself
    }
  } else {
    // pytest's own order: tox.ini [pytest], then setup.cfg [tool:pytest].
    for (const [file, section] of [
      ['tox.ini', 'pytest'],
      ['setup.cfg', 'tool:pytest'],
    ] as const) {
      const text = inp.files.has(file) ? await inp.read(file) : undefined;
      if (text === undefined || !text.includes(`[${section}]`)) continue;
      opts = iniSection(text, section);
      source = `${file} [${section}]`;
      break;
    }
  }
  if (!opts) return undefined;
  const list = (v: unknown) => (Array.isArray(v) ? strings(v) : typeof v === 'string' ? v.split(/\s+/).filter(Boolean) : []);
  const dirs = list(opts.testpaths).map((d) => d.replace(/^\.\//, '').replace(/\/$/, ''));
  const names = list(opts.python_files);
  if (!dirs.length && !names.length) return undefined;
  const basenames = names.length ? names : ['test_*.py', '*_test.py'];
  return { patterns: (dirs.length ? dirs : ['']).flatMap((d) => basenames.map((n) => (d ? `${d}/**/${n}` : `**/${n}`))), source };
}

/** A pytest config of any of the kinds pytest reads: pytest.ini, pyproject.toml, tox.ini [pytest], setup.cfg [tool:pytest]. */
async function pytestConfigured(inp: TestRunsInput): Promise<boolean> {
  if (inp.files.has('pytest.ini') || /^\[tool\.pytest/m.test(inp.pyproject ?? '')) return true;
  for (const [file, section] of [
    ['tox.ini', '[pytest]'],
    ['setup.cfg', '[tool:pytest]'],
  ])
    if (inp.files.has(file) && ((await inp.read(file)) ?? '').split(/\r?\n/).some((l) => l.trim() === section)) return true;
  return false;
}

/** `key = value` lines of one INI section; a value may continue on indented lines (pytest's own format). */
function iniSection(text: string, section: string): Record<string, string> {
  const out: Record<string, string> = {};
  let inside = false;
  let key = '';
  for (const line of text.split(/\r?\n/)) {
    const head = /^\[([^\]]+)\]/.exec(line);
    if (head) inside = head[1].trim() === section;
    else if (!inside || /^\s*[#;]/.test(line)) continue;
    else if (/^\s+\S/.test(line) && key) out[key] += ` ${line.trim()}`;
    else {
      const m = /^([\w.-]+)\s*[=:]\s*(.*)$/.exec(line);
      if (m) out[(key = m[1])] = m[2].trim();
    }
  }
  return out;
}

/** `obj[key]` when it is a plain object, else an empty one (package.json is whatever the person wrote). */
function objectAt(obj: Record<string, unknown> | undefined, key: string): Record<string, unknown> {
  const v = obj?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function strings(v: unknown[]): string[] {
  return v.filter((x): x is string => typeof x === 'string');
}
