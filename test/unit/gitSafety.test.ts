// git runs nothing the repository controls (server/src/git/git.ts): a real repository whose config
// names a command for fsmonitor, a filter, diff drivers, the pager and a config-declared hook, and
// whose hooks folder and core.hooksPath hold hooks; changesSince and commitOnNewBranch still work and
// none of those commands ever starts. The person's own global config (their identity) is still read.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { changesSince } from '../../server/src/git/changes';
import { commitOnNewBranch } from '../../server/src/git/commit';
import { driverOverrides, GitError } from '../../server/src/git/git';

const ID = { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@e' };
const sh = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...ID } }).trim();

describe('driverOverrides: switches for the drivers a config names', () => {
  it('blanks every filter and disables every config-declared hook, once each, skipping AMTP’s own -c switches', () => {
    const listing = [
      'local\tfilter.lfs.clean',
      'local\tfilter.lfs.smudge',
      'global\tfilter.a.b.process',
      'local\thook.lint.command',
      'local\thook.lint.event',
      'command\thook.reference-transaction.enabled',
      '',
    ].join('\n');
    assert.deepEqual(driverOverrides(listing), [
      ...['clean=', 'smudge=', 'process=', 'required=false'].flatMap((k) => ['-c', `filter.lfs.${k}`]),
      ...['clean=', 'smudge=', 'process=', 'required=false'].flatMap((k) => ['-c', `filter.a.b.${k}`]),
      '-c',
      'hook.lint.enabled=false',
      '-c',
      'hook.lint.command=true',
    ]);
  });

  it('refuses a driver name that -c cannot express, rather than run git with it', () => {
    assert.throws(
      () => driverOverrides('local\tfilter.a=b.clean'),
      (e: Error) => e instanceof GitError && /cannot switch off/.test(e.message),
    );
  });
});

describe('git in a repository whose config and hooks name commands', function () {
  this.timeout(60_000);
  let dir: string;
  let ws: string;
  let marker: string;
  const savedHome = process.env.HOME;
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-gitsafety-'));
    ws = path.join(dir, 'repo');
    marker = path.join(dir, 'fired');
    const script = path.join(dir, 'cmd.sh');
    await fsp.writeFile(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 0\n`, { mode: 0o755 });
    await fsp.mkdir(ws);
    await fsp.writeFile(path.join(ws, 'a.js'), 'module.exports = 1;\n');
    await fsp.writeFile(path.join(ws, '.gitattributes'), '*.js filter=evil diff=evil\n');
    // A hooks folder the repository ships (as husky does), named by core.hooksPath below.
    await fsp.mkdir(path.join(ws, '.githooks'));
    for (const h of ['reference-transaction', 'post-index-change']) await fsp.copyFile(script, path.join(ws, '.githooks', h));
    sh(ws, 'init', '-q', '-b', 'main');
    sh(ws, 'add', '-A');
    sh(ws, 'commit', '-q', '-m', 'one');
    for (const [k, v] of [
      ['core.fsmonitor', script],
      ['filter.evil.clean', `${script} clean`],
      ['filter.evil.process', `${script} process`],
      ['filter.evil.required', 'true'],
      ['diff.evil.command', `${script} diff`],
      ['diff.evil.textconv', `${script} textconv`],
      ['diff.external', `${script} external`],
      ['core.pager', `${script} pager`],
      ['hook.evil.command', `${script} config-hook`],
      ['hook.evil.event', 'reference-transaction'],
      ['core.hooksPath', '.githooks'],
    ])
      sh(ws, 'config', k, v);
    for (const h of ['reference-transaction', 'post-index-change']) await fsp.copyFile(script, path.join(ws, '.git', 'hooks', h));
    await fsp.appendFile(path.join(ws, 'a.js'), 'module.exports.b = 2;\n');
    await fsp.writeFile(path.join(ws, 'new.js'), 'x\n');
    // The person's global config, in a HOME of their own: only their identity is in it.
    const home = path.join(dir, 'home');
    await fsp.mkdir(home);
    await fsp.writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Global Person\n\temail = global@example.com\n');
    process.env.HOME = home;
  });
  after(async () => {
    process.env.HOME = savedHome;
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('changesSince finds the changed and the new file, and no command of the config starts', async () => {
    const c = await changesSince(ws, 'HEAD');
    assert.ok(!('cannot' in c));
    assert.deepEqual([...c.changed.keys()], ['a.js']);
    assert.deepEqual(c.untracked, ['new.js']);
    assert.equal(await fsp.readFile(marker, 'utf8').catch(() => 'nothing fired'), 'nothing fired');
  });

  it('commitOnNewBranch makes the branch with the person’s global identity, and no hook runs', async () => {
    const head = sh(ws, 'rev-parse', 'HEAD');
    const commit = await commitOnNewBranch(ws, head, 'amtp/t', [{ path: 'test/a.test.js', bytes: Buffer.from('ok\n') }], 'tests\n');
    assert.ok(commit, 'a commit was made');
    assert.equal(sh(ws, 'rev-parse', 'refs/heads/amtp/t'), commit);
    assert.equal(sh(ws, 'log', '-1', '--format=%an <%ae>', commit), 'Global Person <global@example.com>');
    assert.equal(await fsp.readFile(marker, 'utf8').catch(() => 'nothing fired'), 'nothing fired');
  });
});
