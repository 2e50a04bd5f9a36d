// Runs only in the multi-root layer (suite/index.ts): a .code-workspace of two copies of
// examples/sample-lib, lib-a (package "sample-lib") and lib-b (package "other-lib"), offline provider.
// One language server per folder; each folder's runs, store and Testing items stay in that folder.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AmtpApi } from '../../../client/src/extension';
import type * as P from '../../../server/src/protocol';
import { amtpApi, setUserSettings, until } from './helpers';

let api: AmtpApi;
const folders = () => vscode.workspace.workspaceFolders ?? [];
const openIn = (folder: vscode.WorkspaceFolder) => vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, 'src', 'index.js'));

describe('a multi-root workspace: a server and a run per folder (real extension host)', () => {
  let restore: () => Promise<void>;
  const runs: P.RunView[] = [];

  before(async () => {
    api = await amtpApi();
    restore = await setUserSettings({ provider: 'offline', riskOverrides: { 'tests.run': 'medium' } });
  });
  after(async () => {
    await restore?.();
  });

  it('starts one language server per workspace folder', () => {
    assert.deepEqual(
      folders().map((f) => f.name),
      ['lib-a', 'lib-b'],
    );
    const sessions = api.folders.list();
    assert.deepEqual(
      sessions.map((s) => s.folder.name),
      ['lib-a', 'lib-b'],
    );
    assert.ok(sessions.every((s) => s.ctx.client.isRunning()));
  });

  it("a command acts on the active editor's folder", async () => {
    for (const [folder, project] of [
      [folders()[1], 'other-lib'],
      [folders()[0], 'sample-lib'],
    ] as const) {
      await openIn(folder);
      const r = await vscode.commands.executeCommand<P.CrawlResult>('amtp.crawl');
      assert.equal(r.project, project);
    }
  });

  it('generates one run per folder, each written into its own folder and stored in its own .amtp/', async () => {
    for (const folder of folders()) {
      await openIn(folder);
      const run = await vscode.commands.executeCommand<P.RunView>('amtp.generate', { depth: 'smoke', framework: 'auto' });
      assert.ok(run, `the run in ${folder.name} returns`);
      assert.equal(run.status, 'completed', run.reason);
      runs.push(run);
    }
    for (const [i, folder] of folders().entries()) {
      const other = folders()[1 - i];
      const written = [...new Set(runs[i].cases.flatMap((c) => (c.testFile ? [c.testFile] : [])))];
      assert.ok(written.length > 0, `${folder.name} has written tests`);
      for (const f of written) assert.ok(fs.existsSync(path.join(folder.uri.fsPath, f)), `${f} in ${folder.name}`);
      const stored = (dir: vscode.WorkspaceFolder) => fs.readdirSync(path.join(dir.uri.fsPath, '.amtp', 'runs'));
      assert.ok(stored(folder).includes(`${runs[i].runId}.json`), `${folder.name}'s store holds its run`);
      assert.ok(!stored(other).includes(`${runs[i].runId}.json`), `${other.name}'s store does not`);
    }
  });

  it('the Test Cases tree groups the runs by folder', () => {
    const roots = api.folders.tree.roots();
    assert.deepEqual(
      roots.map((n) => n.kind === 'folder' && n.name),
      ['lib-a', 'lib-b'],
    );
    for (const [i, root] of roots.entries())
      assert.deepEqual(
        api.folders.tree.children(root).map((n) => n.kind === 'run' && n.runId),
        [runs[i].runId],
      );
  });

  it("each folder's tests are in a Testing controller of their own, named after the folder", async () => {
    const sessions = api.folders.list();
    assert.deepEqual(
      sessions.map((s) => s.ctx.testing.controller.label),
      ['AMTP · lib-a', 'AMTP · lib-b'],
    );
    for (const s of sessions) {
      const uris = await until(`the Testing items of ${s.folder.name}`, () => {
        const found: string[] = [];
        s.ctx.testing.controller.items.forEach((i) => i.uri && found.push(i.uri.fsPath));
        return found.length ? found : undefined;
      });
      assert.ok(
        uris.every((u) => u.startsWith(s.folder.uri.fsPath + path.sep)),
        uris.join(', '),
      );
    }
  });

  it('a palette command with no editor open asks which folder (a quick pick, in workspace order)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('no editor to be active', () => !vscode.window.activeTextEditor);
    let answered = false;
    const crawl = Promise.resolve(vscode.commands.executeCommand<P.CrawlResult>('amtp.crawl')).finally(() => (answered = true));
    // Accepting the pick's first item (lib-a) once it is shown; until then the accept does nothing.
    await until('the folder pick to be answered', async () => {
      if (!answered) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return answered;
    });
    assert.equal((await crawl).project, 'sample-lib');
  });
});
