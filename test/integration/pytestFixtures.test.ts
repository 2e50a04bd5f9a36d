// The tidy phase with pytest (verifier/tidyPhase.ts, frameworks/pytest/sharedSetup.ts): the offline
// engineer's tests of test/fixtures/py-stack each start with `s = Stack()` (the doc examples do);
// after the run that line is a fixture's, the tests take `s`, and the project's own
// `python3 -m pytest` passes every kept test, each pushing to a fresh stack.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_VERIFY } from '../../server/src/core/run';
import { resolveParams } from '../../server/src/pipeline/config';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { offlineDeps } from '../helpers/pipelineDeps';
import { requirePytest } from '../helpers/python';

const REPO = path.resolve(__dirname, '../..');

describe('verifier: shared setup of pytest tests in a fixture', function () {
  this.timeout(300_000);
  let ws: string;
  after(() => fsp.rm(ws, { recursive: true, force: true }));

  it('the tests that built the same Stack take it from one @pytest.fixture, and all kept tests pass under pytest', async () => {
    const python = requirePytest();
    ws = await fsp.mkdtemp(path.join(tmpdir(), 'amtp-pyfixture-'));
    await fsp.cp(path.join(REPO, 'test/fixtures/py-stack'), ws, { recursive: true });
    const run = await startRun(offlineDeps(ws), {
      ...resolveParams({ provider: 'offline', framework: 'pytest' }),
      characterize: false,
      verify: { ...DEFAULT_VERIFY, runs: 1, rounds: 0 },
    });
    const kept = run.verification!.results.filter((r) => r.outcome === 'passing');
    const text = await fsp.readFile(path.join(ws, 'tests/test_stackpkg_amtp.py'), 'utf8');
    assert.match(text, /\n\n\n@pytest\.fixture\ndef s\(\):\n {4}return Stack\(\)\n\n\ndef test_/);
    const takers = text.match(/^def test_\w+\(s\):/gm) ?? [];
    assert.ok(takers.length >= 3, text);
    assert.doesNotMatch(text, /^ {4}s = Stack\(\)$/m, 'no test builds it itself');
    const r = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: ws,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: ws },
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(kept.length, (text.match(/^def test_/gm) ?? []).length, text);
    assert.match(r.stdout, new RegExp(`\\b${kept.length} passed\\b`));
  });
});
