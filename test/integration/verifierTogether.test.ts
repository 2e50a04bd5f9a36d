// The project's mocha runs every test file in ONE process; the verifier used to run each file alone,
// so a test that passes alone and fails after another file's tests was kept (mnemonist@0.40.8: 0 of 3
// runs of its kept suite passed under its own mocha). test/fixtures/verifier-shared: mark() sets
// process-wide state that mode() reads; mode()'s pinned "none" holds only when no test of mark() ran
// before it in the process. The verifier now runs the files together, as the project does, and what it
// keeps passes 3 of 3 under the project's own command.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_VERIFY } from '../../server/src/core/run';
import { resolveParams } from '../../server/src/pipeline/config';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { offlineDeps } from '../helpers/pipelineDeps';

const REPO = path.resolve(__dirname, '../..');

describe('verifier: the test files run together, as the project runs them', function () {
  this.timeout(300_000);
  let ws: string;
  after(() => fsp.rm(ws, { recursive: true, force: true }));

  it('a test that fails after another file’s tests in one mocha process is not kept; the kept suite passes 3 of 3 under mocha', async () => {
    ws = await fsp.mkdtemp(path.join(tmpdir(), 'amtp-together-'));
    await fsp.cp(path.join(REPO, 'test/fixtures/verifier-shared'), ws, { recursive: true });
    await fsp.mkdir(path.join(ws, 'node_modules'));
    await fsp.symlink(path.join(REPO, 'node_modules', 'mocha'), path.join(ws, 'node_modules', 'mocha'));
    const run = await startRun(offlineDeps(ws), {
      ...resolveParams({ provider: 'offline', framework: 'mocha' }),
      characterize: true,
      searchBudget: 3,
      verify: { ...DEFAULT_VERIFY, runs: 2 },
    });
    const v = run.verification!;
    const kept = v.results.filter((r) => r.outcome === 'passing');
    assert.ok(
      kept.some((r) => /mark\(/.test(r.test ?? '')),
      JSON.stringify(v.results),
    );
    const modeNone = v.results.find((r) => /mode\(\) returns "none"/.test(r.test ?? ''));
    assert.ok(modeNone, JSON.stringify(v.results));
    assert.notEqual(modeNone.outcome, 'passing', 'it passes alone, never after mark() in the same process');
    const files = (await fsp.readdir(path.join(ws, 'test'))).filter((f) => f.endsWith('.amtp.test.js')).map((f) => `test/${f}`);
    for (let i = 0; i < 3; i++) {
      const r = spawnSync(process.execPath, [path.join(ws, 'node_modules/mocha/bin/mocha.js'), ...files], { cwd: ws, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, new RegExp(`${kept.length} passing`));
    }
  });
});
