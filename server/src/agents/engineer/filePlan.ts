// Which test file each planned case goes into, and how that file reaches the module under test.
// AMTP computes this (the project's test folder and naming, the import path as seen from the test
// file, the names the imports bind); the Test Engineer only writes each test's body.
import type { OracleBinding, TestCase, TestCases } from '../../contracts/types';
import type { Framework } from '../../core/frameworks';
import { RENDERERS } from '../../frameworks';
import { foreignRunner, importPathFor, testFilePlace } from '../../frameworks/layout';
import { pythonModule } from '../../frameworks/pytest/render';
import type { FrameworkRenderer, Project } from '../../frameworks/types';
import { rebind } from './rebind';

const RESERVED_LOCALS = new Set([
  'describe',
  'it',
  'test',
  'expect',
  'assert',
  'actual',
  'again',
  'thrown',
  'err',
  'require',
  'pytest',
  'inspect',
  'math',
  'excinfo',
  // a test's temporary folder (frameworks/jsChecks.ts)
  'nodeFs',
  'nodeOs',
  'nodePath',
  'tmp',
]);

export interface TestFileGroup {
  /** workspace-relative test file */
  path: string;
  /** the module under test */
  target: string;
  project: Project;
  importPath: string;
  bindings: OracleBinding[];
  cases: TestCase[];
}

export interface FilePlan {
  framework: Framework;
  renderer: FrameworkRenderer;
  groups: TestFileGroup[];
  /** cases no test file of this framework can hold, with the reason */
  notWritten: { caseId: string; reason: string }[];
  /** why the project's own test command does not run some of these files (frameworks/layout.ts) */
  layoutNotes: string[];
  /** settings of the runner's config AMTP could not read without running it: the places assume its defaults */
  unreadNotes: string[];
  /** with `ownTestFile`: which modules' cases go into the person's own test file, and which do not and why */
  intoNotes: string[];
}

/**
 * One test file per target module, in plan order; the same plan always gives the same files.
 * `ownTestFile` (the run's `intoExisting`) says whether the person's own test file at a path exists:
 * then the module's cases go there instead of AMTP's file (pipeline/writeStage.ts merges them in).
 */
export function planFiles(plan: TestCases, framework: Framework, ownTestFile?: (path: string) => boolean): FilePlan {
  const renderer = RENDERERS[framework];
  const notWritten: FilePlan['notWritten'] = [];
  const byTarget = new Map<string, TestCase[]>();
  for (const c of plan.cases) {
    const lang = /\.py$/.test(c.target.file) || c.oracle?.language === 'python' ? 'python' : 'javascript';
    if (lang !== renderer.language)
      notWritten.push({ caseId: c.id, reason: `${framework} cannot test ${lang === 'python' ? 'Python' : 'JavaScript'} code` });
    else byTarget.set(c.target.file, [...(byTarget.get(c.target.file) ?? []), c]);
  }
  const used = new Set<string>();
  const groups: TestFileGroup[] = [];
  const layoutNotes = new Set<string>();
  const unreadNotes = new Set<string>();
  const intoNotes: string[] = [];
  // AMTP names two modules share (src/index.js, lib/index.js): whose the person's file is cannot be told, so it is left alone.
  const names = [...byTarget.keys()].map((t) => testFilePlace(t, projectFor(t, plan.project), renderer).path);
  const shared = new Set(names.filter((n, i) => names.indexOf(n) !== i));
  for (const [target, cases] of byTarget) {
    const project = projectFor(target, plan.project);
    const place = testFilePlace(target, project, renderer);
    const foreign = foreignRunner(project.test_setup.runs, renderer);
    const unfit = foreign ? 'runner' : shared.has(place.path) ? 'shared' : undefined;
    const own = ownTestFile ? ownFileFor(place.path, unfit, used, ownTestFile) : undefined;
    const path = own && 'path' in own ? own.path : uniquePath(place.path, used);
    if (own)
      intoNotes.push(
        'path' in own
          ? `${target}: its cases are added to your ${path}, whose own tests all stay.`
          : `${target}: ${own.why}, so its cases go to ${path}.`,
      );
    const importPath = importPathOf(cases[0], path, project, renderer);
    // Two cases binding one local to different imports both stay: one gets a distinct local (rebind.ts).
    const { cases: kept, bindings, notWritten: clashes } = rebind(cases, (c) => bindingsOf(c).filter(wellFormed), RESERVED_LOCALS);
    notWritten.push(...clashes);
    if (!kept.length) continue;
    groups.push({ path, target, project, importPath, bindings, cases: kept });
    if (place.note) layoutNotes.add(place.note);
    if (place.unread) unreadNotes.add(place.unread);
  }
  return { framework, renderer, groups, notWritten, layoutNotes: [...layoutNotes], unreadNotes: [...unreadNotes], intoNotes };
}

/** `foo.amtp.test.js` → `foo.test.js`, `test_foo_amtp.py` → `test_foo.py`, in the same folder: the person's file beside AMTP's. */
export function personTestPath(amtpPath: string): string | undefined {
  const slash = amtpPath.lastIndexOf('/') + 1;
  const name = amtpPath.slice(slash);
  const theirs = name.replace(/\.amtp(?=\.)|_amtp(?=(?:_[^/]*)?\.py$)/, '');
  return theirs !== name && theirs ? amtpPath.slice(0, slash) + theirs : undefined;
}

/** A name AMTP gives its own test files (`.amtp`, `_amtp`, numbered when two modules share a stem). */
export function isAmtpTestPath(path: string): boolean {
  return /(?:\.amtp\d*\.[^/]+|_amtp\d*(?:_[^/]*)?\.py)$/.test(path);
}

/**
 * The person's own test file for a module's cases when the run adds them to it (`intoExisting`), or
 * why AMTP's own file is written instead.
 */
function ownFileFor(
  amtpPath: string,
  /** the project's command runs another framework (`runner`), or another module has the same AMTP name (`shared`) */
  unfit: 'runner' | 'shared' | undefined,
  used: Set<string>,
  exists: (path: string) => boolean,
): { path: string } | { why: string } {
  const theirs = personTestPath(amtpPath);
  if (!theirs) return { why: `${amtpPath} has no name of yours beside it` };
  // The project's test command runs another framework (or a script of its own): their file is written for that, not for AMTP's.
  if (unfit === 'runner') return { why: 'your test files are run by another runner than AMTP writes for' };
  if (unfit === 'shared') return { why: `another module's AMTP file has its name too (whose ${theirs} is cannot be told)` };
  if (!exists(theirs)) return { why: `no test file of yours at ${theirs}` };
  used.add(theirs);
  used.add(amtpPath);
  return { path: theirs };
}

/** How a test file at `testPath` reaches the module `c` targets: a relative path or specifier, or a Python module. */
export function importPathOf(c: TestCase, testPath: string, project: Project, renderer: FrameworkRenderer): string {
  return renderer.language === 'python'
    ? pythonModule(c.target.file, c.target.import_specifier)
    : importPathFor(c, testPath, renderer, project);
}

/** The names a case's test binds from the module under test. */
export function bindingsOf(c: TestCase): OracleBinding[] {
  return c.oracle?.bindings ?? fallbackBinding(c);
}

function wellFormed(b: OracleBinding): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(b.local) && (b.name === undefined || /^[A-Za-z_$][\w$]*$/.test(b.name));
}

/** The bindings a set of cases needs, in the group's order. */
export function bindingsFor(group: TestFileGroup, cases: TestCase[]): OracleBinding[] {
  const locals = new Set(cases.flatMap((c) => bindingsOf(c).map((b) => b.local)));
  return group.bindings.filter((b) => locals.has(b.local));
}

/**
 * Tests are TypeScript when the code under test is: a JavaScript package that ships `.d.ts`
 * typings (the crawler then says typescript: true) still gets JavaScript tests.
 */
export function projectFor(target: string, project: Project): Project {
  if (project.language === 'python' || /\.py$/.test(target)) return project;
  const ts = /\.[cm]?tsx?$/.test(target);
  return { ...project, typescript: ts, language: ts ? 'typescript' : 'javascript' };
}

/** For oracles without bindings (e.g. written by a model), bind the target symbol by its export style. */
function fallbackBinding(c: TestCase): OracleBinding[] {
  const name = c.target.symbol;
  if (!/^[A-Za-z_$][\w$]*$/.test(name) || (c.oracle?.setup ?? '').match(/^\s*(?:from|import)\s/m)) return [];
  switch (c.target.export_style) {
    case 'module.exports':
      return [{ local: name, import: 'module' }];
    case 'default':
      return [{ local: name, import: 'default' }];
    case undefined:
      return [];
    default:
      return [{ local: name, import: 'named', name }];
  }
}

function uniquePath(path: string, used: Set<string>): string {
  let candidate = path;
  for (let n = 2; used.has(candidate); n++) candidate = path.replace(/(\.amtp|_amtp)/, `$1${n}`);
  used.add(candidate);
  return candidate;
}
