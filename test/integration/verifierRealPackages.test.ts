// The verifier on real npm packages (vendored tarballs, test/helpers/npmPack.ts) with the real runners from this repo's node_modules:
// after `amtp generate --yes`, the only tests left on disk are the ones that passed 3 of 3 runs and
// add coverage, and they still pass 3 of 3 runs; coverage of the kept set equals the stable set's.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runTests } from '../../server/src/frameworks/runner';
import type { Framework } from '../../server/src/core/frameworks';
import { unpackNpmPackage } from '../helpers/npmPack';

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/cli.js');
const WORK = join(REPO, 'test-output');

// Every package under node:test (fast), and ms under every other JavaScript runner.
const MATRIX: [string, Framework][] = [
  ['ms@2.1.3', 'node-test'],
  ['bytes@3.1.2', 'node-test'],
  ['slugify@1.6.6', 'node-test'],
  ['ms@2.1.3', 'jest'],
  ['ms@2.1.3', 'vitest'],
  ['ms@2.1.3', 'mocha'],
  ['ms@2.1.3', 'ava'],
  ['ms@2.1.3', 'node-tap'],
];

describe('verifier on real packages × real runners', function () {
  this.timeout(600_000);
  const dirs: string[] = [];
  const figures: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    if (process.env.AMTP_VERIFIER_FIGURES) process.stderr.write(figures.join('\n') + '\n');
  });

  for (const [spec, fw] of MATRIX) {
    it(`${spec} × ${fw}: only tests that pass 3 of 3 runs stay, and they pass 3 of 3 again`, async () => {
      mkdirSync(WORK, { recursive: true });
      const dir = mkdtempSync(join(WORK, `verify-${spec.split('@')[0]}-${fw}-`));
      dirs.push(dir);
      cpSync(await unpackNpmPackage(spec), dir, { recursive: true });
      const r = spawnSync(
        process.execPath,
        // A small search budget: this is about the verifier, and every runner here is slow on a busy machine.
        [CLI, 'generate', dir, '--provider', 'offline', '--framework', fw, '--depth', 'deep', '--yes', '--json', '--search-budget', '5'],
        { encoding: 'utf8', timeout: 540_000 },
      );
      assert.equal(r.status, 0, `${r.stderr}\n${r.stdout}`);
      const s = JSON.parse(r.stdout);
      const v = s.verification;
      assert.equal(v.status, 'done', v.reason);
      assert.equal(s.status, 'completed', s.reason);
      const written = s.files.filter((f: { path: string }) => /\.test\./.test(f.path));
      const writtenCases = new Set<string>();
      for (const res of v.results) writtenCases.add(res.caseId);
      const [loads, passes, coverage] = v.filters;
      assert.deepEqual(
        v.filters.map((f: { step: string }) => f.step),
        ['loads', 'passes_every_run', 'adds_coverage'],
      );
      assert.equal(loads.kept + loads.dropped, v.results.length, 'every written test has a result');
      assert.equal(passes.kept + passes.dropped + (passes.quarantined ?? 0), loads.kept);
      assert.equal(coverage.kept + coverage.dropped, passes.kept);
      const count = (o: string) => v.results.filter((x: { outcome: string }) => x.outcome === o).length;
      assert.equal(count('passing'), coverage.kept);
      for (const x of v.results) if (x.outcome !== 'passing') assert.ok(x.reason, `${x.caseId} ${x.outcome} has a reason`);
      // Contribution is measured per test in isolation; the suite runs together, where shared state
      // (caches, module init) can add or remove a unit, so before/after agree to within a point.
      assert.ok(Math.abs(v.coverage.after - v.coverage.before) <= 1, `coverage ${v.coverage.before} → ${v.coverage.after}`);
      // What is left on disk passes 3 of 3.
      const left = written
        .map((f: { path: string }) => f.path)
        .filter((p: string) => {
          try {
            readFileSync(join(dir, p));
            return true;
          } catch {
            return false;
          }
        });
      const kept = left.filter((p: string) => !p.includes('.quarantine.'));
      const config = s.files.find((f: { path: string }) => f.path.endsWith('amtp.jest.config.cjs'));
      for (let i = 0; i < 3; i++) {
        const run = await runTests(fw, dir, kept, { binDir: REPO, args: config ? ['--config', config.path] : [] });
        assert.equal(run.failed, 0, run.output.slice(-2000));
        assert.equal(
          run.passed,
          count('passing'),
          `run ${i + 1}: ${run.passed} passed, ${count('passing')} kept\n${run.output.slice(-2000)}`,
        );
      }
      figures.push(
        `${spec.padEnd(14)} ${fw.padEnd(9)} written ${String(v.results.length).padStart(3)}  kept ${String(count('passing')).padStart(3)}  flaky ${count('flaky')}  quarantined ${count('quarantined')}  dropped ${String(count('dropped')).padStart(3)} (loads ${loads.dropped}, runs ${passes.dropped}, coverage ${coverage.dropped})  coverage ${v.coverage.before}% → ${v.coverage.after}%  runner invocations ${v.executions}`,
      );
    });
  }
});
