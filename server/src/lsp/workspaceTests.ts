// The workspace's own test files for the Testing view: the files the project's test command runs
// (agents/crawler/testRuns.ts reads package.json, the runner configs and the runners' defaults;
// frameworks/layout.ts `collects` matches a path against them), else files named like tests.
// Bounded: one walk of at most MAX_ENTRIES entries (node_modules and ignored folders skipped), at most MAX_FILES listed.
import { promises as fsp } from 'node:fs';
import type { TestRuns } from '../contracts/types';
import { detectTestRuns } from '../agents/crawler/testRuns';
import { isFramework, type Framework } from '../core/frameworks';
import { collects, frameworkOfRunner } from '../frameworks/layout';
import { walkTree } from '../mcp/walk';
import type * as P from '../protocol';
import { resolveInside } from '../util/safePath';

const MAX_FILES = 300;
const MAX_ENTRIES = 200_000;
const CODE_FILE = /\.(?:[cm]?[jt]sx?|py)$/;
/** Test file names of every runner AMTP knows (the crawler's agents/crawler/testSetup.ts reads them the same way). */
const TEST_NAME = /(^|\/)(test_[^/]+\.py|[^/]+_test\.py|[^/]+\.(test|spec)\.[cm]?[jt]sx?)$/;

interface ProjectTests {
  runs?: TestRuns;
  /** the workspace's files, relative */
  paths: Set<string>;
  truncated: boolean;
}

/** The workspace's files and the project's test command's runner and patterns. */
async function projectTests(workspace: string): Promise<ProjectTests> {
  const walk = walkTree(workspace, { sizes: false, limit: MAX_ENTRIES });
  const paths = new Set(walk.entries.filter((e) => e.type === 'file' && !e.path.startsWith('.amtp/')).map((e) => e.path));
  const read = async (rel: string) => {
    const abs = await resolveInside(workspace, rel).catch(() => undefined);
    return abs === undefined ? undefined : fsp.readFile(abs, 'utf8').catch(() => undefined);
  };
  let pkg: Record<string, unknown> | undefined;
  try {
    pkg = JSON.parse((await read('package.json')) ?? 'null') ?? undefined;
  } catch {
    pkg = undefined; // a broken package.json: npm says why; the test names still find the files
  }
  const pyproject = await read('pyproject.toml');
  const isPython = !pkg && ([...paths].some((p) => p.endsWith('.py')) || pyproject !== undefined);
  const runs = await detectTestRuns({ pkg, files: paths, read, pyproject, isPython });
  return { runs, paths, truncated: walk.truncated };
}

/** The runs' patterns, when they say which files run (not a script of the project's own, not an empty list). */
function usable(runs: TestRuns | undefined): runs is TestRuns {
  return !!runs && runs.runner !== 'node-script' && (runs.patterns.length > 0 || !!runs.projects?.length);
}

/** The test files the project's test command runs, sorted, at most MAX_FILES. */
export async function workspaceTestFiles(workspace: string): Promise<P.WorkspaceTestFilesResult> {
  const root = await fsp.realpath(workspace);
  const { runs, paths, truncated } = await projectTests(root);
  const isTest = usable(runs) ? (p: string) => collects(runs, p) : (p: string) => TEST_NAME.test(p);
  const all = [...paths].filter((p) => CODE_FILE.test(p) && isTest(p)).sort();
  return {
    files: all.slice(0, MAX_FILES),
    truncated: truncated || all.length > MAX_FILES,
    source: usable(runs) ? `${runs.runner} (${runs.source})` : 'test file names',
  };
}

/** The framework and command that run the person's own test files: the project's test command's runner. */
export async function projectRunner(
  workspace: string,
  files: string[],
): Promise<{ framework: Framework; command: string } | { cannot: string }> {
  const { runs } = await projectTests(await fsp.realpath(workspace));
  const framework = runs?.runner ? frameworkOfRunner(runs.runner) : files.every((f) => f.endsWith('.py')) ? 'pytest' : undefined;
  if (isFramework(framework)) return { framework, command: runs?.command ?? framework };
  const what = runs
    ? `\`${runs.command ?? runs.runner}\` starts ${runs.runner === 'node-script' ? 'a script of its own' : runs.runner}`
    : 'no test command was found';
  return { cannot: `AMTP cannot run your own tests with the project's runner: ${what}. Run them with your test command.` };
}
