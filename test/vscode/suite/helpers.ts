// Shared by the extension-host test files. The whole suite runs in one workspace with one
// activation of the extension, so each file sets the person's settings it needs and restores them.
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { AmtpApi } from '../../../client/src/extension';
import type * as P from '../../../server/src/protocol';
import { until, within } from '../../e2e/deadlines';

export { STATE_DEADLINE_MS, until, within } from '../../e2e/deadlines';

export const TEST_FILE = 'test/sample-lib.amtp.test.js';

export const ws = (): string => vscode.workspace.workspaceFolders![0].uri.fsPath;

export async function amtpApi(): Promise<AmtpApi> {
  const ext = vscode.extensions.getExtension<AmtpApi>('amtp.amtp');
  if (!ext) throw new Error('extension amtp.amtp is not installed');
  return ext.activate();
}

/** The next pending approval (or one already pending). */
export async function nextApproval(api: AmtpApi): Promise<P.ApprovalParams> {
  return until('an approval request from the server', () => api.approvals.queue.latest()?.params);
}

/**
 * Sets amtp.* keys in the person's own (user) settings, the only place AMTP reads the provider,
 * base URL and risk overrides from. Resolves once the extension has seen each change, so the
 * server has been told before the caller's next request goes out. Returns a function that puts
 * the earlier values back.
 */
export async function setUserSettings(values: Record<string, unknown>): Promise<() => Promise<void>> {
  const earlier: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const config = vscode.workspace.getConfiguration('amtp');
    earlier[key] = config.inspect(key)?.globalValue;
    if (isDeepStrictEqual(earlier[key], value)) continue; // no change, so no event to wait for
    let seen!: () => void;
    const changed = new Promise<void>((resolve) => (seen = resolve));
    const sub = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`amtp.${key}`) && seen());
    try {
      await config.update(key, value, vscode.ConfigurationTarget.Global);
      await within(`the change of amtp.${key} to reach the extension`, changed);
    } finally {
      sub.dispose();
    }
  }
  return async () => void (await setUserSettings(earlier));
}
