// The Test Engineer's result, assembled by AMTP from the batches' test bodies: one file per target
// module at the path the project's test command runs, the imports as seen from that file, each
// test named by its case's title with its case id in a comment, plus the support files, the run command and the PR metadata.
import type { EngineerOutput, TestBodies, TestCases } from '../../contracts/types';
import type { Framework } from '../../core/frameworks';
import { testDir } from '../../frameworks/layout';
import type { FrameworkRenderer, RenderedCase } from '../../frameworks/types';
import { bindingsFor, bindingsOf, planFiles, type TestFileGroup } from './filePlan';
import { prMetadata } from './pr';

export function assemble(
  plan: TestCases,
  framework: Framework,
  outputs: TestBodies[],
  ownTestFile?: (path: string) => boolean,
): EngineerOutput {
  const { renderer, groups, notWritten, layoutNotes, unreadNotes, intoNotes } = planFiles(plan, framework, ownTestFile);
  const reported = new Set(notWritten.map((n) => n.caseId));
  const { bodies, devDeps } = collectBodies(outputs, reported, notWritten);
  const files = renderFiles(groups, bodies, renderer, reported, notWritten);
  const runProject = runProjectOf(plan, groups, files);
  const testPaths = files.map((f) => f.path);
  const allIds = files.flatMap((f) => f.caseIds);
  const targets = groups.map((g) => g.target);
  for (const s of renderer.supportFiles?.(runProject, testPaths, targets) ?? []) files.push({ ...s, caseIds: allIds });
  const command = renderer.runCommand(runProject, testPaths.length ? testPaths : [testDir(plan.project, renderer)], targets);
  if (files.length) for (const d of renderer.devDependencies(runProject)) devDeps.add(d);
  const layoutNote =
    [
      ...intoNotes,
      files.length && layoutNotes.length
        ? `Not run by the project's own test command: ${layoutNotes.join(' ')} Run AMTP's tests with: ${command}`
        : '',
      files.length && unreadNotes.length ? `AMTP could not check every setting of the runner's config: ${unreadNotes.join(' ')}.` : '',
    ]
      .filter(Boolean)
      .join(' ') || undefined;
  const out = {
    files,
    command,
    not_written: notWritten,
    ...(devDeps.size ? { dev_dependencies: [...devDeps].sort() } : {}),
    ...(layoutNote ? { layout_note: layoutNote } : {}),
  };
  return { schema_version: '1', framework, ...out, pr: prMetadata(plan, framework, out) };
}

/**
 * The batches' bodies by case id (the first one wins), the dev dependencies they asked for, and
 * the cases they did not write, each reported once (added to `notWritten` and `reported`).
 */
function collectBodies(
  outputs: TestBodies[],
  reported: Set<string>,
  notWritten: EngineerOutput['not_written'],
): { bodies: Bodies; devDeps: Set<string> } {
  const bodies: Bodies = new Map();
  const devDeps = new Set<string>();
  for (const out of outputs) {
    for (const t of out.tests) if (!bodies.has(t.case_id)) bodies.set(t.case_id, { body: t.body, async: t.async ?? false });
    for (const n of out.not_written) {
      if (reported.has(n.caseId) || bodies.has(n.caseId)) continue;
      notWritten.push(n);
      reported.add(n.caseId);
    }
    for (const d of out.dev_dependencies ?? []) devDeps.add(d);
  }
  return { bodies, devDeps };
}

/** One test file per group with its cases whose bodies parse and validate; the others go to notWritten with the reason. */
function renderFiles(
  groups: TestFileGroup[],
  bodies: Bodies,
  renderer: FrameworkRenderer,
  reported: Set<string>,
  notWritten: EngineerOutput['not_written'],
): EngineerOutput['files'] {
  // Every body is parsed first, then checked as one batch (pytest: one interpreter for all of them).
  const parsed = groups.map((g) => ({ g, items: parseGroup(g, bodies, renderer, reported, notWritten) }));
  const invalid =
    renderer.validate?.(parsed.flatMap((p) => p.items.map((r) => ({ caseId: r.case.id, body: r.body })))) ?? new Map<string, string>();
  const files: EngineerOutput['files'] = [];
  for (const { g, items } of parsed) {
    const rendered = items.filter((r) => {
      const reason = invalid.get(r.case.id);
      if (reason) notWritten.push({ caseId: r.case.id, reason });
      return !reason;
    });
    if (!rendered.length) continue;
    const content = renderer.render({
      project: g.project,
      path: g.path,
      importPath: g.importPath,
      bindings: bindingsFor(
        g,
        rendered.map((r) => r.case),
      ),
      cases: rendered,
      typescript: g.project.typescript,
      esm: renderer.esm(g.project),
    });
    files.push({ path: g.path, content, caseIds: rendered.map((r) => r.case.id) });
  }
  return files;
}

/** The project as the run command sees it: TypeScript when any written file is (a JS-only run of a TS project says javascript). */
function runProjectOf(plan: TestCases, groups: TestFileGroup[], files: EngineerOutput['files']): TestCases['project'] {
  const anyTs = groups.some((g) => g.project.typescript && files.some((f) => f.path === g.path));
  return {
    ...plan.project,
    typescript: anyTs,
    language: anyTs ? ('typescript' as const) : plan.project.language === 'typescript' ? ('javascript' as const) : plan.project.language,
  };
}

type Bodies = Map<string, { body: string; async: boolean }>;

/** The group's cases that have a body which parses; the others go to notWritten with the reason. */
function parseGroup(
  g: TestFileGroup,
  bodies: Bodies,
  renderer: FrameworkRenderer,
  reported: Set<string>,
  notWritten: EngineerOutput['not_written'],
): RenderedCase[] {
  const out: RenderedCase[] = [];
  for (const c of g.cases) {
    const b = bodies.get(c.id);
    if (!b) {
      if (!reported.has(c.id)) notWritten.push({ caseId: c.id, reason: 'the Test Engineer wrote no test for it' });
      reported.add(c.id);
      continue;
    }
    const body = renderer.parseBody(
      c,
      b.body,
      { typescript: g.project.typescript, importPath: g.importPath, bindings: bindingsOf(c) },
      b.async,
    );
    if ('reason' in body) notWritten.push({ caseId: c.id, reason: body.reason });
    else out.push({ case: c, body });
  }
  return out;
}
