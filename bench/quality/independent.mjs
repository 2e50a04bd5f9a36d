// The bench's own figures of what AMTP kept, not AMTP's: on the workspace AMTP left, with the
// bench's measuring node_modules (tools.mjs) in place of the one AMTP ran with:
// - the kept test files run 3 times under the package's runner (its binary and the files only):
//   the runs that exited 0;
// - one run under coverage over all product files (coverage.mjs, product.mjs), wrapped in a
//   snapshot of the package folder (writes.mjs): files the kept tests added, changed or removed;
// - each kept test's kind (kinds.mjs);
// - the mutation score (mutation.mjs), unless --no-mutation.
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { keptCoverage, runnerCommand, totals } from './coverage.mjs';
import { countKinds } from './kinds.mjs';
import { mutationScore } from './mutation.mjs';
import { namesRootDirModules } from './prepare.mjs';
import { leftOutBuilds, leftOutCopies, productFiles } from './product.mjs';
import { measureModules, pythonCoverage } from './tools.mjs';
import { diffSnapshots, snapshot } from './writes.mjs';
import { spawnSync } from 'node:child_process';

export const OWN_RUNS = 3;

/** Runs of the kept files under the package's own runner that exited 0 (and how the last failure ended). */
function ownRuns(framework, dir, root, files, plan) {
  let passed = 0;
  let failure;
  for (let i = 0; i < OWN_RUNS; i++) {
    const cmd =
      framework === 'pytest'
        ? ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...files]
        : runnerCommand(framework, join(root, 'node_modules/.bin'), files, plan.args);
    const r = spawnSync(cmd[0], cmd.slice(1), {
      cwd: dir,
      env: { ...process.env, ...plan.env, ...(framework === 'pytest' ? { PYTHONPATH: dir, PYTHONDONTWRITEBYTECODE: '1' } : {}) },
      encoding: 'utf8',
      maxBuffer: 256 << 20,
      timeout: 10 * 60_000,
    });
    if (r.status === 0) passed += 1;
    else failure = `exit ${r.status ?? r.signal}: ${`${r.stdout}${r.stderr}`.trim().split('\n').slice(-5).join(' ⏎ ').slice(-500)}`;
  }
  return { ownPassed: passed, ...(failure ? { ownFailure: failure } : {}) };
}

/**
 * `ws` from prepare.mjs makeWorkspace; `files` the written test files (relative), `keptIds`, `cases`
 * (id → planned case), `plan` the run plan (verifier/runPlan.ts). Never throws: a step that fails
 * says so in `independentProblem`.
 */
export async function independent({ subject, framework, ws, files, keptIds, cases, plan, runners, mutation }) {
  const python = framework === 'pytest';
  const out = {};
  try {
    if (!python) {
      const modules = measureModules(subject, framework, ws.source, runners);
      rmSync(join(ws.root, 'node_modules'), { force: true });
      symlinkSync(modules, join(ws.root, 'node_modules'), 'dir');
      if (namesRootDirModules(ws.dir)) {
        rmSync(join(ws.dir, 'node_modules'), { force: true });
        symlinkSync(modules, join(ws.dir, 'node_modules'), 'dir');
      }
    } else pythonCoverage();
    out.testKinds = countKinds(ws.dir, files, keptIds, cases);
    Object.assign(out, ownRuns(framework, ws.dir, ws.root, files, plan));
    let product = productFiles(ws.dir, python, files);
    const before = snapshot(ws.dir);
    const cov = keptCoverage({ framework, dir: ws.dir, root: ws.root, files, product, env: plan.env, args: plan.args });
    out.writes = diffSnapshots(before, snapshot(ws.dir));
    const leftOut = leftOutCopies(ws.dir, product, cov.perFile);
    product = product.filter((f) => !leftOut.includes(f));
    const t = totals(cov.perFile, product);
    Object.assign(out, {
      productFiles: product.length,
      leftOutCopies: leftOut,
      leftOutBuilds: python ? [] : leftOutBuilds(ws.dir, product),
      independentTool: cov.tool,
      ...(cov.skipped ? { notInstrumented: cov.skipped } : {}),
      independentStatements: t.statementsPct,
      independentBranches: t.branchesPct,
      statementCounts: t.statements,
      branchCounts: t.branches,
      productUntested: t.untested,
      unreported: t.unreported,
    });
    if (!Object.keys(cov.perFile).length)
      out.independentProblem = `coverage run reported nothing (exit ${cov.exit}${cov.timedOut ? ', timed out' : ''}): ${cov.output.trim().split('\n').slice(-6).join(' ⏎ ').slice(-800)}`;
    // Stryker mutates the product files the kept tests reached (imported directly or through another module).
    const reached = product.filter((f) => cov.perFile[f]?.statements.covered > 0);
    if (mutation) out.mutation = await mutationScore({ framework, dir: ws.dir, root: ws.root, files, plan, reached });
  } catch (e) {
    out.independentProblem = `${out.independentProblem ?? ''} ${e.stack ?? e.message}`.trim().slice(0, 1500);
  }
  return out;
}
