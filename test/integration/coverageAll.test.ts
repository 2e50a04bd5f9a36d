// Honest coverage (docs/verifier.md, "Coverage over the whole package"): AMTP's statement figure is
// counted over every product file of the package, as `nyc --all` counts (statements from the syntax
// tree, not one per line), not only over the files the kept tests load; the run says which product
// files no test reaches; and an existence check that covers nothing beyond loading is never kept.
// Measured against a real `nyc --all` run of the kept tests.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/cli.js');
const NYC = join(REPO, 'node_modules/nyc/bin/nyc.js');

interface Summary {
  files: { path: string }[];
  verification: {
    status: string;
    results: { caseId: string; outcome: string; reason?: string }[];
    coverage: { statements?: number; branches?: number; productFiles?: number; untestedFiles?: string[] };
  };
}

function generate(dir: string): Summary {
  // node:test needs nothing installed; characterization off so the plan is only what the docs show.
  const args = [CLI, 'generate', dir, '--provider', 'offline', '--framework', 'node-test', '--yes', '--json', '--no-characterize'];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 170_000 });
  assert.ok(r.stdout, r.stderr);
  return JSON.parse(r.stdout) as Summary;
}

describe('coverage over all product files, compared with nyc --all', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const workspace = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-covall-'));
    dirs.push(dir);
    return dir;
  };

  it("AMTP's statement figure is within 3 points of nyc --all over the package's files, and names the file no test reaches", () => {
    const dir = workspace();
    cpSync(join(REPO, 'test/fixtures/coverage-all'), dir, { recursive: true });
    const s = generate(dir);
    const v = s.verification;
    assert.equal(v.status, 'done');
    assert.equal(v.coverage.productFiles, 3);
    assert.deepEqual(v.coverage.untestedFiles, ['lib/format.js']);
    const kept = s.files.map((f) => f.path).filter((p) => existsSync(join(dir, p)));
    assert.ok(kept.length > 0, 'some tests are kept');
    const report = join(dir, '.nyc-report');
    const nyc = spawnSync(
      process.execPath,
      [
        NYC,
        '--all',
        '--cwd',
        dir,
        '--include',
        'index.js',
        '--include',
        'lib/**',
        '--reporter',
        'json-summary',
        '--report-dir',
        report,
        '--temp-dir',
        join(report, 'tmp'),
        process.execPath,
        '--test',
        ...kept,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.equal(nyc.status, 0, nyc.stdout + nyc.stderr);
    const summary = JSON.parse(readFileSync(join(report, 'coverage-summary.json'), 'utf8')) as {
      total: { statements: { pct: number }; branches: { pct: number } };
    };
    const independent = summary.total.statements.pct;
    const amtp = v.coverage.statements!;
    // lib/format.js (its dependency is missing, so no test of it loads) counts for nyc --all, and the
    // comment lines of the JSDoc do not: the figure is far from 100%.
    assert.ok(independent < 50, `nyc --all: ${independent}%`);
    assert.ok(Math.abs(amtp - independent) <= 3, `AMTP ${amtp}% vs nyc --all ${independent}%`);
    // Branches too are istanbul's (if/else arms, ?:, &&/||/?? leaves, switch clauses), not V8's blocks.
    const branches = summary.total.branches.pct;
    assert.ok(Math.abs(v.coverage.branches! - branches) <= 3, `AMTP branches ${v.coverage.branches}% vs nyc --all ${branches}%`);
  });

  it('an existence check that covers nothing beyond loading is never kept, also when no test covers anything', () => {
    const dir = workspace();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shapes', version: '1.0.0', main: 'index.js' }));
    writeFileSync(
      join(dir, 'index.js'),
      "'use strict';\nfunction area(w, h) {\n  return w * h;\n}\nfunction perimeter(w, h) {\n  return 2 * (w + h);\n}\nmodule.exports = { area, perimeter };\n",
    );
    const v = generate(dir).verification;
    assert.ok(v.results.length > 0, 'existence checks were written and run');
    for (const r of v.results) {
      assert.equal(r.outcome, 'dropped', `${r.caseId} ${r.outcome}`);
      assert.match(r.reason ?? '', /covers nothing beyond what loading its file covers/);
    }
  });
});
