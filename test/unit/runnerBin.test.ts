// Finding an installed runner by its package.json `bin` (any version), and driving a mocha older than 6:
// mocha 5's layout (bin/mocha, no .js), its CLI that refuses flags it does not know (commander exits
// with "error: unknown option") and its JSON reporter that prints on stdout with no `file` per test.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '../../server/src/frameworks/runner';
import { assetFile } from '../../server/src/frameworks/assets';
import { fromStdout, mochaResults } from '../../server/src/frameworks/mocha/runner';
import { nodeTapRunner } from '../../server/src/frameworks/node-tap/runner';
import { findRunnerDir, installedEntry, runnerEntry } from '../../server/src/frameworks/run/runnerBin';
import { planRun } from '../../server/src/verifier/runPlan';

const REPO = resolve(__dirname, '../..');

// What mocha 5.2.0's json reporter printed for one passing and one failing test (captured shape: no `file`).
const MOCHA5_REPORT = {
  stats: { suites: 1, tests: 2, passes: 1, pending: 0, failures: 1 },
  tests: [],
  pending: [],
  failures: [
    {
      title: 'c2 trims',
      fullTitle: 'trim c2 trims',
      duration: 1,
      currentRetry: 0,
      // as AMTP's reporter writes it (amtp.mocha-values.cjs): the values printed in mocha's process
      err: { message: "expected 'a ' to equal 'a'", expected: 'a', actual: 'a ', amtpValues: { expected: "'a'", actual: "'a '" } },
    },
  ],
  passes: [{ title: 'c1 pads', fullTitle: 'pad c1 pads', duration: 0, currentRetry: 0, err: {} }],
};

// A stand-in for mocha 5's bin: the flags it accepts are mocha 5's own; it reads test/mocha.opts unless
// --opts names another file, as mocha 5 did; a test prints to the console before the report.
const FAKE_MOCHA5 = `#!/usr/bin/env node
const fs = require('fs');
const known = new Set(['--opts', '--reporter', '--reporter-options', '-O', '--grep', '--require']);
const argv = process.argv.slice(2);
const optsAt = argv.indexOf('--opts');
const optsFile = optsAt < 0 ? 'test/mocha.opts' : argv[optsAt + 1];
if (fs.existsSync(optsFile) && /--require/.test(fs.readFileSync(optsFile, 'utf8'))) { console.error('Error: Cannot find module ./setup-from-opts'); process.exit(1); }
for (const a of argv) if (a.startsWith('-') && !known.has(a)) { console.error("error: unknown option \`" + a + "'"); process.exit(1); }
console.log('a console.log from a test');
process.stdout.write(JSON.stringify(${JSON.stringify(MOCHA5_REPORT)}, null, 2));
process.exit(1);
`;

function mochaPackage(ws: string, version: string, bin: Record<string, string> | undefined, files: Record<string, string>): void {
  const dir = join(ws, 'node_modules', 'mocha');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mocha', version, ...(bin ? { bin } : {}) }));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
}

describe('runner entry from package.json bin', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'amtp-runnerbin-'));
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("mocha 5's bin/mocha (no .js) is found through package.json, from a sub-directory too", () => {
    const ws = tmp();
    mochaPackage(ws, '5.2.0', { mocha: './bin/mocha', _mocha: './bin/_mocha' }, { 'bin/mocha': FAKE_MOCHA5, 'bin/_mocha': FAKE_MOCHA5 });
    mkdirSync(join(ws, 'pkg'));
    assert.equal(installedEntry(ws, 'mocha'), join(ws, 'node_modules/mocha/bin/mocha'));
    assert.equal(findRunnerDir(join(ws, 'pkg'), 'mocha'), ws);
    const plan = planRun('mocha', join(ws, 'pkg'), 'npx mocha', ['test/a.test.js']);
    assert.ok(!('cannot' in plan), JSON.stringify(plan));
    assert.equal(plan.binDir, ws);
  });

  it('a string `bin`, the known path when package.json declares none, and a clear reason when nothing runs', () => {
    const ws = tmp();
    mochaPackage(ws, '10.0.0', undefined, { 'bin/mocha.js': '' });
    assert.equal(runnerEntry(ws, 'mocha'), join(ws, 'node_modules/mocha/bin/mocha.js'));
    const ava = join(ws, 'node_modules', 'ava');
    mkdirSync(ava, { recursive: true });
    writeFileSync(join(ava, 'package.json'), JSON.stringify({ name: 'ava', version: '3.15.0', bin: 'cli.js' }));
    writeFileSync(join(ava, 'cli.js'), '');
    assert.equal(installedEntry(ws, 'ava'), join(ava, 'cli.js'));
    // A package whose declared bin file is missing (a broken install) is not a runner.
    const empty = tmp();
    mochaPackage(empty, '5.2.0', { mocha: './bin/mocha' }, {});
    assert.equal(installedEntry(empty, 'mocha'), undefined);
    const plan = planRun('mocha', empty, 'npx mocha', []);
    assert.ok('cannot' in plan);
    assert.match(plan.cannot, /^mocha is not installed \(no node_modules\/mocha with a runnable `bin`/);
  });

  it('tap 15–17, which projects still pin, run with the coverage switch they know; older tap is a reason that says what to change', () => {
    const ws = tmp();
    const tap = join(ws, 'node_modules', 'tap');
    mkdirSync(join(tap, 'bin'), { recursive: true });
    const version = (v: string) =>
      writeFileSync(join(tap, 'package.json'), JSON.stringify({ name: 'tap', version: v, bin: { tap: 'bin/run.js' } }));
    const args = () => nodeTapRunner.invocation(['test/a.test.js'], '', { binDir: ws, grep: 'tc_000000000001' }).args;
    writeFileSync(join(tap, 'bin', 'run.js'), '');
    version('16.3.10');
    assert.equal(findRunnerDir(ws, 'node-tap'), ws);
    assert.equal((planRun('node-tap', ws, 'tap', []) as { binDir: string }).binDir, ws);
    assert.deepEqual(args(), [join(tap, 'bin', 'run.js'), '--reporter=tap', '--no-coverage', '--grep=tc_000000000001$', 'test/a.test.js']);
    version('18.0.0');
    assert.equal(args()[2], '--disable-coverage');
    version('14.11.0');
    assert.deepEqual(planRun('node-tap', ws, 'tap', []), {
      cannot:
        'tap 14.x is installed; AMTP drives tap 15 or later: upgrade it (npm install --save-dev tap@15) or pick another framework (--framework node-test)',
    });
  });

  it('runs mocha 5 with flags it knows, away from test/mocha.opts, and reads its report from stdout', async () => {
    const ws = tmp();
    mochaPackage(ws, '5.2.0', { mocha: './bin/mocha' }, { 'bin/mocha': FAKE_MOCHA5 });
    mkdirSync(join(ws, 'test'));
    writeFileSync(join(ws, 'test', 'mocha.opts'), '--require ./setup-from-opts\n');
    const r = await runTests('mocha', ws, ['test/s.test.js'], { binDir: ws, grep: ['c1', 'c2'] });
    assert.doesNotMatch(r.output, /unknown option|Cannot find module/);
    assert.deepEqual(
      r.tests.map((t) => [t.name, t.status, t.file]),
      [
        ['pad c1 pads', 'passed', 'test/s.test.js'],
        ['trim c2 trims', 'failed', 'test/s.test.js'],
      ],
    );
    assert.deepEqual([r.total, r.passed, r.failed], [2, 1, 1]);
    assert.deepEqual([r.tests[1].expected, r.tests[1].actual], ["'a'", "'a '"]);
  });

  it("AMTP's reporter for mocha before 9.1 writes the JSON report's shape to its file, each text cut to 16 KB (a real mocha runs it)", () => {
    const ws = tmp();
    const big = 'x'.repeat(100_000);
    // 'waits' has no body: mocha reports it pending, which the reporter must carry too
    writeFileSync(
      join(ws, 'r.test.js'),
      `const assert = require('node:assert');\ndescribe('r', () => {\n  it('passes', () => {});\n  it('fails big', () => assert.strictEqual('${big}', 'y'));\n  it('fails 9', () => assert.strictEqual(9, 8));\n  it('waits');\n});\n`,
    );
    const out = join(ws, 'report.json');
    const mocha = join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js');
    spawnSync(
      process.execPath,
      [mocha, '--no-config', '--reporter', assetFile('amtp.mocha-report.cjs'), '--reporter-option', `output=${out}`, 'r.test.js'],
      { cwd: ws },
    );
    const text = readFileSync(out, 'utf8');
    assert.ok(text.length < 60_000, `${text.length} characters`);
    const r = mochaResults(text, ws);
    assert.deepEqual(
      r.tests.map((t) => [t.name, t.status, t.file]),
      [
        ['r passes', 'passed', 'r.test.js'],
        ['r fails big', 'failed', 'r.test.js'],
        ['r fails 9', 'failed', 'r.test.js'],
        ['r waits', 'skipped', 'r.test.js'],
      ],
    );
    const written = JSON.parse(text) as { failures: { err: { actual: string } }[] };
    assert.match(written.failures[0].err.actual, /cut at 16384 characters\)$/);
    // a value longer than 16 KB is left out, not cut: a cut literal is not the value
    assert.deepEqual([r.tests[1].expected, r.tests[1].actual], [undefined, undefined]);
    // numbers stay numbers: mocha's Base reporter would have made them the text "8" and "9"
    assert.deepEqual([r.tests[2].expected, r.tests[2].actual], ['8', '9']);
    assert.deepEqual([r.total, r.passed, r.failed], [4, 1, 2]);
  });

  it('the stdout report is found after console output and before trailing text; none gives no results', () => {
    const json = JSON.stringify(MOCHA5_REPORT, null, 2);
    const r = fromStdout(`noise {"stats": 1}\n${json}\nstderr: a warning after the report\n`, '/ws');
    assert.deepEqual([r.total, r.passed, r.failed], [2, 1, 1]);
    assert.equal(fromStdout('TypeError: boom\n', '/ws').tests.length, 0);
  });
});
