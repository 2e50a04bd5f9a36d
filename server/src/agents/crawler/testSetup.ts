import type { DetectedFramework, TestSetup } from '../../contracts/types';
import { FRAMEWORK_REGISTRY } from '../../frameworks/registry';
import type { NpmPackage } from './manifests';

const TEST_FILE = /(^|\/)(test_[^/]+\.py|[^/]+_test\.py|[^/]+\.(test|spec)\.[cm]?[jt]sx?)$/;
const TEST_DIR = /(^|\/)(tests?|__tests__|spec|e2e)(\/|$)/;
/** Every test file is a JS/TS/Python file; most files of a large tree are not, and fail this first. */
const CODE_FILE = /\.([cm]?[jt]sx?|py)$/;
const DESCRIPTORS = Object.values(FRAMEWORK_REGISTRY);
/** Every runner config name contains one of these. */
const CONFIG_HINT = new RegExp(DESCRIPTORS.flatMap((d) => (d.detection.configHint ? [d.detection.configHint.source] : [])).join('|'));

export interface TestSetupInput {
  /** the tree's files; only those `mayBeTestEvidence` accepts matter */
  files: string[];
  rootPkg?: NpmPackage;
  packageManager?: string;
  pyproject?: string;
  setupCfg?: string;
  toxIni?: string;
  pyDeps: string[];
  isPython: boolean;
}

/**
 * False for a file that can be neither a runner config (those count only at most three folders down)
 * nor a test file (whose names end like JS/TS/Python code: in s, x or y). Cheap, for large trees.
 */
export function mayBeTestEvidence(path: string): boolean {
  const last = path.charCodeAt(path.length - 1);
  if (last === 0x73 || last === 0x78 || last === 0x79) return true;
  let slashes = 0;
  for (let i = path.indexOf('/'); i >= 0 && slashes < 3; i = path.indexOf('/', i + 1)) slashes++;
  return slashes <= 2;
}

type Vote = (f: DetectedFramework, why: string) => void;

/** The existing test setup: framework, folders, naming pattern, command and the evidence for each. */
export function detectTestSetup(inp: TestSetupInput): TestSetup {
  const votes = new Map<DetectedFramework, string[]>();
  const vote: Vote = (f, why) => votes.set(f, [...(votes.get(f) ?? []), why]);
  const configFiles = configFileVotes(inp.files, vote);
  const pkg = inp.rootPkg?.json;
  const script =
    typeof pkg?.scripts?.test === 'string' && !/no test specified/.test(pkg.scripts.test) ? (pkg.scripts.test as string) : undefined;
  if (script) scriptVotes(script, vote);
  packageVotes(pkg, vote);
  configFiles.push(...pythonConfigVotes(inp, vote));
  const testFiles = inp.files.filter((f) => CODE_FILE.test(f) && (TEST_FILE.test(f) || TEST_DIR.test(f)));
  if (inp.isPython && testFiles.some((f) => f.endsWith('.py')) && !votes.has('pytest'))
    vote('unittest', 'test_*.py files without pytest configuration');
  // Strongest evidence first: the test script names the runner that CI actually runs.
  const ranked = [...votes.entries()].sort((a, b) => score(b[1]) - score(a[1]));
  const framework = ranked[0]?.[0] ?? 'none';
  const setup: TestSetup = { framework, test_dirs: testDirs(testFiles), config_files: [...new Set(configFiles)] };
  if (ranked.length > 1) setup.others = ranked.slice(1).map(([f]) => f);
  const pattern = namingPattern(testFiles);
  if (pattern) setup.naming_pattern = pattern;
  const command = testCommand(script, inp.packageManager, framework);
  if (command) setup.command = command;
  if (ranked[0]) setup.evidence = ranked[0][1].join(', ');
  return setup;
}

/** Runner config files near the root; each one is a vote for its runner. */
function configFileVotes(files: string[], vote: Vote): string[] {
  const configFiles: string[] = [];
  for (const f of files) {
    if (!CONFIG_HINT.test(f)) continue; // one cheap test per file; the precise ones below run on few
    for (const { id, detection } of DESCRIPTORS)
      for (const re of detection.configFiles)
        if (re.test(f) && f.split('/').length <= 3) {
          configFiles.push(f);
          vote(id, f);
        }
  }
  return configFiles;
}

/** The runner package.json's test script starts. */
function scriptVotes(script: string, vote: Vote): void {
  for (const { id, detection } of DESCRIPTORS) if (detection.script.test(script)) vote(id, 'scripts.test');
}

/** Runners among package.json's dependencies, and their config keys in it. */
function packageVotes(pkg: NpmPackage['json'] | undefined, vote: Vote): void {
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
  for (const { id, detection } of DESCRIPTORS)
    for (const p of detection.packages) if (deps[p]) vote(id, `package.json devDependencies.${p}`);
  for (const { id, detection } of DESCRIPTORS) {
    const key = detection.packageJsonKey;
    if (key && pkg?.[key]) vote(id, `package.json "${key}" key`);
  }
}

/** pytest's sections in pyproject.toml, setup.cfg and tox.ini, and pytest among the dependencies; returns the config files. */
function pythonConfigVotes(inp: TestSetupInput, vote: Vote): string[] {
  const configFiles: string[] = [];
  if (/^\[tool\.pytest/m.test(inp.pyproject ?? '')) {
    vote('pytest', 'pyproject.toml [tool.pytest.ini_options]');
    configFiles.push('pyproject.toml');
  }
  if (/^\[tool:pytest\]/m.test(inp.setupCfg ?? '')) {
    vote('pytest', 'setup.cfg [tool:pytest]');
    configFiles.push('setup.cfg');
  }
  if (/^\[pytest\]/m.test(inp.toxIni ?? '')) vote('pytest', 'tox.ini [pytest]');
  if (inp.pyDeps.includes('pytest')) vote('pytest', 'Python dependencies');
  return configFiles;
}

function testCommand(script: string | undefined, packageManager: string | undefined, framework: DetectedFramework): string | undefined {
  if (script) return packageManager === 'yarn' ? 'yarn test' : packageManager === 'pnpm' ? 'pnpm test' : 'npm test';
  return framework === 'pytest' ? 'pytest' : framework === 'unittest' ? 'python -m unittest' : undefined;
}

function score(evidence: string[]): number {
  return evidence.reduce((n, e) => n + (e === 'scripts.test' ? 10 : /config|ini|\.mocharc|conftest|\[/.test(e) ? 5 : 2), 0);
}

function testDirs(testFiles: string[]): string[] {
  const dirs = new Map<string, number>();
  for (const f of testFiles) {
    const m = /^(.*?(?:^|\/)(?:tests?|__tests__|spec|e2e))(?:\/|$)/.exec(f);
    const dir = m ? m[1] : f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.';
    dirs.set(dir, (dirs.get(dir) ?? 0) + 1);
  }
  return [...dirs.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 10)
    .map(([d]) => d);
}

function namingPattern(testFiles: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const f of testFiles) {
    const base = f.slice(f.lastIndexOf('/') + 1);
    const m = /\.(test|spec)(\.[cm]?[jt]sx?)$/.exec(base);
    const p = m
      ? `*.${m[1]}${m[2]}`
      : /^test_.*\.py$/.test(base)
        ? 'test_*.py'
        : /_test\.py$/.test(base)
          ? '*_test.py'
          : /\.[cm]?[jt]sx?$/.test(base)
            ? `*${base.slice(base.lastIndexOf('.'))}`
            : undefined;
    if (p) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
