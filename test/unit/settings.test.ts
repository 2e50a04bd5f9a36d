// package.json's settings against server/src/core/settings.ts, the way rust-analyzer checks its
// config.rs: a setting the client never reads, or one that is read but not declared, fails here.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toServerSettings, userSafeGetter, type ConfigSource } from '../../client/src/model/settings';
import { SERVER_SETTINGS, SETTINGS, SETTING_KEYS, USER_ONLY_SETTINGS } from '../../server/src/core/settings';

const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
const declared: Record<string, { scope?: string }> = pkg.contributes.configuration.properties;

describe('settings: one source', () => {
  it('package.json declares exactly the settings of core/settings.ts, each with its scope', () => {
    assert.deepEqual(Object.keys(declared).sort(), SETTING_KEYS.map((k) => `amtp.${k}`).sort());
    for (const k of SETTING_KEYS) assert.equal(declared[`amtp.${k}`].scope, SETTINGS[k].scope, `amtp.${k} scope`);
  });

  it('settings that decide where requests and keys go, or what needs approval, are machine-scoped and restricted', () => {
    // A guard for settings added later: their names give them away.
    const steering = /provider|baseurl|endpoint|deployment|api-?version|header|risk|approv(e|al)(?!timeout)|key|proxy|url/i;
    for (const k of Object.keys(declared))
      if (steering.test(k.replace(/approvalTimeoutSeconds$/, '')))
        assert.equal(declared[k].scope, 'machine', `${k} steers requests or approvals`);
    assert.ok(
      USER_ONLY_SETTINGS.includes('provider') && USER_ONLY_SETTINGS.includes('baseURL') && USER_ONLY_SETTINGS.includes('riskOverrides'),
    );
    assert.deepEqual(
      [...pkg.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(),
      USER_ONLY_SETTINGS.map((k) => `amtp.${k}`).sort(),
    );
  });

  it('the client sends the server every server setting, and reads every client-only one itself', () => {
    const asked = new Set<string>();
    toServerSettings((k) => {
      asked.add(k);
      return undefined;
    });
    assert.deepEqual([...asked].sort(), [...SERVER_SETTINGS].sort());
    const client = fs
      .readdirSync(path.resolve(__dirname, '../../client/src'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => fs.readFileSync(path.resolve(__dirname, '../../client/src', f), 'utf8'))
      .join('\n');
    for (const k of SETTING_KEYS.filter((key) => !SERVER_SETTINGS.includes(key)))
      assert.match(client, new RegExp(`get\\(\\s*'${k}'`), `the client reads amtp.${k}`);
  });

  it('workspace values of user-only settings never reach the server, whatever the host reports', () => {
    const values: Record<
      string,
      { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown; defaultValue?: unknown }
    > = {
      provider: { defaultValue: 'offline', workspaceValue: 'openai' },
      baseURL: { defaultValue: '', workspaceFolderValue: 'http://evil.example/v1' },
      riskOverrides: { defaultValue: {}, globalValue: { 'tests.run': 'medium' }, workspaceValue: { 'fs.overwrite': 'low' } },
      model: { workspaceValue: 'team-model' },
    };
    // get() merges like VS Code's, workspace last: what a host that forgot the scope would return.
    const source: ConfigSource = {
      get: (k) => {
        const v = values[k];
        return v?.workspaceFolderValue ?? v?.workspaceValue ?? v?.globalValue ?? v?.defaultValue;
      },
      inspect: (k) => values[k],
    };
    const s = toServerSettings(userSafeGetter(source));
    assert.equal(s.provider, 'offline');
    assert.equal(s.baseURL, undefined);
    assert.deepEqual(s.riskOverrides, { 'tests.run': 'medium' });
    assert.equal(s.model, 'team-model', 'a window-scoped setting keeps its workspace value');
  });

  it('each setting has a description and a default', () => {
    for (const k of SETTING_KEYS) {
      const d = declared[`amtp.${k}`] as { description?: string; markdownDescription?: string; default?: unknown };
      assert.ok(d.description || d.markdownDescription, `amtp.${k} is described`);
      assert.ok('default' in d, `amtp.${k} has a default`);
    }
  });
});
