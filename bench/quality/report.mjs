// The markdown table, the medians and the "Done when" checks of issues 22 and 23 (PASS/FAIL lines),
// and the same figures as JSON (bench/.work/quality*.json) and markdown (bench/.work/quality*.md).
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OWN_RUNS } from './independent.mjs';
import { KINDS } from './kinds.mjs';
import { REPO, WORK } from './prepare.mjs';

const fmt = (x) => (x === undefined || x === null ? 'n/a' : `${x.toFixed(1)}%`);
const num = (x) => (x === undefined || x === null || Number.isNaN(x) ? undefined : x);

/** The middle value (mean of the two middle ones for an even count). */
export function median(xs) {
  const v = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  if (!v.length) return undefined;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

const gap = (r) =>
  num(r.statements) !== undefined && num(r.independentStatements) !== undefined ? r.statements - r.independentStatements : undefined;
const writesOf = (r) => (r.writes ? [...r.writes.added, ...r.writes.changed, ...r.writes.removed] : []);
function mutationCell(r) {
  const m = r.mutation;
  if (!m) return r.kept ? 'off' : '–';
  if (m.score === undefined) return m.problem?.startsWith('not measured') ? 'not measured' : 'failed';
  // a run cut by the time limit: Stryker's progress counts only the mutants it runs, not the uncovered ones
  return m.partial ? `≤ ${fmt(m.score)} (partial: ${m.tested} of ${m.mutants} covered mutants)` : `${fmt(m.score)} (${m.mutants})`;
}

export function table(rows, set, depth) {
  const lines = [`### AMTP offline test quality, ${set} set, verified (depth ${depth ?? 'default: standard'}), measured by the bench`, ''];
  lines.push(
    `| package | kinds | framework (installed) | product files | kept | ${KINDS.join(' / ')} | own runner ${OWN_RUNS}/${OWN_RUNS} | AMTP's statements | statements (independent) | gap | branches (independent) | mutation score (mutants) | files written into the project | AMTP wall |`,
  );
  lines.push('|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) {
    const k = r.testKinds;
    const g = gap(r);
    const w = writesOf(r);
    lines.push(
      `| ${r.subject}${r.about50 ? ' (≈50 modules)' : ''} | ${(r.kinds ?? []).join(', ') || '–'} | ${r.framework} (${r.runner}) | ${r.productFiles ?? r.modules} | ${r.kept ?? 0} | ${k ? KINDS.map((x) => k[x]).join(' / ') : '–'} | ${r.ownPassed !== undefined ? `${r.ownPassed}/${OWN_RUNS}` : '–'} | ${fmt(r.statements)} | ${fmt(r.independentStatements)} | ${g === undefined ? 'n/a' : `${g > 0 ? '+' : ''}${g.toFixed(1)}`} | ${fmt(r.independentBranches)} | ${mutationCell(r)} | ${r.writes ? (w.length ? w.join(', ') : 'none') : '–'} | ${((r.amtpMs ?? r.ms) / 1000).toFixed(0)} s${r.amtpCpuS !== undefined ? ` (CPU ${r.amtpCpuS} s)` : ''} |`,
    );
  }
  const notCounted = rows.filter((r) => r.leftOutCopies?.length || r.leftOutBuilds?.length);
  if (notCounted.length) {
    lines.push('', "Files not counted as product (the same rule as AMTP's figure, bench/quality/product.mjs):");
    for (const r of notCounted) {
      const parts = [];
      if (r.leftOutCopies?.length) parts.push(`copies of a module counted once: ${r.leftOutCopies.join(', ')}`);
      if (r.leftOutBuilds?.length)
        parts.push(`build output no package.json entry points into: ${r.leftOutBuilds.map((d) => `${d}/`).join(', ')}`);
      lines.push(`- ${r.subject}: ${parts.join('; ')}`);
    }
  }
  const notes = rows.filter(
    (r) => r.problem || r.rerunProblem || r.status !== 'completed' || r.independentProblem || r.ownFailure || r.mutation?.problem,
  );
  if (notes.length) {
    lines.push('', 'Notes per package (AMTP run status, the bench’s own problems):');
    const cut = (t) => (t.length > 400 ? `${t.slice(0, 400)}… (whole text in the JSON)` : t);
    for (const r of notes) {
      const parts = [`status ${r.status}`];
      if (r.problem) parts.push(cut(r.problem));
      if (r.rerunProblem) parts.push(`rerun: ${cut(r.rerunProblem)}`);
      if (r.ownFailure) parts.push(`own runner: ${cut(r.ownFailure)}`);
      if (r.independentProblem) parts.push(`coverage: ${cut(r.independentProblem)}`);
      if (r.mutation?.problem) parts.push(`mutation: ${cut(r.mutation.problem)}`);
      lines.push(`- ${r.subject} × ${r.framework}: ${parts.join('; ')}`);
    }
  }
  return lines.join('\n');
}

function check(name, pass, detail) {
  return { check: name, pass, detail };
}

/** Issues 22 and 23 "Done when", over the packages measured (a package with no figure counts 0 where said). */
export function checks(rows) {
  const stmts = median(rows.map((r) => num(r.independentStatements) ?? 0));
  const branches = median(rows.map((r) => num(r.independentBranches) ?? 0));
  const reported = median(rows.map((r) => num(r.statements)));
  // a partial score (cut by the time limit) leaves out the uncovered mutants: an upper bound, not counted
  const scored = rows.filter((r) => r.mutation?.score !== undefined && !r.mutation.partial);
  const notScored = rows.filter((r) => r.kept && r.mutation?.score === undefined);
  const partial = rows.filter((r) => r.mutation?.partial).map((r) => `${r.subject} ≤ ${fmt(r.mutation.score)}`);
  const mutation = median(scored.map((r) => r.mutation.score));
  const noTests = rows.filter((r) => !r.kept).map((r) => r.subject);
  const unstable = rows.filter((r) => r.kept && r.ownPassed !== OWN_RUNS).map((r) => `${r.subject} ${r.ownPassed ?? 0}/${OWN_RUNS}`);
  const writers = rows.filter((r) => writesOf(r).length).map((r) => `${r.subject}: ${writesOf(r).join(', ')}`);
  const gaps = rows.filter((r) => gap(r) !== undefined);
  const far = gaps.filter((r) => Math.abs(gap(r)) > 3).map((r) => `${r.subject} ${gap(r) > 0 ? '+' : ''}${gap(r).toFixed(1)}`);
  const big = rows.find((r) => r.about50);
  const list = [
    check(
      'median statements ≥ 60% (independent, all product files)',
      stmts >= 60,
      `median ${fmt(stmts)} over ${rows.length} (no figure counts 0)`,
    ),
    check('median branches ≥ 45% (independent)', branches >= 45, `median ${fmt(branches)}`),
    check(
      'every package keeps tests',
      !noTests.length,
      noTests.length ? `no kept test: ${noTests.join(', ')}` : `${rows.length} of ${rows.length}`,
    ),
    check(
      `kept tests pass ${OWN_RUNS} of ${OWN_RUNS} under the package's own runner`,
      !noTests.length && !unstable.length,
      unstable.length ? `not all: ${unstable.join(', ')}` : noTests.length ? 'packages without tests cannot pass' : 'every package',
    ),
    check(
      'no kept test writes outside a temporary folder',
      !writers.length && !noTests.length,
      `${writers.length ? writers.join('; ') : 'no file added, changed or removed in the folder of any package with kept tests'}${noTests.length ? `; ${noTests.length} package(s) without kept tests cannot be checked` : ''}`,
    ),
    check(
      "AMTP's reported statements within 3 points of the independent figure",
      gaps.length === rows.length && !far.length,
      `${far.length ? `off by more than 3: ${far.join(', ')}` : 'all within 3'}${gaps.length < rows.length ? `; ${rows.length - gaps.length} package(s) lack one of the two figures` : ''}`,
    ),
    check(
      'median mutation score ≥ 60% (StrykerJS; Python not measured)',
      mutation >= 60,
      `median ${fmt(mutation)} over ${scored.length} package(s) with a score${partial.length ? `; cut by the time limit, upper bounds not counted: ${partial.join(', ')}` : ''}${notScored.length ? `; without one: ${notScored.map((r) => r.subject).join(', ')}` : ''}`,
    ),
  ];
  if (big)
    list.push(
      check(
        'the whole offline run stays under 2 minutes for the ≈50-module package',
        (big.amtpMs ?? Infinity) <= 120_000,
        `${big.subject}: ${((big.amtpMs ?? 0) / 1000).toFixed(0)} s`,
      ),
    );
  return { medians: { statements: stmts, branches, reportedStatements: reported, mutation }, list };
}

export function printChecks({ medians, list }) {
  const lines = [
    '',
    `Medians: statements ${fmt(medians.statements)} (AMTP's own figure ${fmt(medians.reportedStatements)}), branches ${fmt(medians.branches)}, mutation score ${fmt(medians.mutation)}.`,
    '',
  ];
  for (const c of list) lines.push(`${c.pass ? 'PASS' : 'FAIL'}  ${c.check}: ${c.detail}`);
  return lines.join('\n');
}

/** Writes quality[-set].json and .md under bench/.work; returns the JSON path. */
export function writeResults(rows, set, depth, result, markdown) {
  mkdirSync(WORK, { recursive: true });
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
  } catch {
    /* not a git checkout */
  }
  const base = join(WORK, set === 'reported' ? 'quality' : `quality-${set}`);
  const out = {
    set,
    depth: depth ?? 'standard (CLI default)',
    measuredAt: new Date().toISOString(),
    commit,
    node: process.version,
    rows,
    ...result,
  };
  // a new file renamed over the old one: a copy of bench/.work made with hard links keeps its own results
  for (const [ext, text] of [
    ['json', `${JSON.stringify(out, null, 2)}\n`],
    ['md', `Measured ${out.measuredAt} at commit ${commit}, Node ${process.version}.\n\n${markdown}\n`],
  ]) {
    writeFileSync(`${base}.${ext}.tmp`, text);
    renameSync(`${base}.${ext}.tmp`, `${base}.${ext}`);
  }
  return `${base}.json`;
}
