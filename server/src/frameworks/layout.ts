// Where a test file goes and how it reaches the module under test.
import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { TestCase, TestRuns } from '../contracts/types';
import { FRAMEWORK_REGISTRY, runnerName } from './registry';
import type { FrameworkRenderer, Project } from './types';

/** The project's first concrete test folder, else the ecosystem default. */
export function testDir(project: Project, renderer: FrameworkRenderer): string {
  const dir = project.test_setup.test_dirs
    .map((d) => d.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, ''))
    .find((d) => d && !/[*?{]/.test(d) && !d.startsWith('..'));
  return dir ?? (renderer.language === 'python' ? 'tests' : 'test');
}

/**
 * `<dir>/<name>` following the project's naming pattern (`*.spec.ts`, `test_*.py`), with `.amtp`
 * in the name so a generated file never lands on a hand-written one.
 */
function testFileName(target: string, project: Project, renderer: FrameworkRenderer): string {
  const stem = stemOf(target, project);
  const pattern = project.test_setup.naming_pattern
    ?.split(/[,\s]+/)
    .find((p) => (p.match(/\*/g) ?? []).length === 1 && patternFits(p, renderer, project));
  if (pattern) return pattern.replace('*', renderer.language === 'python' ? `${stem}_amtp` : `${stem}.amtp`);
  return renderer.language === 'python' ? `test_${stem}_amtp.py` : `${stem}.amtp.test${renderer.extension(project)}`;
}

/** The framework a test command's runner runs, where the names differ (the `tap` binary is node-tap). */
export function frameworkOfRunner(runner: string): string {
  return Object.values(FRAMEWORK_REGISTRY).find((d) => runnerName(d) === runner)?.id ?? runner;
}
/** Where AMTP's files go when the project's own runner must not pick them up. */
export const OWN_DIR = 'amtp-tests';

export interface TestFilePlace {
  /** workspace-relative test file */
  path: string;
  /** why the project's own test command does not run this file, when it does not */
  note?: string;
  /** settings of the runner's config AMTP could not read (computed): the place assumes the runner's defaults for them */
  unread?: string;
}

/**
 * The test file for `target`: the project's folder and naming, moved to a folder and name the
 * project's own test command runs (test_setup.runs); when AMTP writes for another runner than that
 * command starts, a place that command does not look at.
 */
export function testFilePlace(target: string, project: Project, renderer: FrameworkRenderer): TestFilePlace {
  const dir = testDir(project, renderer);
  const preferred = posix.join(dir, testFileName(target, project, renderer));
  const runs = project.test_setup.runs;
  if (!runs) return { path: preferred };
  const runsIt = (path: string) => collects(runs, path);
  const how = `\`${runs.command ?? runs.runner}\` (${runs.source}: ${[...(runs.roots ?? []).map((r) => `roots ${r}`), ...runs.patterns].join(', ') || 'files it picks itself'})`;
  const names = candidateNames(target, project, renderer, runs.patterns);
  // A script of its own, or a runner of another framework than AMTP writes for, must not pick the file up.
  const foreign = foreignRunner(runs, renderer);
  if (!foreign && !runs.patterns.length && !runs.projects?.length) return { path: preferred };
  if (foreign) {
    // Without known patterns (a script of its own), only a folder of AMTP's own is out of its way.
    const unknown = runs.runner === 'node-script' || !runs.patterns.length;
    const keep = [preferred, ...[dir, OWN_DIR].flatMap((d) => names.map((n) => posix.join(d, n)))].find(
      (p) => !runsIt(p) && !(unknown && !p.startsWith(`${OWN_DIR}/`)),
    );
    const path = keep ?? posix.join(OWN_DIR, names[0]);
    const starts =
      runs.runner === 'node-script'
        ? 'a script of its own, whose choice of files AMTP cannot know'
        : `${runs.runner}, which does not run ${renderer.id} tests`;
    return { path, note: `the project's test command ${how} starts ${starts}, so AMTP's file is kept where it does not look.` };
  }
  const unread = runs.unread ? { unread: runs.unread } : {};
  if (runsIt(preferred)) return { path: preferred, ...unread };
  const fits = placeDirs(project, dir, runs)
    .flatMap((d) => names.map((n) => posix.join(d, n)))
    .find(runsIt);
  if (fits) return { path: fits, ...unread };
  return {
    path: preferred,
    note: `the project's test command ${how} names its files, and no new file name fits it.${optsChange(runs, preferred)}`,
    ...unread,
  };
}

/** What to change when the files come from a mocha.opts (mocha before 8): a line naming AMTP's file there, which mocha reads as one more spec. */
function optsChange(runs: TestRuns, path: string): string {
  const file = /(\S+\.opts)$/.exec(runs.source)?.[1];
  return file ? ` To have it run them, add a line \`${path}\` to ${file}.` : '';
}

/** Folders to try, in order: the project's test folders, then inside each root (its __tests__ first), then the patterns' fixed folders. */
function placeDirs(project: Project, dir: string, runs: TestRuns): string[] {
  const concrete = project.test_setup.test_dirs
    .map((d) => d.replace(/^\.\//, '').replace(/\/$/, ''))
    .filter((d) => d && !/[*?{]/.test(d) && !d.startsWith('..'));
  const scopes = runs.projects?.length ? runs.projects : [runs];
  const rooted = scopes.flatMap((s) =>
    (s.roots ?? []).flatMap((r) => [posix.join(r, '__tests__'), r, ...s.patterns.flatMap(dirsOf).map((d) => posix.join(r, d))]),
  );
  return [...new Set([dir, ...concrete, ...rooted, ...scopes.flatMap((s) => s.patterns.flatMap(dirsOf))])].filter(
    (d) => !posix.isAbsolute(d) && !d.startsWith('..'),
  );
}

/**
 * Whether the project's test command runs `path`: inside one of the runner's roots (jest `roots`,
 * vitest `dir`), matching one of its patterns and none of its ignore patterns; with projects, any one.
 */
export function collects(runs: TestRuns, path: string): boolean {
  const scopes = runs.projects?.length ? runs.projects : [runs];
  return scopes.some(
    (s) =>
      (!s.roots?.length || s.roots.some((r) => r === '.' || path.startsWith(`${r.replace(/\/$/, '')}/`))) &&
      s.patterns.some((p) => matches(path, p)) &&
      !(s.ignore ?? []).some((p) => ignores(path, p)),
  );
}

/** jest's testPathIgnorePatterns are regexes over the absolute path (`/node_modules/`); vitest's exclude are globs. */
function ignores(path: string, pattern: string): boolean {
  return /^\/.+\/$/.test(pattern) ? matches(`/${path}`, pattern) : picomatch.isMatch(path, rootRelative(pattern), { dot: true });
}

/** The project's test command starts a script of its own, or a runner of another framework than `renderer`'s. */
export function foreignRunner(runs: Project['test_setup']['runs'], renderer: FrameworkRenderer): boolean {
  if (!runs) return false;
  return runs.runner === 'node-script' || (runs.runner !== undefined && frameworkOfRunner(runs.runner) !== renderer.id);
}

/** The folders testFilePlace may choose from the project's test command, AMTP's own folder included. */
export function runDirs(runs: Project['test_setup']['runs']): string[] {
  if (!runs) return [];
  const scopes = [runs, ...(runs.projects ?? [])];
  const rooted = scopes.flatMap((s) => (s.roots ?? []).filter((r) => r !== '.').map((r) => posix.join(r, '__tests__')));
  return [...new Set([...scopes.flatMap((s) => s.patterns.flatMap(dirsOf)).filter((d) => d !== '.'), ...rooted, OWN_DIR])];
}

function matches(path: string, pattern: string): boolean {
  const re = /^\/(.+)\/$/.exec(pattern);
  if (!re) return picomatch.isMatch(path, rootRelative(pattern), { dot: true });
  // A repository's regex runs here: one with a nested quantifier (`(a+)+`) could take exponential time.
  if (re[1].length > 500 || /\([^)]*[+*}][^)]*\)[+*{]/.test(re[1])) return false;
  try {
    return new RegExp(re[1]).test(path);
  } catch {
    return false; // a jest testRegex JavaScript cannot compile: jest would fail on it too
  }
}

/** `./x` and jest's `<rootDir>/x` are `x`. */
function rootRelative(pattern: string): string {
  return pattern.replace(/^(\.\/|<rootDir>\/)/, '');
}

/** The folders a pattern's files can live in: its fixed base, and that base with the glob's fixed folder names. */
function dirsOf(pattern: string): string[] {
  if (pattern.startsWith('/')) return [];
  const scan = picomatch.scan(rootRelative(pattern));
  const literal = scan.glob
    .split('/')
    .slice(0, -1)
    .filter((s) => s && !/[*?{}[\]()!+@]/.test(s));
  // Only plain folders inside the workspace: no absolute path, no `..`, no dot-folder (.github, .git).
  return [scan.base || '.', posix.join(scan.base || '.', ...literal)].filter(
    (d) => !posix.isAbsolute(d) && (d === '.' || !d.split('/').some((s) => s.startsWith('.'))),
  );
}

/**
 * AMTP's names for a test file, in order of preference; every one of them says `amtp`. A command
 * glob whose file part has one `*` (`*.check.js`, `check_*.py`) gives a name of its own.
 */
function candidateNames(target: string, project: Project, renderer: FrameworkRenderer, patterns: string[]): string[] {
  const stem = stemOf(target, project);
  const first = testFileName(target, project, renderer);
  const own = renderer.language === 'python' ? `${stem}_amtp` : `${stem}.amtp`;
  const fromGlobs = patterns
    .map((p) => p.slice(p.lastIndexOf('/') + 1))
    .filter((b) => /^[^*?{}[\]()!+@]*\*[^*?{}[\]()!+@]*$/.test(b))
    .map((b) => b.replace('*', own));
  const fitting = fromGlobs.filter((n) => (renderer.language === 'python' ? n.endsWith('.py') : /\.[cm]?[jt]sx?$/.test(n)));
  if (renderer.language === 'python') return [...new Set([first, `test_${stem}_amtp.py`, `${stem}_amtp_test.py`, ...fitting])];
  const ext = renderer.extension(project);
  return [
    ...new Set([
      first,
      `${stem}.amtp.test${ext}`,
      `${stem}.amtp.spec${ext}`,
      `${stem}-amtp.test${ext}`,
      `${stem}_amtp_test${ext}`,
      `test-${stem}-amtp${ext}`,
      ...fitting,
      `${stem}.amtp${ext}`,
    ]),
  ];
}

function patternFits(pattern: string, renderer: FrameworkRenderer, project: Project): boolean {
  if (renderer.language === 'python') return pattern.endsWith('.py');
  if (!/\.[cm]?[jt]sx?$/.test(pattern)) return false;
  // A TypeScript project's `.ts` pattern suits every JS framework we write TS for; JS projects keep JS.
  return /\.[cm]?tsx?$/.test(pattern) === renderer.extension(project).includes('ts');
}

function stemOf(target: string, project: Project): string {
  const parts = target.replace(/\\/g, '/').split('/');
  let base = parts.pop()!.replace(/\.[^.]+$/, '');
  if (base === 'index' || base === '__init__' || base === 'main') base = parts.pop() ?? project.name;
  if (base === 'src' || base === 'lib') base = project.name;
  return base.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_-]+/g, '_') || 'module';
}

/** Relative specifier from the test file to the target; ESM TypeScript imports `x.ts` as `x.js`. */
export function importPathFor(c: TestCase, testPath: string, renderer: FrameworkRenderer, project: Project): string {
  const spec = c.target.import_specifier;
  // `#internal` subpath imports resolve inside the package itself, so they are safe to keep.
  if (spec && spec.startsWith('#')) return spec;
  let rel = posix.relative(posix.dirname(testPath), c.target.file.replace(/\\/g, '/').replace(/^\.\//, ''));
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (/\.[cm]?tsx?$/.test(rel)) {
    const esmTs = project.module_system === 'esm' || FRAMEWORK_REGISTRY[renderer.id].layout.esmImportsAlways;
    rel = esmTs
      ? rel
          .replace(/\.ts$/, '.js')
          .replace(/\.mts$/, '.mjs')
          .replace(/\.cts$/, '.cjs')
          .replace(/\.tsx$/, '.js')
      : rel.replace(/\.[cm]?tsx?$/, '');
  }
  return rel;
}
