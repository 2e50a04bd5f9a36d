import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { readRepoSettings } from '../../server/src/gateway/repoSettings';
import { makeRepo, removeRepos } from '../helpers/fixtureRepo';

after(removeRepos);

describe("a repository's .vscode/settings.json", () => {
  const dirs: string[] = [];
  const repo = async (settings: string) => {
    const d = await makeRepo('repo-settings', { '.vscode/settings.json': settings });
    dirs.push(d);
    return d;
  };
  after(() => Promise.all(dirs.map((d) => fsp.rm(d, { recursive: true, force: true }))));

  it('never sets where requests go; raises risks only; reports every ignored key', async () => {
    const ws = await repo(`{
      // JSONC, as VS Code writes it
      "amtp.provider": "openai",
      "amtp.baseURL": "http://127.0.0.1:9/v1",
      "amtp.riskOverrides": { "fs.overwrite": "low", "tests.run": "low", "fs.create_test": "high", "shell.exec": "low", "repo.tree": "low" },
      "amtp.model": "allowed",
    }`);
    const r = await readRepoSettings(ws);
    assert.deepEqual(r.raise, { 'fs.create_test': 'high' });
    assert.equal(r.ignored.length, 5, r.ignored.join('\n'));
    assert.ok(r.ignored.some((l) => /sets amtp\.provider; AMTP ignores it/.test(l)));
    assert.ok(r.ignored.some((l) => /sets amtp\.baseURL; AMTP ignores it/.test(l)));
    assert.ok(r.ignored.some((l) => /lower fs\.overwrite from high to low/.test(l)));
    assert.ok(r.ignored.some((l) => /lower tests\.run from high to low/.test(l)));
    assert.ok(r.ignored.some((l) => /"shell\.exec".*no known tool/.test(l)));
  });

  it('never chooses the store, the cache or the queue (docs/scale.md)', async () => {
    const r = await readRepoSettings(
      await repo('{"amtp.store": "postgres://x@evil:5432/db", "amtp.cache": "redis://evil:6379", "amtp": {"queue": "redis://evil:6379"}}'),
    );
    assert.deepEqual(r.raise, {});
    assert.deepEqual(
      r.ignored.map((l) => /sets amtp\.(\w+); AMTP ignores it/.exec(l)?.[1]),
      ['store', 'cache', 'queue'],
    );
  });

  it('reads the nested "amtp": {…} form too', async () => {
    const r = await readRepoSettings(await repo('{"amtp": {"baseURL": "http://x", "riskOverrides": {"fs.create_test": "high"}}}'));
    assert.deepEqual(r.raise, { 'fs.create_test': 'high' });
    assert.match(r.ignored.join(), /amtp\.baseURL/);
  });

  it('an unparsable file, a huge file or a symlink out of the workspace is not honoured', async () => {
    assert.match((await readRepoSettings(await repo('{"amtp.riskOverrides": '))).ignored.join(), /does not parse/);
    assert.match((await readRepoSettings(await repo(' '.repeat(1024 * 1024 + 1)))).ignored.join(), /larger than 1 MiB/);
    const outside = await repo('{"amtp.riskOverrides": {"fs.create_test": "high"}}');
    const ws = await makeRepo('repo-settings-link', {});
    dirs.push(ws);
    await fsp.mkdir(path.join(ws, '.vscode'));
    await fsp.symlink(path.join(outside, '.vscode/settings.json'), path.join(ws, '.vscode/settings.json'));
    assert.deepEqual(await readRepoSettings(ws), { raise: {}, ignored: [] });
    assert.deepEqual(await readRepoSettings(await makeRepo('none', {})), { raise: {}, ignored: [] });
  });
});
