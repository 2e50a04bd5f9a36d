// Test-quality benchmark: for each package × framework, `amtp generate --provider offline --yes`
// (dist/cli.js: crawl → generate → engineer → verify with the real runner, 3 runs) and a markdown table
// of the verified run: tests written and kept, tests passing 3 of 3, statement coverage and coverage
// beyond import of the package's source (server/src/coverage), share of existence-only tests. Needs
// `npm run build` first (npm run bench:quality does it).
// Run: node --import tsx bench/quality.mjs [--depth standard|deep] [--only TEXT (subject or framework)]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackNpmPackage } from '../test/helpers/npmPack.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = join(REPO, 'bench/.work');
const depth = process.argv.includes('--depth') ? process.argv[process.argv.indexOf('--depth') + 1] : 'deep';
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const JS_FRAMEWORKS = ['jest', 'vitest', 'mocha', 'node-test', 'ava', 'node-tap'];

const SUBJECTS = [
  { name: 'ms@2.1.3', source: () => unpackNpmPackage('ms@2.1.3'), frameworks: JS_FRAMEWORKS },
  { name: 'bytes@3.1.2', source: () => unpackNpmPackage('bytes@3.1.2'), frameworks: JS_FRAMEWORKS },
  { name: 'slugify@1.6.6', source: () => unpackNpmPackage('slugify@1.6.6'), frameworks: JS_FRAMEWORKS },
  { name: 'fixture ts-esm-units', source: async () => join(REPO, 'test/fixtures/ts-esm-units'), frameworks: ['vitest', 'jest'] },
  { name: 'fixture py-textkit', source: async () => join(REPO, 'test/fixtures/py-textkit'), frameworks: ['pytest'] },
];

/** One package through `amtp generate` (offline agents, verification on: 3 runs, coverage, beyond import). */
async function one(subject, framework) {
  const started = performance.now();
  mkdirSync(WORK, { recursive: true });
  const dir = mkdtempSync(join(WORK, 'q-'));
  try {
    cpSync(await subject.source(), dir, { recursive: true });
    const r = spawnSync(
      process.execPath,
      [join(REPO, 'dist/cli.js'), 'generate', dir, '--provider', 'offline', '--yes', '--json', '--depth', depth, '--framework', framework],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    const s = JSON.parse(r.stdout || '{}');
    const v = s.verification ?? { results: [], coverage: {}, filters: [] };
    const results = v.results ?? [];
    const loads = (v.filters ?? []).find((f) => f.step === 'loads');
    const stable = (v.filters ?? []).find((f) => f.step === 'passes_every_run');
    const existenceOnly = results.filter((x) => /nothing beyond what loading its file covers/.test(x.reason ?? '')).length;
    return {
      subject: subject.name,
      framework,
      status: s.status ?? `exit ${r.status}`,
      verification: v.status,
      reason: v.reason,
      written: results.length,
      kept: results.filter((x) => x.outcome === 'passing').length,
      loaded: loads?.kept ?? 0,
      stable: stable?.kept ?? 0,
      existenceOnly,
      statements: v.coverage?.statements,
      beyond: v.coverage?.beyondImport,
      tool: v.coverage?.tool,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const s of SUBJECTS) for (const fw of s.frameworks) if (!only || s.name.includes(only) || fw === only) rows.push(await one(s, fw));

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(0)}%` : '–');
const fmt = (x) => (x === undefined ? 'n/a' : `${x.toFixed(1)}%`);
console.log(`\n### AMTP offline test quality, verified (depth ${depth})\n`);
console.log(
  '| package | framework | tests written | kept | pass 3 of 3 (of loaded) | statements | beyond import | existence-only | measured by | wall |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---|---:|');
for (const r of rows) {
  const note = r.verification === 'done' ? '' : ` (${r.verification ?? r.status}${r.reason ? `: ${r.reason}` : ''})`;
  console.log(
    `| ${r.subject} | ${r.framework}${note} | ${r.written} | ${r.kept} | ${r.stable}/${r.loaded} (${pct(r.stable, r.loaded)}) | ${fmt(r.statements)} | ${fmt(r.beyond)} | ${r.existenceOnly} (${pct(r.existenceOnly, r.written)}) | ${r.tool ?? '–'} | ${(r.ms / 1000).toFixed(1)} s |`,
  );
}
const median = (xs) => {
  const v = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : undefined;
};
console.log(
  `\nMedian statement coverage ${fmt(median(rows.map((r) => r.statements)))} (anchor: TestPilot median 70%); median coverage beyond import ${fmt(median(rows.map((r) => r.beyond)))}.`,
);
