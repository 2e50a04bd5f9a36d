// util/killTree.ts with real processes: a detached child that starts a grandchild, killed as a tree;
// a tree that is already gone; pids that must never be signalled. The Windows branch is reached with
// `platform: 'win32'` and a `taskkill` program placed first on PATH that records what it was given,
// which shows the arguments, the allow-listed environment and how each exit code is read (this
// machine has no real taskkill; the branch has not run on Windows itself).
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { killTree } from '../../server/src/util/killTree';

/** Alive = signalable and not a zombie waiting for a parent (a container's init may never reap it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw e;
  }
  const stat = `/proc/${pid}/stat`;
  if (!fs.existsSync(stat)) return true;
  const state = fs.readFileSync(stat, 'utf8').replace(/^.*\) /s, '')[0];
  return state !== 'Z' && state !== 'X';
}

/** Resolves once `pid` is gone; polls the process table (state), bounded by the mocha timeout. */
async function gone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((r) => setImmediate(r));
}

const exited = (child: ChildProcess) =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

/** A detached node process (a group leader) that starts a grandchild and prints its pid. */
async function treeOfTwo(): Promise<{ child: ChildProcess; grandchild: number }> {
  const script = [
    "const { spawn } = require('node:child_process');",
    "const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' });",
    "process.stdout.write(g.pid + '\\n');",
    'setInterval(() => {}, 1e6);',
  ].join('\n');
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const grandchild = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    child.once('exit', (code) => reject(new Error(`tree exited early (${String(code)})`)));
  });
  return { child, grandchild };
}

describe('killTree: stopping a child and everything it started', function () {
  if (process.platform === 'win32') return;

  it('kills a detached child and its grandchild; both are gone afterwards', async () => {
    const { child, grandchild } = await treeOfTwo();
    assert.ok(alive(child.pid!) && alive(grandchild), 'both run before the kill');
    const warnings: string[] = [];
    const outcome = await killTree(child.pid, { warn: (l) => warnings.push(l) });
    assert.deepEqual(outcome, { ok: true, alreadyGone: false });
    await exited(child);
    assert.equal(child.signalCode, 'SIGKILL');
    await gone(grandchild);
    assert.equal(alive(grandchild), false);
    assert.deepEqual(warnings, []);
  });

  it('a tree that has already exited is success (ESRCH), with no warning', async () => {
    const child = spawn(process.execPath, ['-e', ''], { detached: true, stdio: 'ignore' });
    await exited(child);
    const warnings: string[] = [];
    assert.deepEqual(await killTree(child.pid, { warn: (l) => warnings.push(l) }), { ok: true, alreadyGone: true });
    assert.deepEqual(warnings, []);
  });

  it('a child that never started (no pid) has nothing to stop', async () => {
    assert.deepEqual(await killTree(undefined, { warn: () => assert.fail('no warning expected') }), { ok: true, alreadyGone: true });
  });

  it('refuses pids that would signal our own group, init or every process, and says so', async () => {
    for (const pid of [0, 1, -1, -4242, 1.5, Number.NaN]) {
      const warnings: string[] = [];
      const outcome = await killTree(pid, { warn: (l) => warnings.push(l) });
      assert.equal(outcome.ok, false, `pid ${pid}`);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /could not stop process tree .*not a child pid/);
    }
    assert.ok(alive(process.pid), 'this process is still here');
  });
});

describe('killTree on Windows: taskkill /pid N /T /F with the allow-listed environment', () => {
  if (process.platform === 'win32') return;
  let bin: string;
  let savedPath: string | undefined;
  const secret = 'sk-killtree-secret';
  let savedKey: string | undefined;

  beforeEach(() => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'amtp-taskkill-'));
    savedPath = process.env.PATH;
    savedKey = process.env.OPENAI_API_KEY;
    process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
    process.env.OPENAI_API_KEY = secret;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
    fs.rmSync(bin, { recursive: true, force: true });
  });

  /** A `taskkill` that records its arguments and environment, then exits with `code`. */
  function fakeTaskkill(code: number, message = ''): string {
    const record = path.join(bin, 'record.json');
    const js = `require('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(1), env: process.env })); process.stderr.write(${JSON.stringify(message)}); process.exit(${code});`;
    fs.writeFileSync(path.join(bin, 'taskkill'), `#!/bin/sh\nexec "${process.execPath}" -e '${js.replace(/'/g, `'\\''`)}' "$@"\n`, {
      mode: 0o755,
    });
    return record;
  }

  it('runs taskkill /pid N /T /F without any secret in its environment', async () => {
    const record = fakeTaskkill(0);
    assert.deepEqual(await killTree(4242, { platform: 'win32' }), { ok: true, alreadyGone: false });
    const seen = JSON.parse(fs.readFileSync(record, 'utf8')) as { argv: string[]; env: Record<string, string> };
    assert.deepEqual(seen.argv, ['/pid', '4242', '/T', '/F']);
    assert.equal(seen.env.OPENAI_API_KEY, undefined);
    assert.ok(!JSON.stringify(seen.env).includes(secret));
    assert.notEqual(seen.env.HOME, os.homedir());
    assert.equal(fs.existsSync(seen.env.HOME), false, 'the private HOME is removed afterwards');
  });

  it('reads exit code 128 (no such process) as already gone, and any other failure as a reported error', async () => {
    fakeTaskkill(128);
    assert.deepEqual(await killTree(4242, { platform: 'win32', warn: () => assert.fail('no warning expected') }), {
      ok: true,
      alreadyGone: true,
    });
    fakeTaskkill(1, 'ERROR: Access is denied.');
    const warnings: string[] = [];
    const outcome = await killTree(4242, { platform: 'win32', warn: (l) => warnings.push(l) });
    assert.deepEqual(outcome, { ok: false, error: 'taskkill exited with 1: ERROR: Access is denied.' });
    assert.deepEqual(warnings, ['amtp: could not stop process tree 4242: taskkill exited with 1: ERROR: Access is denied.']);
  });

  it('reports a taskkill that cannot start, and does nothing for a leader that already exited', async () => {
    process.env.PATH = bin; // an empty folder: no taskkill anywhere
    const warnings: string[] = [];
    const outcome = await killTree(4242, { platform: 'win32', warn: (l) => warnings.push(l) });
    assert.equal(outcome.ok, false);
    assert.match(warnings[0] ?? '', /taskkill did not start: spawn taskkill ENOENT/);
    assert.deepEqual(await killTree(4242, { platform: 'win32', leaderExited: true, warn: () => assert.fail('no warning') }), {
      ok: true,
      alreadyGone: true,
    });
  });
});
