// Above maxCoverageRuns the "adds coverage" filter measures whole files, and an existence-only test
// sharing a file with behaviour tests used to survive it. server/src/verifier/existenceChecks.ts judges
// them in one run per file: the file without them covers as much beyond import, so they go.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_VERIFY } from '../../server/src/core/run';
import { resolveParams } from '../../server/src/pipeline/config';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { offlineDeps } from '../helpers/pipelineDeps';

const REPO = path.resolve(__dirname, '../..');
// Two exports with no documented result: each gets only an existence check, in hello's test file.
// And one whose documented result is wrong: its test fails (quarantined) after running code no other
// test runs, which must not count for the file (only tests that pass every run are measured).
const UNDOCUMENTED =
  '\nfunction shout(text) {\n  return text.toUpperCase();\n}\nfunction whisper(text) {\n  return text.toLowerCase();\n}\n' +
  '/**\n * Doubles.\n * @example twice(2) // => 5\n */\nfunction twice(n) {\n  const doubled = n * 2;\n  return doubled;\n}\n' +
  'module.exports.shout = shout;\nmodule.exports.whisper = whisper;\nmodule.exports.twice = twice;\n';

describe('verifier: existence-only checks are judged when coverage is measured per file', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => fsp.rm(d, { recursive: true, force: true }))));

  async function verify(maxCoverageRuns: number) {
    // A folder around the workspace: the fixture writes ran.marker beside it when it loads.
    const root = await fsp.mkdtemp(path.join(tmpdir(), 'amtp-shape-'));
    dirs.push(root);
    const ws = path.join(root, 'marker');
    await fsp.cp(path.join(REPO, 'test/fixtures/verifier-marker'), ws, { recursive: true });
    await fsp.appendFile(path.join(ws, 'index.js'), UNDOCUMENTED);
    const run = await startRun(offlineDeps(ws), {
      ...resolveParams({ provider: 'offline' }),
      verify: { ...DEFAULT_VERIFY, runs: 1, maxCoverageRuns },
      characterize: false,
    });
    return run.verification!;
  }

  // mocha gives each test's coverage from the run's one process (verifier/perTestRun.ts), so no limit on
  // coverage runs makes it measure whole files any more: the per-file path serves runners without it.
  it('above the limit (4 tests > 1), mocha still judges each test from its one process: both existence checks go', async () => {
    const v = await verify(1);
    const step = v.filters.find((f) => f.step === 'adds_coverage')!;
    assert.equal(step.skipped, undefined);
    // twice's test failed every run: quarantined before this step, which sees hello's and the two checks.
    assert.deepEqual([step.kept, step.dropped], [1, 2]);
    const outcomes = v.results.map((r) => r.outcome).sort();
    assert.deepEqual(outcomes, ['dropped', 'dropped', 'passing', 'quarantined']);
    for (const r of v.results.filter((x) => x.outcome === 'dropped'))
      assert.match(r.reason!, /covers nothing beyond what loading its file covers/);
  });

  // The failing twice test, still in the file while coverage is measured, runs code no kept test runs:
  // counted for the file, it made the shared-state check put the two checks back.
  it('per test (the default limit): the same two go, each judged alone', async () => {
    const v = await verify(DEFAULT_VERIFY.maxCoverageRuns);
    const dropped = v.results.filter((r) => r.outcome === 'dropped');
    assert.equal(dropped.length, 2, JSON.stringify(v.results));
    assert.equal(v.filters.find((f) => f.step === 'adds_coverage')!.skipped, undefined);
    for (const r of dropped) assert.match(r.reason!, /covers nothing beyond what loading its file covers/);
  });
});
