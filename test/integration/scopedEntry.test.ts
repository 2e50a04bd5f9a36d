// A run scoped to one function of a real package (semver 7, vendored under test/fixtures/packages):
// the README calls it through the package's entry (`semver.valid(semver.coerce('v2'))`), so the
// tests bind `semver` to the entry, never to the module value of the scoped file, and they pass.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { unpackNpmPackage } from '../helpers/npmPack';

interface Planned {
  id: string;
  title: string;
  target: { file: string; symbol: string };
}

async function artifact(ws: string, runId: string, kind: string): Promise<{ cases: Planned[] }> {
  const dir = path.join(ws, '.amtp/artifacts', runId);
  for (const name of await fsp.readdir(dir)) {
    const a = JSON.parse(await fsp.readFile(path.join(dir, name), 'utf8'));
    if (a.kind === kind) return a.content;
  }
  throw new Error(`no ${kind} artifact in run ${runId}`);
}

describe('a scoped run on a real package binds README examples through its entry (semver 7)', function () {
  this.timeout(300_000);
  let ws: string;
  beforeEach(async () => {
    ws = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-scoped-entry-')), 'semver');
    await fsp.cp(await unpackNpmPackage('semver@7.8.6'), ws, { recursive: true });
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  for (const only of ['functions/coerce.js#coerce', 'functions/coerce.js']) {
    it(`--only ${only}: the README's coerce examples call semver's entry, and every written test passes`, async () => {
      // node:test: semver pins tap 16, which this copy does not install. --no-characterize: the test is about
      // binding the README's examples; characterization would search the whole entry module (rsort, …) too.
      const r = await runCli([
        'generate',
        ws,
        '--provider',
        'offline',
        '--framework',
        'node-test',
        '--only',
        only,
        '--no-characterize',
        '--yes',
        '--json',
      ]);
      assert.equal(r.code, 0, r.stderr);
      const run = JSON.parse(r.stdout) as { runId: string; status: string; reason?: string };
      assert.equal(run.status, 'completed', run.reason);
      const plan = await artifact(ws, run.runId, 'generator_output');
      // Only the README examples that call coerce: `semver.valid('1.2.3')` is not about coerce.
      assert.deepEqual(
        plan.cases.map((c) => [c.title, `${c.target.file}#${c.target.symbol}`]),
        [
          ["semver.valid(semver.coerce('v2')) returns '2.0.0'", 'index.js#coerce'],
          ["semver.valid(semver.coerce('42.6.7.9.3-alpha')) returns '42.6.7'", 'index.js#coerce'],
        ],
      );
      const record = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${run.runId}.json`), 'utf8'));
      // Both pass every run; the verifier may keep one of them only, when the other adds no coverage.
      const results = record.verification.results as { outcome: string; step?: string }[];
      assert.deepEqual(
        results.filter((x) => x.outcome !== 'passing' && x.step !== 'adds_coverage'),
        [],
      );
      assert.equal(results[0].outcome, 'passing');
      const files = record.files.map((f: { path: string }) => f.path);
      assert.equal(files.length, 1);
      const text = await fsp.readFile(path.join(ws, files[0]), 'utf8');
      const requires = text.match(/require\([^)]*\)/g);
      assert.deepEqual(requires, ["require('node:test')", "require('node:assert/strict')", "require('../index.js')"], text);
    });
  }
});
