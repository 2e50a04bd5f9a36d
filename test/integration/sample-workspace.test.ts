import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';

// The README's main job: the offline pipeline on examples/sample-lib, then the written tests run.
describe('the sample workspace (README main command)', function () {
  this.timeout(60_000);

  it('generates node:test files whose every test passes, including @example-only exports of a CommonJS module', async () => {
    const ws = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-sample-')), 'sample-lib');
    await fsp.cp(path.resolve(__dirname, '../../examples/sample-lib'), ws, { recursive: true });
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
      assert.ok(pass >= 12, `${pass} tests passed`);
      // Every documented @example result is asserted, by each export's own name.
      const content = await fsp.readFile(path.join(ws, s.files[0].path), 'utf8');
      for (const call of ["parseDuration('2h')", 'formatBytes(1536)', 'clamp(5, 0, 3)', "slugify('Hello, World!')"]) assert.ok(content.includes(call), call);
    } finally {
      await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    }
  });
});
