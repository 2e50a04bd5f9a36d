// Runs written test files with a real runner and reads its machine-readable results.
// Used by the verifier (server/src/verifier), the integration tests and bench/quality.mjs; runner
// binaries come from `binDir`'s node_modules (the project's own, or this repo's when testing fixtures).
//
// Every run is spawned in its own process group (detached) and the whole group is killed on
// timeout or cancellation, so a hanging test or a worker it started never outlives the run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import type { Framework } from '../core/frameworks';
import { jsMeasurement } from '../coverage/measure';
import { pythonUnits, tracedPytest } from '../coverage/python';
import type { IstanbulMap, MeasuredUnits } from '../coverage/units';
import { asset } from './assets';

/** One test as the runner reported it. `name` is the full name (describe titles included). */
export interface TestOutcome {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  message?: string;
  /** workspace-relative, when the runner says */
  file?: string;
}

/** Covered coverage units: `file:s@line:col` statements, `file:b@line:col` branch arms, `file:f@line:col` functions (Python: `l<n>`, `a<from>><to>`). */
export type CoverageUnits = Set<string>;

export interface RunResult {
  total: number;
  passed: number;
  failed: number;
  /** statement coverage in percent of the measured files, when asked for and measurable */
  statements?: number;
  /** branch-arm coverage in percent (JavaScript; coverage.py arcs), when measurable */
  branches?: number;
  /** the istanbul coverage map of the measured files (JavaScript), for lcov/cobertura out */
  map?: IstanbulMap;
  /** what measured it: 'node (v8)', 'jest (v8)', 'coverage.py', 'amtp trace (lines)' */
  coverageTool?: string;
  /** covered units, when coverage was asked for and measurable */
  units?: CoverageUnits;
  /** every unit of the measured files (covered or not), for percentages */
  allUnits?: number;
  /** the keys of those units (a stable denominator across runs is their union) */
  unitKeys?: CoverageUnits;
  output: string;
  /** per-test results, in report order */
  tests: TestOutcome[];
  /** files that failed before any of their tests ran (syntax error, failing import) */
  fileErrors: { file: string; message: string }[];
  timedOut: boolean;
  cancelled: boolean;
  /** the process group leader's pid (the group id) */
  pid?: number;
  exitCode: number | null;
}

export interface RunOptions {
  /** a directory whose node_modules holds the runners */
  binDir: string;
  /** extra CLI args (e.g. jest --config; node-test: node options before --test) */
  args?: string[];
  /** measure coverage of these workspace-relative files (server/src/coverage/: nothing needs to be installed) */
  coverageOf?: string[];
  python?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** run only the tests whose name contains this text (a case id), or any of these */
  grep?: string | string[];
  signal?: AbortSignal;
  /** told the process group id as soon as the runner starts */
  onSpawn?: (pid: number) => void;
}

export async function runTests(framework: Framework, dir: string, files: string[], opts: RunOptions): Promise<RunResult> {
  const out = mkdtempSync(join(tmpdir(), 'amtp-run-'));
  try {
    const { cmd, args, read } = invocation(framework, files, out, opts);
    // Coverage needs nothing in the project (server/src/coverage/): V8 or jest's own provider for
    // JavaScript, coverage.py or AMTP's stdlib tracer for Python.
    const cov = opts.coverageOf?.length ? join(out, 'cov') : undefined;
    const pyReport = join(out, 'coverage.json');
    const covPy = cov && framework === 'pytest' && hasPythonModule(opts.python ?? 'python3', 'coverage');
    const js = cov && framework !== 'pytest' ? jsMeasurement(framework, cov, dir, opts.coverageOf!) : undefined;
    const [c, a] = js ? [cmd, js.args.length ? [args[0], ...js.args, ...args.slice(1)] : args]
      : covPy ? coveragePy(args, opts)
      : cov ? tracedPytest(opts.python ?? 'python3', asset('pytrace.py'), pyReport, opts.coverageOf!, dir, args.slice(2))
      : [cmd, args];
    const env = { ...opts.env, ...js?.env, ...(covPy ? { COVERAGE_FILE: join(out, '.coverage') } : {}) };
    const proc = await exec(c, a, dir, env, opts.timeoutMs ?? 120_000, opts.signal, opts.onSpawn);
    const parsed = read(proc.output, dir);
    let coverage: Pick<RunResult, 'statements' | 'branches' | 'units' | 'allUnits' | 'unitKeys' | 'map' | 'coverageTool'> = {};
    if (cov && !proc.timedOut && !proc.cancelled) {
      if (js) {
        const m = await js.collect();
        if (m) coverage = { ...fromUnits(m.units), map: m.map, coverageTool: js.tool };
      } else {
        if (covPy) await exec(opts.python ?? 'python3', ['-m', 'coverage', 'json', '-o', pyReport], dir, { COVERAGE_FILE: join(out, '.coverage') }, 60_000);
        const m = pythonUnits(pyReport, dir);
        if (m) coverage = { ...fromUnits(m), coverageTool: covPy ? 'coverage.py' : 'amtp trace (lines)' };
      }
    }
    return { ...parsed, output: proc.output, ...dropUndefined(coverage), timedOut: proc.timedOut, cancelled: proc.cancelled, pid: proc.pid, exitCode: proc.code };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

type Parsed = Pick<RunResult, 'total' | 'passed' | 'failed' | 'tests' | 'fileErrors'>;

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function hasPythonModule(python: string, module: string): boolean {
  return spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

function bin(opts: RunOptions, rel: string): string {
  return join(opts.binDir, 'node_modules', rel);
}

function invocation(framework: Framework, files: string[], out: string, opts: RunOptions): { cmd: string; args: string[]; read: (o: string, dir: string) => Parsed } {
  const extra = opts.args ?? [];
  // Case ids are plain hex: a regex alternation for the JS runners, a -k expression for pytest.
  const g = Array.isArray(opts.grep) ? (opts.grep.length ? opts.grep.join(framework === 'pytest' ? ' or ' : '|') : undefined) : opts.grep;
  switch (framework) {
    case 'jest': {
      const file = join(out, 'jest.json');
      const grep = g ? ['-t', g] : [];
      return { cmd: process.execPath, args: [bin(opts, 'jest/bin/jest.js'), '--ci', '--json', `--outputFile=${file}`, '--rootDir', '.', ...grep, ...extra, ...files], read: (_o, dir) => jestLike(file, dir) };
    }
    case 'vitest': {
      const file = join(out, 'vitest.json');
      // Forked workers are killed before V8 writes their coverage; worker threads write it at exit.
      const pool = opts.coverageOf?.length ? ['--pool=threads'] : [];
      const grep = g ? ['-t', g] : [];
      return { cmd: process.execPath, args: [bin(opts, 'vitest/vitest.mjs'), 'run', '--root', '.', '--reporter=json', `--outputFile=${file}`, ...pool, ...grep, ...extra, ...files], read: (_o, dir) => jestLike(file, dir) };
    }
    case 'mocha': {
      const file = join(out, 'mocha.json');
      const grep = g ? ['--grep', g] : [];
      return { cmd: process.execPath, args: [bin(opts, 'mocha/bin/mocha.js'), '--no-config', '--no-package', '--reporter', 'json', '--reporter-option', `output=${file}`, ...grep, ...extra, ...files], read: (_o, dir) => mochaJson(file, dir) };
    }
    case 'node-test': {
      const grep = g ? [`--test-name-pattern=${g}`] : [];
      return { cmd: process.execPath, args: [...extra, '--test', '--test-reporter=tap', ...grep, ...files], read: (o, dir) => tapResults(o, dir) };
    }
    case 'pytest': {
      const file = join(out, 'junit.xml');
      const grep = g ? ['-k', g] : [];
      return { cmd: opts.python ?? 'python3', args: ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${file}`, ...grep, ...extra, ...files], read: () => junitResults(file) };
    }
  }
}

function coveragePy(args: string[], opts: RunOptions): [string, string[]] {
  const include = (opts.coverageOf ?? []).join(',');
  return [opts.python ?? 'python3', ['-m', 'coverage', 'run', '--branch', `--include=${include}`, ...args]];
}

function fromUnits(m: MeasuredUnits): Pick<RunResult, 'statements' | 'branches' | 'units' | 'allUnits' | 'unitKeys'> {
  return dropUndefined({ statements: m.statements, branches: m.branches, units: m.units, allUnits: m.unitKeys.size, unitKeys: m.unitKeys });
}

function relOf(dir: string, file: string): string {
  return (isAbsolute(file) ? relative(dir, file) : file).split('\\').join('/');
}

interface JestLikeReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults?: { name: string; status: string; message?: string; assertionResults: { fullName?: string; title: string; ancestorTitles?: string[]; status: string; failureMessages?: string[] }[] }[];
}

function jestLike(file: string, dir: string): Parsed {
  if (!existsSync(file)) return { total: 0, passed: 0, failed: 0, tests: [], fileErrors: [] };
  const r = JSON.parse(readFileSync(file, 'utf8')) as JestLikeReport;
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  for (const suite of r.testResults ?? []) {
    const rel = relOf(dir, suite.name);
    const ran = suite.assertionResults.filter((a) => a.status === 'passed' || a.status === 'failed');
    if (suite.status === 'failed' && !ran.length) fileErrors.push({ file: rel, message: (suite.message ?? '').trim() || 'the file failed to load' });
    for (const a of suite.assertionResults) {
      const name = a.fullName || [...(a.ancestorTitles ?? []), a.title].join(' ');
      const status = a.status === 'passed' ? 'passed' : a.status === 'failed' ? 'failed' : 'skipped';
      tests.push({ name, status, file: rel, ...(a.failureMessages?.length ? { message: a.failureMessages.join('\n') } : {}) });
    }
  }
  return { total: r.numTotalTests, passed: r.numPassedTests, failed: r.numFailedTests, tests, fileErrors };
}

interface MochaTest { title: string; fullTitle: string; file?: string; err?: { message?: string; stack?: string } }

function mochaJson(file: string, dir: string): Parsed {
  if (!existsSync(file)) return { total: 0, passed: 0, failed: 0, tests: [], fileErrors: [] };
  const r = JSON.parse(readFileSync(file, 'utf8')) as { stats: { tests: number; passes: number; failures: number }; passes?: MochaTest[]; failures?: MochaTest[]; pending?: MochaTest[] };
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  const add = (list: MochaTest[] | undefined, status: TestOutcome['status']) => {
    for (const t of list ?? []) {
      const rel = t.file ? relOf(dir, t.file) : undefined;
      // A failing "before all" hook or a load error is reported as a pseudo-test.
      if (status === 'failed' && /^"(before all|after all)" hook/.test(t.title)) {
        if (rel) fileErrors.push({ file: rel, message: t.err?.message ?? t.title });
        continue;
      }
      tests.push({ name: t.fullTitle, status, ...(rel ? { file: rel } : {}), ...(status === 'failed' ? { message: t.err?.stack || t.err?.message || 'failed' } : {}) });
    }
  };
  add(r.passes, 'passed');
  add(r.failures, 'failed');
  add(r.pending, 'skipped');
  return { total: r.stats.tests, passed: r.stats.passes, failed: r.stats.failures, tests, fileErrors };
}

export function tapCounts(output: string): Omit<RunResult, 'output' | 'tests' | 'fileErrors' | 'timedOut' | 'cancelled' | 'exitCode'> {
  const n = (k: string) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(output)?.[1] ?? 0);
  return { total: n('tests'), passed: n('pass'), failed: n('fail') };
}

/** node:test TAP: leaf `ok`/`not ok` lines (children are printed before their suite's line), YAML diagnostics as the message. */
export function tapResults(output: string, dir = ''): Parsed {
  const lines = output.split('\n');
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  const stack: { indent: number; name: string }[] = [];
  let lastResultIndent = -1;
  for (let i = 0; i < lines.length; i++) {
    const sub = /^(\s*)# Subtest: (.*)$/.exec(lines[i]);
    if (sub) {
      const indent = sub[1].length;
      while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
      stack.push({ indent, name: sub[2] });
      continue;
    }
    const m = /^(\s*)(not ok|ok) \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$/.exec(lines[i]);
    if (!m) continue;
    const indent = m[1].length;
    const name = m[3].replace(/\\#/g, '#');
    const isSuite = lastResultIndent > indent;
    lastResultIndent = indent;
    let message: string | undefined;
    if (lines[i + 1]?.trim() === '---') {
      const block: string[] = [];
      for (let j = i + 2; j < lines.length && lines[j].trim() !== '...'; j++) block.push(lines[j]);
      message = yamlMessage(block);
    }
    while (stack.length && stack.at(-1)!.indent > indent) stack.pop();
    const parents = stack.filter((s) => s.indent < indent).map((s) => s.name);
    if (stack.length && stack.at(-1)!.indent === indent) stack.pop();
    const status: TestOutcome['status'] = m[4] ? 'skipped' : m[2] === 'ok' ? 'passed' : 'failed';
    // A failing top-level entry named after a test file is the file itself (it did not load).
    if (indent === 0 && status === 'failed' && /\.(c|m)?[jt]sx?$/.test(name) && (isAbsolute(name) || name.includes('/'))) {
      fileErrors.push({ file: relOf(dir || '/', name), message: tapDiagnostics(output, name) ?? message ?? 'the file failed to load' });
      continue;
    }
    if (isSuite) continue;
    tests.push({ name: [...parents, name].join(' '), status, ...(status === 'failed' && message ? { message } : {}) });
  }
  return { ...tapCounts(output), tests, fileErrors };
}

/** The error of a node:test YAML diagnostic block first (then expected/actual), not its location. */
function yamlMessage(block: string[]): string {
  const indent = /^\s*/.exec(block[0] ?? '')![0].length;
  const fields = new Map<string, string>();
  for (let k = 0; k < block.length; k++) {
    const m = new RegExp(`^\\s{${indent}}(\\w+):\\s?(.*)$`).exec(block[k]);
    if (!m) continue;
    let value = m[2];
    if (/^[|>]-?$/.test(value)) {
      const more: string[] = [];
      while (k + 1 < block.length && !new RegExp(`^\\s{${indent}}\\w+:`).test(block[k + 1])) more.push(block[++k].trim());
      value = more.join('\n');
    }
    fields.set(m[1], m[1] === 'error' ? value.replace(/^'(.*)'$/, '$1') : value);
  }
  const parts = [fields.get('error'), fields.has('expected') ? `expected: ${fields.get('expected')}` : '', fields.has('actual') ? `actual: ${fields.get('actual')}` : ''].filter(Boolean);
  return parts.length ? parts.join('\n') : block.map((l) => l.trim()).filter((l) => !/^duration_ms:|^type:/.test(l)).join('\n');
}

/** node:test prints a failing file's stderr as `# ` comment lines before its result */
function tapDiagnostics(output: string, file: string): string | undefined {
  const idx = output.indexOf(`# Subtest: ${file}`);
  if (idx < 0) return undefined;
  const end = output.indexOf(`not ok`, idx);
  const text = output.slice(idx, end < 0 ? undefined : end).split('\n').slice(1).map((l) => l.replace(/^\s*# ?/, '')).join('\n').trim();
  return text || undefined;
}

function xmlDecode(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_m, n) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&');
}

function junitResults(file: string): Parsed {
  if (!existsSync(file)) return { total: 0, passed: 0, failed: 0, tests: [], fileErrors: [] };
  const xml = readFileSync(file, 'utf8');
  const attr = (k: string) => Number(new RegExp(`<testsuite[^>]*\\s${k}="(\\d+)"`).exec(xml)?.[1] ?? 0);
  const total = attr('tests') - attr('skipped');
  const failed = attr('failures') + attr('errors');
  const tests: TestOutcome[] = [];
  const fileErrors: Parsed['fileErrors'] = [];
  const re = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    const a = (k: string) => { const v = new RegExp(`\\s${k}="([^"]*)"`).exec(m![1])?.[1]; return v === undefined ? undefined : xmlDecode(v); };
    const name = a('name') ?? '';
    const classname = a('classname') ?? '';
    const body = m[3] ?? '';
    const fail = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    const message = fail ? xmlDecode(`${/message="([^"]*)"/.exec(fail[2])?.[1] ?? ''}\n${fail[3] ?? ''}`).trim() : undefined;
    if (!classname && fail) {
      // collection error: name is the dotted module path of the test file
      fileErrors.push({ file: name.replace(/\./g, '/') + '.py', message: message ?? 'collection failed' });
      continue;
    }
    const status: TestOutcome['status'] = fail ? 'failed' : /<skipped\b/.test(body) ? 'skipped' : 'passed';
    tests.push({ name: `${classname}::${name}`, status, file: classname.replace(/\./g, '/') + '.py', ...(message ? { message } : {}) });
  }
  return { total, passed: total - failed, failed, tests, fileErrors };
}

interface Proc { output: string; code: number | null; timedOut: boolean; cancelled: boolean; pid?: number }

const MAX_OUTPUT = 8 * 1024 * 1024;

/** Spawns `cmd` as the leader of a new process group; on timeout or abort the whole group gets SIGKILL. */
function exec(cmd: string, args: string[], cwd: string, env: Record<string, string>, timeout: number, signal?: AbortSignal, onSpawn?: (pid: number) => void): Promise<Proc> {
  return new Promise((resolve) => {
    let output = '';
    let timedOut = false;
    let cancelled = false;
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env, FORCE_COLOR: '0', NO_COLOR: '1' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const onData = (d: Buffer) => { if (output.length < MAX_OUTPUT) output += d.toString('utf8'); };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    if (child.pid !== undefined) onSpawn?.(child.pid);
    const timer = setTimeout(() => { timedOut = true; killGroup(); }, timeout);
    const onAbort = () => { cancelled = true; killGroup(); };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const done = (code: number | null) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Whatever the tests left running in the group (servers, watchers) goes with the run.
      killGroup();
      resolve({ output, code, timedOut, cancelled, pid: child.pid });
    };
    child.on('error', (e) => { output += `\n${e.message}`; done(null); });
    child.on('close', (code) => done(code));
  });
}
