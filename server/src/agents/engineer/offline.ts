import { posix } from 'node:path';
import type { EngineerOutput, OracleBinding, TestCase, TestCases } from '../../contracts/types';
import { RENDERERS, resolveFramework } from '../../frameworks';
import { importPathFor, testDir, testFileName } from '../../frameworks/layout';
import { pythonModule } from '../../frameworks/pytest';
import type { CaseBody, FrameworkRenderer, Project, RenderedCase } from '../../frameworks/types';
import type { FrameworkChoice } from '../../core/frameworks';
import { prMetadata } from './pr';

const RESERVED_LOCALS = new Set(['describe', 'it', 'test', 'expect', 'assert', 'actual', 'again', 'thrown', 'err', 'require', 'pytest', 'inspect', 'math', 'excinfo']);

/**
 * The offline Test Engineer: one test file per target module in the chosen framework. A case is
 * written only when its oracle carries a checkable, documented expectation; every other case is
 * listed in not_written with the reason.
 */
export function engineerTests(cases: TestCases, framework: FrameworkChoice): EngineerOutput {
  const fw = resolveFramework(framework, cases.project);
  const renderer = RENDERERS[fw];
  const notWritten: EngineerOutput['not_written'] = [];
  const groups = new Map<string, TestCase[]>();
  for (const c of cases.cases) {
    const lang = /\.py$/.test(c.target.file) || c.oracle?.language === 'python' ? 'python' : 'javascript';
    if (lang !== renderer.language) notWritten.push({ caseId: c.id, reason: `${fw} cannot test ${lang === 'python' ? 'Python' : 'JavaScript'} code` });
    else groups.set(c.target.file, [...(groups.get(c.target.file) ?? []), c]);
  }

  // Bodies first, for every file: a renderer that checks them in a batch (pytest) does it once.
  const used = new Set<string>();
  const prepared = [...groups].map(([target, group]) => prepareGroup(target, group, cases.project, renderer, used));
  const invalid = renderer.validate?.(prepared.flatMap((p) => p.items.flatMap(({ c, body }) => ('reason' in body ? [] : [{ caseId: c.id, body }])))) ?? new Map<string, string>();

  const files: EngineerOutput['files'] = [];
  let anyTs = false;
  for (const p of prepared) {
    anyTs ||= p.project.typescript;
    const rendered = renderGroup(p.items, invalid, notWritten);
    if (!rendered.cases.length) continue;
    const content = renderer.render({ project: p.project, path: p.path, importPath: p.importPath, bindings: rendered.bindings, cases: rendered.cases, typescript: p.project.typescript, esm: renderer.esm(p.project) });
    files.push({ path: p.path, content, caseIds: rendered.cases.map((r) => r.case.id) });
  }

  const runProject: Project = { ...cases.project, typescript: anyTs, language: anyTs ? 'typescript' : cases.project.language === 'typescript' ? 'javascript' : cases.project.language };
  const testPaths = files.map((f) => f.path);
  const allIds = files.flatMap((f) => f.caseIds);
  for (const s of renderer.supportFiles?.(runProject, testPaths) ?? []) files.push({ ...s, caseIds: allIds });
  const command = renderer.runCommand(runProject, testPaths.length ? testPaths : [testDir(cases.project, renderer)], [...groups.keys()]);
  const devDeps = files.length ? renderer.devDependencies(runProject) : [];
  const out = { files, command, not_written: notWritten, ...(devDeps.length ? { dev_dependencies: devDeps } : {}) };
  return { schema_version: '1', framework: fw, ...out, pr: prMetadata(cases, fw, out) };
}

/**
 * Tests are TypeScript when the code under test is: a JavaScript package that ships `.d.ts`
 * typings (the crawler then says typescript: true) still gets JavaScript tests.
 */
function projectFor(target: string, project: Project): Project {
  if (project.language === 'python' || /\.py$/.test(target)) return project;
  const ts = /\.[cm]?tsx?$/.test(target);
  return { ...project, typescript: ts, language: ts ? 'typescript' : 'javascript' };
}

interface PreparedGroup {
  project: Project;
  path: string;
  importPath: string;
  items: { c: TestCase; bindings: OracleBinding[]; body: CaseBody | { reason: string } }[];
}

/** Where one target's test file goes, how it imports the target, and each case's body (or reason). */
function prepareGroup(target: string, group: TestCase[], whole: Project, renderer: FrameworkRenderer, used: Set<string>): PreparedGroup {
  const project = projectFor(target, whole);
  const path = uniquePath(posix.join(testDir(project, renderer), testFileName(target, project, renderer)), used);
  const importPath = renderer.language === 'python' ? pythonModule(target, group[0].target.import_specifier) : importPathFor(group[0], path, renderer, project);
  const items = group.map((c) => {
    const bindings = c.oracle?.bindings ?? fallbackBinding(c);
    return { c, bindings, body: renderer.body(c, { typescript: project.typescript, importPath, bindings }) };
  });
  return { project, path, importPath, items };
}

function renderGroup(items: PreparedGroup['items'], invalid: Map<string, string>, notWritten: EngineerOutput['not_written']): { cases: RenderedCase[]; bindings: OracleBinding[] } {
  const bindings = new Map<string, OracleBinding>();
  const out: RenderedCase[] = [];
  for (const { c, bindings: needed, body } of items) {
    if ('reason' in body || invalid.has(c.id)) {
      notWritten.push({ caseId: c.id, reason: 'reason' in body ? body.reason : invalid.get(c.id)! });
      continue;
    }
    const clash = needed.find((b) => RESERVED_LOCALS.has(b.local) || (bindings.has(b.local) && !sameBinding(bindings.get(b.local)!, b)));
    if (clash) {
      notWritten.push({ caseId: c.id, reason: `the name '${clash.local}' is already bound differently in this test file` });
      continue;
    }
    for (const b of needed) bindings.set(b.local, b);
    out.push({ case: c, body });
  }
  return { cases: out, bindings: [...bindings.values()] };
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

function sameBinding(a: OracleBinding, b: OracleBinding): boolean {
  return a.import === b.import && (a.name ?? a.local) === (b.name ?? b.local);
}

function uniquePath(path: string, used: Set<string>): string {
  let candidate = path;
  for (let n = 2; used.has(candidate); n++) candidate = path.replace(/(\.amtp|_amtp)/, `$1${n}`);
  used.add(candidate);
  return candidate;
}
