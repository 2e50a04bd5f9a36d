// Browser UI test: a real VS Code (code-server) in headless Chromium, driven like a person.
// Offline provider on a copy of examples/sample-lib. The test file the offline engineer writes is
// pre-created, so writing it is an overwrite that must wait for an inline approval.
//
// Every wait is on state: the Approvals view's rows, the run's row in the Test Cases tree (its
// status comes from the server), files and run records on disk. Toasts are never waited on: VS Code
// hides a toast after some seconds, so on a busy machine a toast can come and go between two looks.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { RunRecord } from '../../server/src/core/run';
import { freshOutput, launchBrowser, OUT, sampleWorkspace, saveFailure, startCodeServer } from './codeServer';
import { until } from './deadlines';

const TEST_FILE = 'test/sample-lib.amtp.test.js';
const HAND_WRITTEN = "// hand-written by a person\nconst assert = require('node:assert');\nassert.ok(true);\n";
/**
 * The person's own settings: offline, and the verifier's test runs approved by their policy, so
 * the approvals on screen are the overwrites. (A repository's .vscode/settings.json may not lower a
 * risk: test/vscode/suite/hostileSettings.test.ts.)
 */
const PERSON = { 'amtp.provider': 'offline', 'amtp.riskOverrides': { 'tests.run': 'medium' } };
/**
 * describeRun()'s status word in the run's tree row (client/src/model/runsModel.ts). No \b: the
 * row's text runs the label (scope and time) straight into the description, which ends with the run id.
 */
const ENDED = /(completed|needs_review|awaiting_approval|failed|cancelled) · /;

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  // Enter picks the focused row: wait until the list has caught up with the text.
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: title }).waitFor();
  await page.keyboard.press('Enter');
}

/** Answers a quick pick with its first (preselected) item once it shows what is expected. */
async function acceptQuickPick(page: Page, title: string, firstItemHas: RegExp): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor();
  const first = page.locator('.quick-input-widget .monaco-list-row').first();
  let seen = '';
  await until(`the first item of "${title}" to match ${firstItemHas}`, async () => {
    seen = (await first.innerText().catch(() => '')).replace(/\s+/g, ' ');
    return firstItemHas.test(seen);
  }).catch((e: Error) => {
    throw new Error(`${e.message}; it shows "${seen}"`);
  });
  await page.keyboard.press('Enter');
}

async function generate(page: Page): Promise<void> {
  await runCommand(page, 'AMTP: Generate Tests for Workspace');
  await acceptQuickPick(page, 'AMTP: test depth', /standard/);
  // The detected framework (node:test for sample-lib's "node --test") comes first.
  await acceptQuickPick(page, 'AMTP: test framework', /node-test.*detected/);
}

const pane = (page: Page, title: string): Locator => page.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) });
const row = (scope: Page | Locator, text: string | RegExp): Locator => scope.locator('.monaco-list-row', { hasText: text }).first();
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(OUT, `ui-${name}`) });

/** The run records on disk, by id. */
function runsOnDisk(ws: string): Map<string, RunRecord> {
  const dir = path.join(ws, '.amtp', 'runs');
  const runs = new Map<string, RunRecord>();
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!f.endsWith('.json')) continue;
    try {
      const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as RunRecord;
      runs.set(r.id, r);
    } catch {
      /* written aside and renamed into place (lowdb), so only a half-listed directory lands here */
    }
  }
  return runs;
}

/** The id of the run started after `before` was taken. */
const newRun = (ws: string, before: Set<string>) =>
  until('the new run on disk', () => [...runsOnDisk(ws).keys()].find((id) => !before.has(id)));

/**
 * Waits until the Test Cases tree shows the run as ended (the server sends a terminal status only
 * once the run, verification included, is over) and returns its record from disk.
 */
async function runEnded(page: Page, ws: string, runId: string): Promise<RunRecord> {
  await row(pane(page, 'Test Cases'), runId).filter({ hasText: ENDED }).waitFor();
  return until(`run ${runId} to be ended on disk`, () => {
    const r = runsOnDisk(ws).get(runId);
    return r && r.status !== 'running' && r;
  });
}

/** The pending approval of `file` in the Approvals view (it stays until it is answered). */
async function approvalRow(page: Page, file: string): Promise<Locator> {
  const r = row(pane(page, 'Approvals'), file);
  await r.waitFor();
  assert.match((await r.innerText()).replace(/\s+/g, ' '), /high · fs\.overwrite/);
  return r;
}

export async function runUiTest(): Promise<void> {
  freshOutput('ui');
  const ws = sampleWorkspace('ui');
  const file = path.join(ws, TEST_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, HAND_WRITTEN);
  const server = await startCodeServer('ui', { userSettings: PERSON });
  const browser = await launchBrowser('ui');
  const { page } = browser;
  const started = Date.now();
  try {
    await page.goto(server.workbenchUrl(ws));
    await page.locator('.monaco-workbench').waitFor();
    // Open the AMTP container: its Test Cases view shows the welcome content before any run.
    await page.locator('.activitybar .action-item a[aria-label^="AMTP"]').click();
    await page.locator('.pane-header', { hasText: 'Test Cases' }).waitFor();
    await page.getByText('No AMTP runs in this workspace yet.').waitFor();
    await shot(page, '01-empty-state.png');

    // Run 1: the overwrite waits for approval, with a diff preview; Approve (in the notification) writes the file.
    const before1 = new Set(runsOnDisk(ws).keys());
    await generate(page);
    const run1 = await newRun(ws, before1);
    await approvalRow(page, TEST_FILE);
    await page.locator('.tab', { hasText: 'AMTP approval' }).waitFor();
    // The read-only diff shows the person's file on the left and the proposed one on the right.
    await page.locator('.monaco-diff-editor .editor.original .view-line', { hasText: 'hand-written by a person' }).first().waitFor();
    await page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: 'Generated by AMTP' }).first().waitFor();
    assert.equal(fs.readFileSync(file, 'utf8'), HAND_WRITTEN, 'nothing is written while the approval is pending');
    await shot(page, '02-approval-diff.png');
    // The notification center keeps the request (a toast may already have hidden itself).
    await runCommand(page, 'Notifications: Show Notifications');
    const ask = row(page.locator('.notifications-center'), 'AMTP asks for approval');
    await ask.locator('.monaco-button', { hasText: /^Approve$/ }).click();
    await until('the approved write', () => fs.readFileSync(file, 'utf8').startsWith('// Generated by AMTP'));
    const record1 = await runEnded(page, ws, run1);
    assert.equal(record1.status, 'completed', record1.reason);
    await runCommand(page, 'Notifications: Hide Notifications');
    // The tree shows the run expanded: target file → cases with priority and verified status.
    const cases = pane(page, 'Test Cases');
    await row(cases, 'src/index.js').waitFor();
    await row(cases, /parseDuration\('30s'\) returns 30000\s*P0 · passing/).waitFor();
    await shot(page, '03-approved-tree.png');

    // Clicking a case opens its test file at the case's line. A click that lands while the tree
    // re-renders only selects the row, so click until the editor is there.
    const opened = page.locator('.tab.active', { hasText: 'sample-lib.amtp.test.js' });
    await until('the case to open its test file', async () => {
      await row(cases, "parseDuration('30s') returns 30000").click();
      return opened.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      );
    });
    // The editor shows the case's own test: its id (computed by AMTP) is in the test's name.
    const caseId = /parseDuration\(\\?'30s\\?'\) returns 30000', \(\) => \{ \/\/ (tc_[0-9a-f]{12})/.exec(
      fs.readFileSync(file, 'utf8'),
    )?.[1];
    assert.ok(caseId, 'the written file holds the case');
    await page.locator('.view-line', { hasText: caseId }).first().waitFor();

    // Coverage: VS Code's "Run All Tests with Coverage" picks AMTP's Coverage profile. Once the run's
    // coverage is shown the test results offer "Close Test Coverage"; the module under test then
    // opens with its coverage in the gutter.
    await runCommand(page, 'Test: Run All Tests with Coverage');
    await page.locator('.monaco-list-row', { hasText: 'Close Test Coverage' }).first().waitFor();
    await runCommand(page, 'Go to File...');
    await page.locator('.quick-input-widget .quick-input-box input').fill('src/index.js');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'index.js' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'index.js' }).waitFor();
    await shot(page, '08-coverage.png');

    // Run 2: Reject (inline in the Approvals view, with a note) leaves the file byte-identical.
    fs.writeFileSync(file, HAND_WRITTEN);
    const before = fs.readFileSync(file);
    const before2 = new Set(runsOnDisk(ws).keys());
    await generate(page);
    const run2 = await newRun(ws, before2);
    const pending = await approvalRow(page, TEST_FILE);
    await pending.hover();
    await pending.locator('.action-label[aria-label*="Reject"]').click();
    await page.locator('.quick-input-widget', { hasText: 'Optional note' }).waitFor();
    await page.locator('.quick-input-widget .quick-input-box input').fill('keep my hand-written file');
    await shot(page, '04-reject-note.png');
    await page.keyboard.press('Enter');
    const record2 = await runEnded(page, ws, run2);
    assert.ok(fs.readFileSync(file).equals(before), 'a rejected overwrite leaves the file byte-identical');
    const decided = record2.approvals.map((a) => `${a.tool} ${a.decision} ${a.note ?? ''}`.trim());
    assert.deepEqual(decided, ['fs.overwrite rejected keep my hand-written file'], 'the reject note is in the run audit');
    await shot(page, '05-rejected.png');

    // Where people work: the CodeLens above each exported function, and the editor's context menu.
    await runCommand(page, 'Go to File...');
    await page.locator('.quick-input-widget .quick-input-box input').fill('src/index.js');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'index.js' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'index.js' }).waitFor();
    const lens = page.locator('.codelens-decoration', { hasText: 'Generate tests' });
    await lens.first().waitFor();
    assert.equal(await lens.count(), 4, 'one CodeLens per exported function of src/index.js');
    await shot(page, '06-codelens.png');
    await page.locator('.monaco-editor .view-line').nth(3).click({ button: 'right' });
    const item = page.locator('.context-view .action-label', { hasText: 'Generate Tests for This File' });
    await item.waitFor();
    await shot(page, '07-context-menu.png');
    await page.keyboard.press('Escape');
    console.log(`UI e2e passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${path.relative(process.cwd(), OUT)}/`);
  } catch (e) {
    await saveFailure('ui', page, server);
    throw e;
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

if (require.main === module) {
  runUiTest().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
