// The tidy phase through the pipeline for ava (frameworks/ava/sharedSetup.ts): AMTP generating ava
// tests for a class every test builds first (test/fixtures/seqcounter) ends with that value built by
// `test.beforeEach` on each test's `t.context`, and the tests pass 3 of 3 under the real ava,
// which runs them at once.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runTests } from '../../server/src/frameworks/runner';
import { FIXTURES, REPO } from '../helpers/workspaces';

describe('tidy: shared setup onto t.context through the pipeline (ava)', function () {
  this.timeout(600_000);
  let dir = '';
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the Counter every test builds is built by test.beforeEach, and the tests pass 3 of 3', async () => {
    // Under the repo (test-output/), so the workspace finds the repo's ava as a project finds its own.
    mkdirSync(join(REPO, 'test-output'), { recursive: true });
    dir = mkdtempSync(join(REPO, 'test-output', 'context-setup-'));
    cpSync(join(FIXTURES, 'seqcounter'), dir, { recursive: true });
    const r = spawnSync(
      process.execPath,
      [
        join(REPO, 'dist/cli.js'),
        'generate',
        dir,
        '--provider',
        'offline',
        '--framework',
        'ava',
        '--yes',
        '--json',
        '--search-budget',
        '6',
      ],
      { encoding: 'utf8', timeout: 540_000 },
    );
    assert.equal(r.status, 0, `amtp generate exited ${r.status}: ${r.stderr.slice(-2000)}`);
    assert.match(r.stderr, /verify: test\/counter\.amtp\.test\.js: shared setup moved into a hook or fixture/);
    const file = 'test/counter.amtp.test.js';
    const text = readFileSync(join(dir, file), 'utf8');
    assert.match(text, /\ntest\.beforeEach\(\(t\) => \{\n {2}t\.context\.counter = new seqcounter\.Counter\(\);\n\}\);\n/);
    assert.doesNotMatch(text, /const counter = new/, 'no test builds it itself');
    const tests = text.match(/\ntest\('/g)!.length;
    assert.ok(tests >= 3, text);
    assert.equal(text.match(/\n {2}const \{ counter \} = t\.context;\n/g)!.length, tests, 'every test reads it from its context');
    for (let i = 0; i < 3; i++) {
      const run = await runTests('ava', dir, [file], { binDir: REPO });
      assert.equal(run.failed, 0, run.output.slice(-3000));
      assert.equal(run.passed, tests, run.output.slice(-3000));
    }
  });
});
