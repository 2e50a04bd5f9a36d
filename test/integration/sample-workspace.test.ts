import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { copyWorkspace, SAMPLE_LIB } from '../helpers/workspaces';

// The README's main job: the offline pipeline on examples/sample-lib, then the written tests run.
describe('the sample workspace (README main command)', function () {
  this.timeout(60_000);

  it('generates node:test files whose every test passes, including @example-only exports of a CommonJS module', async () => {
    const ws = await copyWorkspace(SAMPLE_LIB);
    try {
      const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout);
      assert.equal(s.status, 'completed');
      assert.ok(s.files.length >= 1);
      const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'test/'], { cwd: ws, encoding: 'utf8' });
      const pass = Number(/^# pass (\d+)/m.exec(run.stdout)?.[1]);
      const fail = Number(/^# fail (\d+)/m.exec(run.stdout)?.[1]);
      assert.equal(fail, 0, run.stdout.slice(-2000));
      // The verifier ran (default): 9 tests written (no export check for a symbol whose documented
      // example is tested), the ones left on disk are the assured ones.
      const v = s.verification;
      assert.equal(v.status, 'done');
      assert.ok(v.results.length >= 9, `${v.results.length} tests written`);
      const passing = v.results.filter((r: { outcome: string }) => r.outcome === 'passing');
      assert.equal(pass, passing.length, 'exactly the assured tests are left, and they pass');
      // In os.tmpdir() there is no c8 above the workspace: the coverage filter says so and keeps all.
      if (v.coverage.skipped) assert.match(v.filters[2].skipped, /c8 is not installed/);
      else assert.ok(Math.abs(v.coverage.after - v.coverage.before) <= 1, `coverage ${v.coverage.before} → ${v.coverage.after}`);
      // Every documented @example result was asserted, by each export's own name: it is still in the
      // file, or its test was dropped because it added no coverage (with that reason on record).
      const content = await fsp.readFile(path.join(ws, s.files[0].path), 'utf8');
      const { runs } = JSON.parse((await runCli(['runs', ws, '--json'])).stdout);
      assert.equal(runs[0].runId, s.runId);
      for (const call of ["parseDuration('2h')", 'formatBytes(1536)', 'clamp(5, 0, 3)', "slugify('Hello, World!')"]) {
        const dropped = v.results.some(
          (r: { outcome: string; reason?: string; test?: string }) =>
            r.outcome === 'dropped' && /adds no coverage/.test(r.reason ?? '') && (r.test ?? '').includes(call),
        );
        assert.ok(content.includes(call) || dropped, call);
      }
    } finally {
      await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    }
  });
});
