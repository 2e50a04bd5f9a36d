// The tidy phase's safety net (verifier/tidyPhase.ts): a tidied file whose kept tests do not all pass
// when run together is put back as it was. test/fixtures/verifier-tidy: the README's four examples
// become four node:test tests in its order, three starting with `const t = new Timer();`. The hoister
// moves those three into a nested block with a beforeEach, which runs them before formatDuration()'s
// test; one of them sets the process-wide unit to 's', so that test's pinned '3ms' now fails. Nothing
// in the test file's syntax shows the shared state: only running it does.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_VERIFY } from '../../server/src/core/run';
import { resolveParams } from '../../server/src/pipeline/config';
import type { PipelineEvent, TestAccess } from '../../server/src/pipeline/deps';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { runTests } from '../../server/src/frameworks/runner';
import { offlineDeps } from '../helpers/pipelineDeps';

const REPO = path.resolve(__dirname, '../..');
const FILE = 'test/units.amtp.test.js';

describe('verifier: a tidied file that fails together is put back', function () {
  this.timeout(300_000);
  let ws: string;
  after(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  it('the file ends as it was before tidying, its four tests kept and passing, and the log says the setup stayed', async () => {
    ws = path.join(await fsp.mkdtemp(path.join(tmpdir(), 'amtp-tidy-')), 'units');
    await fsp.cp(path.join(REPO, 'test/fixtures/verifier-tidy'), ws, { recursive: true });
    // Each verifier write, with the file's text just before it (told before the write happens).
    const writes: { path: string; before: string | null; after: string | null }[] = [];
    const tests: TestAccess = {
      plan: (decide) => decide(),
      run: runTests,
      wrote: (p, after) => {
        const abs = path.join(ws, p);
        writes.push({ path: p, before: existsSync(abs) ? readFileSync(abs, 'utf8') : null, after });
      },
      mutate: (_key, _root, exec) => exec(),
    };
    const events: PipelineEvent[] = [];
    const run = await startRun(offlineDeps(ws, undefined, { tests, onEvent: (e) => events.push(e) }), {
      ...resolveParams({ provider: 'offline', framework: 'node-test' }),
      characterize: false,
      verify: DEFAULT_VERIFY,
    });

    const ofFile = writes.filter((w) => w.path === FILE);
    const tidy = ofFile.findIndex((w) => /beforeEach/.test(w.after ?? ''));
    assert.ok(tidy >= 0, `the hoister moved the setup: ${JSON.stringify(ofFile.map((w) => w.after))}`);
    const tidied = ofFile[tidy].after!;
    assert.match(tidied, /describe\('with t = new Timer\(\)', \(\) => \{\n {4}let t;\n {4}beforeEach\(\(\) => \{\n {6}t = new Timer\(\);/);
    const before = ofFile[tidy].before!;
    assert.equal(before.match(/const t = new Timer\(\);/g)?.length, 3, before);
    assert.equal(ofFile[tidy + 1]?.after, before, 'the next write puts back the text from before tidying');
    assert.equal(ofFile.length, tidy + 2, 'and nothing writes the file after that');
    assert.equal(await fsp.readFile(path.join(ws, FILE), 'utf8'), before);

    const results = run.verification!.results;
    const passing = results.filter((r) => r.outcome === 'passing').map((r) => r.test);
    assert.deepEqual(
      passing.map((t) => t?.replace(/^index\.js \(AMTP\) /, '')).sort(),
      [
        "formatDuration(3) returns '3ms'",
        "t.format(5) returns '5ms'",
        "t.parse('250ms') returns 250",
        "t.setUnit('s').format(2) returns '2s'",
      ],
      JSON.stringify(results),
    );
    const logs = events.flatMap((e) => (e.type === 'log' ? [e.message] : []));
    assert.ok(
      logs.includes(`verify: ${FILE}: shared setup left in each test (the tidied file did not pass whole)`),
      logs.filter((l) => l.startsWith('verify:')).join('\n'),
    );
    // The file on disk passes under node:test as the project runs it.
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', FILE], { cwd: ws, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^# pass 4$/m);
  });
});
