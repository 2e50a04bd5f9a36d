// Test-quality benchmark: for each package × framework, run the offline pipeline (crawl →
// generate → engineer), execute the written tests with the real runner, measure statement
// coverage of the package's source with c8 (coverage.py for Python) and print a markdown table.
// Run: node --import tsx bench/quality.mjs [--depth standard|deep]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crawlWorkspace } from '../server/src/agents/crawler/staticMap.ts';
import { generateCases } from '../server/src/agents/generator/offline.ts';
import { engineerTests } from '../server/src/agents/engineer/offline.ts';
import { runTests } from '../server/src/frameworks/runner.ts';
import { unpackNpmPackage } from '../test/helpers/npmPack.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = join(REPO, 'bench/.work');
const depth = process.argv.includes('--depth') ? process.argv[process.argv.indexOf('--depth') + 1] : 'deep';
const JS_FRAMEWORKS = ['jest', 'vitest', 'mocha', 'node-test', 'ava', 'node-tap'];

const SUBJECTS = [
  { name: 'ms@2.1.3', source: () => unpackNpmPackage('ms@2.1.3'), frameworks: JS_FRAMEWORKS },
  { name: 'bytes@3.1.2', source: () => unpackNpmPackage('bytes@3.1.2'), frameworks: JS_FRAMEWORKS },
  { name: 'slugify@1.6.6', source: () => unpackNpmPackage('slugify@1.6.6'), frameworks: JS_FRAMEWORKS },
  { name: 'fixture ts-esm-units', source: async () => join(REPO, 'test/fixtures/ts-esm-units'), frameworks: ['vitest', 'jest'] },
  { name: 'fixture py-textkit', source: async () => join(REPO, 'test/fixtures/py-textkit'), frameworks: ['pytest'] },
];

/** An interpreter with pytest, preferring one that also has coverage.py (Debian's python3-coverage). */
function pythonWithPytest() {
  const candidates = ['python3', '/usr/bin/python3'];
  const has = (py, mods) => spawnSync(py, ['-c', `import ${mods}`], { stdio: 'ignore' }).status === 0;
  return candidates.find((py) => has(py, 'pytest, coverage')) ?? candidates.find((py) => has(py, 'pytest'));
}

async function one(subject, framework) {
  const started = performance.now();
  mkdirSync(WORK, { recursive: true });
  const dir = mkdtempSync(join(WORK, 'q-'));
  try {
    cpSync(await subject.source(), dir, { recursive: true });
    const { map } = await crawlWorkspace(dir);
    const cases = generateCases(map, depth);
    const out = engineerTests(cases, framework);
    for (const f of out.files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.content);
    }
    const tests = out.files.filter((f) => /(\.test\.|test_)/.test(f.path)).map((f) => f.path);
    const config = out.files.find((f) => f.path.endsWith('amtp.jest.config.cjs'));
    const sources = [...new Set(map.key_files.map((k) => k.path))];
    const written = out.files.filter((f) => tests.includes(f.path)).reduce((n, f) => n + f.caseIds.length, 0);
    const python = framework === 'pytest' ? pythonWithPytest() : undefined;
    const run = tests.length && (framework !== 'pytest' || python)
      ? await runTests(framework, dir, tests, { binDir: REPO, coverageOf: sources, python, args: config ? ['--config', config.path] : [] })
      : { total: 0, passed: 0, failed: 0 };
    const reasons = {};
    for (const n of out.not_written) reasons[n.reason.split(':')[0]] = (reasons[n.reason.split(':')[0]] ?? 0) + 1;
    return { subject: subject.name, framework, cases: cases.cases.length, written, notWritten: out.not_written.length, reasons, ...run, ms: Math.round(performance.now() - started) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (const s of SUBJECTS) for (const fw of s.frameworks) rows.push(await one(s, fw));

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(0)}%` : '–');
console.log(`\n### AMTP offline test quality (depth ${depth})\n`);
console.log('| package | framework | cases | written | not written (reasons) | passing | statement coverage | wall |');
console.log('|---|---|---:|---:|---|---:|---:|---:|');
for (const r of rows) {
  const reasons = Object.entries(r.reasons).map(([k, v]) => `${v}× ${k}`).join('; ') || '–';
  const cov = r.statements === undefined ? 'n/a' : `${r.statements.toFixed(1)}%`;
  console.log(`| ${r.subject} | ${r.framework} | ${r.cases} | ${r.written} | ${r.notWritten} (${reasons}) | ${r.passed}/${r.total} (${pct(r.passed, r.total)}) | ${cov} | ${(r.ms / 1000).toFixed(1)} s |`);
}
const covs = rows.map((r) => r.statements).filter((x) => x !== undefined).sort((a, b) => a - b);
const median = covs.length ? covs[Math.floor(covs.length / 2)] : undefined;
const passed = rows.reduce((n, r) => n + r.passed, 0);
const total = rows.reduce((n, r) => n + r.total, 0);
console.log(`\nMedian statement coverage ${median?.toFixed(1) ?? 'n/a'}% (anchor: TestPilot median 70%). Tests passing ${pct(passed, total)} (anchor: TestGen-LLM 57%).`);
