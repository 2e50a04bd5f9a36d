// The tests a person wrote, as Testing-view items: in AMTP's files beside its cases, and in the
// workspace's own test files, read from each file by the server (amtp/fileTests) with their lines,
// so the editor shows gutter icons. Lists, never runs: testing.ts runs them.
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import { lineSortText, ownTestId } from './model/testItems';

export type FileTest = P.FileTestsResult['files'][number]['tests'][number];

/**
 * Fills a file's item from what the file holds: AMTP's cases move to the line their test starts on
 * (the id's comment may sit a line lower, where a formatter put it), the person's tests become children.
 * Returns the person's tests by their item id.
 */
export function fillFileItem(
  controller: vscode.TestController,
  item: vscode.TestItem,
  file: string,
  tests: FileTest[],
): Map<string, P.OwnTest> {
  const uri = item.uri!;
  for (const t of tests) {
    const mine = t.caseId ? item.children.get(t.caseId) : undefined;
    if (mine) mine.range = new vscode.Range(t.line, 0, t.line, 0);
  }
  const own = new Map<string, P.OwnTest>();
  for (const t of tests.filter((x) => !x.caseId)) {
    const id = ownTestId(file, t);
    const child = controller.createTestItem(id, t.name, uri);
    child.description = 'your test';
    child.range = new vscode.Range(t.line, 0, t.line, 0);
    child.sortText = lineSortText(t.line);
    own.set(id, { file, name: t.name, suites: t.suites });
    item.children.add(child);
  }
  // AMTP's tests sort by their line too, so the view reads in file order.
  item.children.forEach((c) => (c.sortText ??= lineSortText(c.range?.start.line ?? 0)));
  return own;
}

/** A test file no run wrote: its tests are read when it is expanded, opened or run (testing.ts resolves it). */
export function workspaceFileItem(controller: vscode.TestController, root: vscode.Uri, file: string, id: string): vscode.TestItem {
  const item = controller.createTestItem(id, file, vscode.Uri.joinPath(root, file));
  item.canResolveChildren = true;
  return item;
}
