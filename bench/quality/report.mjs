// The markdown table, the medians and issue 15's "Done when" checks (PASS/FAIL lines), and the
// same figures as JSON for quoting.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, WORK } from './prepare.mjs';
import { RERUNS } from './measure.mjs';

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(0)}%` : '–');
const fmt = (x) => (x === undefined || x === null ? 'n/a' : `${x.toFixed(1)}%`);

/** The middle value (mean of the two middle ones for an even count). */
export function median(xs) {
  const v = [...xs].sort((a, b) => a - b);
  if (!v.length) return undefined;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

export function table(rows, set, depth) {
  const lines = [`### AMTP offline test quality, ${set} set, verified (depth ${depth ?? 'default: standard'})`, ''];
  lines.push(
    `| package | kind | framework (installed) | modules | tests written | kept | kept passing ${RERUNS} of ${RERUNS} | statements | beyond import | existence/arity of kept | wall |`,
  );
  lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const kept = r.kept ?? 0;
    lines.push(
      `| ${r.subject}${r.about50 ? ' (≈50 modules)' : ''} | ${(r.kinds ?? []).join(', ') || '–'} | ${r.framework} (${r.runner}) | ${r.modules} | ${r.written ?? 0} | ${kept} | ${kept ? `${r.stable ?? 0}/${kept} (${pct(r.stable ?? 0, kept)})` : '–'} | ${fmt(r.statements)} | ${fmt(r.beyond)} | ${kept ? `${r.existenceKept}/${kept} (${pct(r.existenceKept, kept)})` : '–'} | ${(r.ms / 1000).toFixed(0)} s |`,
    );
  }
  const notes = rows.filter((r) => r.problem || r.rerunProblem || r.status !== 'completed');
  if (notes.length) {
    lines.push('', 'Runs that did not complete cleanly:');
    const cut = (t) => (t.length > 500 ? `${t.slice(0, 500)}… (whole text in the JSON)` : t);
    for (const r of notes)
      lines.push(
        `- ${r.subject} × ${r.framework}: status ${r.status}${r.problem ? `; ${cut(r.problem)}` : ''}${r.rerunProblem ? `; rerun: ${r.rerunProblem}` : ''}`,
      );
  }
  return lines.join('\n');
}

/** Issue 15 "Done when", over the packages measured (a package with no coverage figure counts 0). */
export function checks(rows) {
  const beyond = median(rows.map((r) => r.beyond ?? 0));
  const measured = rows.filter((r) => r.beyond !== undefined && r.beyond !== null).map((r) => r.beyond);
  const statements = median(rows.map((r) => r.statements ?? 0));
  const noTests = rows.filter((r) => !r.kept).map((r) => r.subject);
  const unstable = rows.filter((r) => r.kept && r.stable !== r.kept).map((r) => `${r.subject} ${r.stable}/${r.kept}`);
  const big = rows.find((r) => r.about50);
  const bigShare = big?.kept ? big.existenceKept / big.kept : undefined;
  const list = [
    {
      check: 'every package gets tests',
      pass: !noTests.length,
      detail: noTests.length ? `no kept test: ${noTests.join(', ')}` : `${rows.length} of ${rows.length}`,
    },
    {
      check: `the kept tests pass ${RERUNS} of ${RERUNS} runs under the real runner`,
      pass: !noTests.length && !unstable.length,
      detail: unstable.length
        ? `not all: ${unstable.join(', ')}`
        : noTests.length
          ? 'packages without tests cannot pass'
          : 'all kept tests',
    },
    {
      check: 'median coverage beyond import ≥ 50%',
      pass: beyond >= 50,
      detail: `median ${fmt(beyond)}, a package without the figure counting 0 (over the ${measured.length} with it: ${fmt(median(measured))}; statements ${fmt(statements)})`,
    },
  ];
  if (big)
    list.push({
      check: `≈50-module package with documented examples: existence/arity share of kept tests < 10%`,
      pass: bigShare !== undefined && bigShare < 0.1,
      detail: `${big.subject} (${big.modules} modules): ${bigShare === undefined ? 'no kept tests' : `${big.existenceKept}/${big.kept} = ${(100 * bigShare).toFixed(1)}%`}`,
    });
  return { medians: { statements, beyondImport: beyond, beyondImportMeasuredOnly: median(measured) }, list };
}

export function printChecks({ medians, list }) {
  const lines = [
    '',
    `Median statement coverage ${fmt(medians.statements)}; median coverage beyond import ${fmt(medians.beyondImport)}.`,
    '',
  ];
  for (const c of list) lines.push(`${c.pass ? 'PASS' : 'FAIL'}  ${c.check}: ${c.detail}`);
  return lines.join('\n');
}

export function writeJson(rows, set, depth, result) {
  mkdirSync(WORK, { recursive: true });
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO, encoding: 'utf8' }).trim();
  } catch {
    /* not a git checkout */
  }
  const file = join(WORK, set === 'reported' ? 'quality.json' : `quality-${set}.json`);
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
  writeFileSync(`${file}.tmp`, `${JSON.stringify(out, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return file;
}
