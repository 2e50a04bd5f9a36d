// `amtp generate --into-existing`: the cases go into the person's own test file of the module (the
// AMTP name without `.amtp` / `_amtp`, same folder). Changing that file is an fs.overwrite of the
// merged text, approved with --yes or waiting; every test already in it stays byte for byte, and
// the verifier only ever removes this run's tests from it.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { requirePytest } from '../helpers/python';
import { FIXTURES, PADKIT_OWN_TEST, SAMPLE_LIB, copyWorkspace, padkitWithOwnTest, removeWorkspace } from '../helpers/workspaces';

const THEIRS = 'test/sample-lib.test.js';
const THEIR_HEAD =
  "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst lib = require('../src/index.js');\n";
const THEIR_TESTS = [
  "test('my clamp check', () => {\n  assert.equal(lib.clamp(10, 0, 5), 5);\n});\n",
  "test('my slug check', () => {\n  // a comment of mine\n  assert.equal(lib.slugify('A B'), 'a-b');\n});\n",
];
const THEIR_FILE = THEIR_HEAD + '\n' + THEIR_TESTS.join('\n');

interface Summary {
  runId: string;
  status: string;
  files: { path: string; action: string }[];
  approvals: { tool: string; risk: string; decision: string }[];
  layoutNote?: string;
  verification?: { results: { caseId: string; outcome: string }[] };
}

// --no-characterize: these tests are about where the cases go; characterizing the documented modules would add
// 'pins current behaviour' tests (bound through the module value) and, without --yes, a tests.run approval first.
async function generate(ws: string, extra: string[]): Promise<{ code: number | null; s: Summary; stderr: string }> {
  const r = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--json', ...extra]);
  return { code: r.code, s: JSON.parse(r.stdout) as Summary, stderr: r.stderr };
}

const passing = (s: Summary) => (s.verification?.results ?? []).filter((r) => r.outcome === 'passing').map((r) => r.caseId);

describe("--into-existing: AMTP's cases go into the person's own test file", function () {
  this.timeout(240_000);
  let ws: string;
  beforeEach(async () => {
    ws = await copyWorkspace(SAMPLE_LIB);
    await fsp.mkdir(path.join(ws, 'test'));
    await fsp.writeFile(path.join(ws, THEIRS), THEIR_FILE);
  });
  afterEach(() => removeWorkspace(ws));

  it("with --yes: their tests stay byte for byte, AMTP's kept tests follow them, and the project's runner passes them all", async () => {
    const { code, s, stderr } = await generate(ws, ['--yes', '--into-existing']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(s.files, [{ path: THEIRS, action: 'merged' }]);
    assert.deepEqual(
      s.approvals.filter((a) => a.tool.startsWith('fs.')).map((a) => [a.tool, a.risk, a.decision]),
      [['fs.overwrite', 'high', 'approved']],
      'changing the person’s file is an overwrite, approved by --yes; never fs.merge_tests',
    );
    assert.equal(s.layoutNote, `src/index.js: its cases are added to your ${THEIRS}, whose own tests all stay.`);
    await assert.rejects(fsp.access(path.join(ws, 'test/sample-lib.amtp.test.js')), 'no AMTP file besides');

    const merged = await fsp.readFile(path.join(ws, THEIRS), 'utf8');
    // Their header, then the imports AMTP's tests need (names they did not bind yet, one statement per module), then their tests unchanged.
    const added =
      "const { describe, it } = require('node:test');\n" +
      "const { parseDuration, formatBytes, clamp, slugify } = require('../src/index.js');\n";
    assert.ok(
      merged.startsWith(THEIR_HEAD + added + '\n' + THEIR_TESTS.join('\n') + '\n' + "describe('src/index.js (AMTP)', () => {\n"),
      merged,
    );
    const kept = passing(s);
    assert.ok(kept.length >= 4, `kept ${kept.join(', ')}`);
    const inFile = [...merged.matchAll(/it\('.*', \(\) => \{ \/\/ (tc_[0-9a-f]{12})$/gm)].map((m) => m[1]);
    assert.deepEqual(inFile.sort(), [...kept].sort(), 'exactly the tests the verifier kept; the dropped ones are gone');

    const out = execFileSync(process.execPath, ['--test', 'test/'], { cwd: ws, encoding: 'utf8' });
    assert.match(out, new RegExp(`# pass ${kept.length + THEIR_TESTS.length}\\n# fail 0`));
    assert.match(out, /ok \d+ - my clamp check/);
    assert.match(out, /ok \d+ - my slug check/);
  });

  it('without --yes and no TTY the overwrite waits and the file is untouched; a rejection leaves it so and names the file', async () => {
    const { code, s, stderr } = await generate(ws, ['--into-existing']);
    assert.equal(code, 4, stderr);
    assert.equal(s.status, 'awaiting_approval');
    assert.deepEqual(s.files, [{ path: THEIRS, action: 'pending' }]);
    assert.deepEqual(
      s.approvals.map((a) => [a.tool, a.risk, a.decision]),
      [['fs.overwrite', 'high', 'pending']],
    );
    assert.equal(await fsp.readFile(path.join(ws, THEIRS), 'utf8'), THEIR_FILE);

    const r = await runCli(['approve', s.runId, ws, '--reject', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const after = JSON.parse(r.stdout) as Summary;
    assert.deepEqual(after.files, [{ path: THEIRS, action: 'rejected' }], 'the run says where the cases would have gone');
    assert.equal(await fsp.readFile(path.join(ws, THEIRS), 'utf8'), THEIR_FILE);
    await assert.rejects(fsp.access(path.join(ws, 'test/sample-lib.amtp.test.js')));
  });

  it("without the flag AMTP's own file is written as before and the person's file is not touched", async () => {
    const { code, s, stderr } = await generate(ws, ['--yes']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(s.files, [{ path: 'test/sample-lib.amtp.test.js', action: 'created' }]);
    assert.equal(s.layoutNote, undefined);
    assert.equal(await fsp.readFile(path.join(ws, THEIRS), 'utf8'), THEIR_FILE);
  });

  it('killed right after writing their file, `amtp resume` records it merged and verifies only its own tests; theirs stay', async () => {
    const crashed = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes', '--into-existing', '--json'], {
      AMTP_CRASH_AT: 'write:file',
    });
    assert.equal(crashed.signal, 'SIGKILL', crashed.stderr);
    const [record] = await fsp.readdir(path.join(ws, '.amtp/runs'));
    const runId = record.replace(/\.json$/, '');
    const r = await runCli(['resume', runId, ws, '--yes', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as Summary;
    assert.deepEqual(s.files, [{ path: THEIRS, action: 'merged' }]);
    const merged = await fsp.readFile(path.join(ws, THEIRS), 'utf8');
    for (const t of THEIR_TESTS) assert.ok(merged.includes('\n' + t), t);
    const kept = passing(s);
    assert.deepEqual([...merged.matchAll(/it\('.*', \(\) => \{ \/\/ (tc_[0-9a-f]{12})$/gm)].map((m) => m[1]).sort(), [...kept].sort());
    const out = execFileSync(process.execPath, ['--test', 'test/'], { cwd: ws, encoding: 'utf8' });
    assert.match(out, new RegExp(`# pass ${kept.length + THEIR_TESTS.length}\\n# fail 0`));
  });

  it('when the tests cannot be added without changing what is there, nothing is written and the audit says why', async () => {
    // Their file binds `it` to node:test's `test`: AMTP's `const { describe, it } = require('node:test')` would bind `it` twice, differently.
    const theirs =
      "const { test: it } = require('node:test');\nconst assert = require('node:assert');\n\nit('mine', () => assert.ok(true));\n";
    await fsp.writeFile(path.join(ws, THEIRS), theirs);
    const { code, s, stderr } = await generate(ws, ['--yes', '--into-existing']);
    assert.deepEqual(s.files, [{ path: THEIRS, action: 'failed' }], stderr);
    // Like any refused write (unmet.ts), the cases keep the write stage's verdict: the run completes, with nothing to verify.
    assert.equal(code, 0);
    assert.equal(s.status, 'completed');
    assert.equal(await fsp.readFile(path.join(ws, THEIRS), 'utf8'), theirs);
    const run = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${s.runId}.json`), 'utf8'));
    const refused = run.audit.filter((a: { outcome: string }) => a.outcome === 'refused');
    assert.deepEqual(
      refused.map((a: { tool: string; target: string }) => [a.tool, a.target]),
      [['fs.overwrite', THEIRS]],
    );
    assert.match(refused[0].detail, /cannot add its tests to your test\/sample-lib\.test\.js without changing what is already there/);
  });

  it('with no file of the person beside it, the AMTP file is written and the run says why', async () => {
    await fsp.rm(path.join(ws, THEIRS));
    const { code, s, stderr } = await generate(ws, ['--yes', '--into-existing']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(s.files, [{ path: 'test/sample-lib.amtp.test.js', action: 'created' }]);
    assert.equal(s.layoutNote, `src/index.js: no test file of yours at ${THEIRS}, so its cases go to test/sample-lib.amtp.test.js.`);
  });
});

describe('--into-existing and the verifier: only this run’s tests leave the person’s file', function () {
  this.timeout(240_000);
  let ws: string;
  beforeEach(async () => {
    ws = await padkitWithOwnTest();
  });
  afterEach(() => removeWorkspace(ws));

  it('a quarantined test moves to an AMTP quarantine file without the person’s tests; with none of the run’s tests left the file is put back byte for byte', async () => {
    const { code, s, stderr } = await generate(ws, ['--yes', '--into-existing', '--only', 'index.js#zeroPad']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(s.files, [{ path: 'test/padkit.test.js', action: 'merged' }]);
    assert.deepEqual(
      (s.verification?.results ?? []).map((r) => r.outcome),
      ['quarantined'],
    );
    assert.equal(await fsp.readFile(path.join(ws, 'test/padkit.test.js'), 'utf8'), PADKIT_OWN_TEST, 'back to exactly what the person had');
    const q = await fsp.readFile(path.join(ws, 'test/padkit.amtp.quarantine.test.js'), 'utf8');
    assert.ok(!q.includes('mine: upper'), q);
    const id = s.verification!.results[0].caseId;
    assert.ok(
      q.endsWith(
        `('zeroPad(\\'7\\', 3) returns \\'007\\'', () => { // ${id}\n    const actual = zeroPad('7', 3);\n    assert.strictEqual(actual, '007');\n  });\n});\n`,
      ),
      q,
    );
    // the quarantined test is skipped, not run: node:test reports it as a skip under its name
    const quarantined = execFileSync(process.execPath, ['--test', 'test/padkit.amtp.quarantine.test.js'], { cwd: ws, encoding: 'utf8' });
    assert.match(quarantined, new RegExp(`ok 1 - zeroPad\\('7', 3\\) returns '007' # SKIP`));
    const out = execFileSync(process.execPath, ['--test', 'test/'], { cwd: ws, encoding: 'utf8' });
    assert.match(out, /# pass 1\n# fail 0/);
  });
});

describe('--into-existing with pytest', function () {
  this.timeout(240_000);
  const THEIRS_PY =
    'from textkit.core import slug\n\n\ndef test_my_slug():\n    assert slug("A B") == "a-b"\n\n\nclass TestMine:\n    def test_words(self):\n        from textkit.core import words\n        assert words("a b") == ["a", "b"]\n';
  let ws: string;
  before(async () => {
    ws = await copyWorkspace(path.join(FIXTURES, 'py-textkit'));
    await fsp.mkdir(path.join(ws, 'tests'));
    await fsp.writeFile(path.join(ws, 'tests/test_core.py'), THEIRS_PY);
  });
  after(() => removeWorkspace(ws));

  it("adds the cases to tests/test_core.py after the person's tests, which pytest still runs and passes", async () => {
    const python = requirePytest();
    const { code, s, stderr } = await generate(ws, ['--yes', '--into-existing']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(s.files, [{ path: 'tests/test_core.py', action: 'merged' }]);
    const merged = await fsp.readFile(path.join(ws, 'tests/test_core.py'), 'utf8');
    const [head, ...rest] = THEIRS_PY.split('\n\n\n');
    assert.ok(merged.startsWith(head + '\n'), merged);
    assert.ok(
      merged.includes('\n\n\n' + rest.join('\n\n\n').replace(/\n$/, '') + '\n\n\ndef test_'),
      'their tests, unchanged, then AMTP’s',
    );
    const kept = passing(s);
    const inFile = [...merged.matchAll(/^def test_\w+\(\w*\): {2}# (tc_[0-9a-f]{12})$/gm)].map((m) => m[1]);
    assert.deepEqual(inFile.sort(), [...kept].sort());
    const out = execFileSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], { cwd: ws, encoding: 'utf8' });
    assert.match(out, new RegExp(`\\b${kept.length + 2} passed\\b`));
  });
});
