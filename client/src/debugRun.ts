// Debugging a test records a TestRun, as running one does: the item is started, the debuggee's
// output (the Debug Adapter Protocol's `output` events, seen by a tracker, child sessions included)
// goes to the run, and when the session AMTP started ends the item passes or fails by the exit code
// or the runner's summary (model/debugOutcome.ts). The run always ends: on a failed start, on cancel.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { LaunchConfig } from './model/debugConfig';
import { dapExitCode, dapOutput, debugOutcome, type DebugOutcome } from './model/debugOutcome';

/** The key that marks AMTP's own session among the debug sessions of the window. */
const MARK = 'amtpDebugRun';

export interface DebugRunResult {
  outcome: DebugOutcome | 'not_started' | 'cancelled';
  output: string;
}

/** Debugs `item` with `config` under a TestRun of `controller`; resolves when the run has ended. */
export async function debugAsTestRun(
  controller: vscode.TestController,
  request: vscode.TestRunRequest,
  item: vscode.TestItem,
  config: LaunchConfig,
  folder: vscode.WorkspaceFolder | undefined,
  token?: vscode.CancellationToken,
): Promise<DebugRunResult> {
  const run = controller.createTestRun(request, config.name);
  run.started(item);
  const mark = randomUUID();
  let root: vscode.DebugSession | undefined;
  let output = '';
  let exitCode: number | undefined;
  const ours = (s: vscode.DebugSession | undefined): boolean =>
    !!s && (s.configuration[MARK] === mark || (root !== undefined && s.id === root.id) || ours(s.parentSession));
  let ended!: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const subs = [
    // js-debug runs the program in a child session of the one started here: every session under it is tracked.
    vscode.debug.registerDebugAdapterTrackerFactory('*', {
      createDebugAdapterTracker: (session) => {
        if (!ours(session)) return undefined;
        if (session.configuration[MARK] === mark) root = session;
        return {
          onDidSendMessage: (m: unknown) => {
            const text = dapOutput(m);
            if (text) {
              output += text;
              run.appendOutput(text.replace(/\r?\n/g, '\r\n'), undefined, item);
            }
            exitCode = dapExitCode(m) ?? exitCode;
          },
        };
      },
    }),
    vscode.debug.onDidStartDebugSession((s) => (root ??= s.configuration[MARK] === mark ? s : undefined)),
    vscode.debug.onDidTerminateDebugSession((s) => root && s.id === root.id && ended()),
  ];
  let outcome: DebugRunResult['outcome'];
  try {
    if (!(await vscode.debug.startDebugging(folder, { ...config, [MARK]: mark }))) {
      run.errored(item, new vscode.TestMessage(`the debugger did not start for ${config.name}`));
      return { outcome: 'not_started', output };
    }
    const cancel = token?.onCancellationRequested(() => {
      void vscode.debug.stopDebugging(root);
      ended();
    });
    await done;
    cancel?.dispose();
    outcome = token?.isCancellationRequested ? 'cancelled' : debugOutcome(exitCode, output);
    if (outcome === 'passed') run.passed(item);
    else if (outcome === 'failed') run.failed(item, new vscode.TestMessage('the test failed under the debugger (see its output)'));
    else if (outcome === 'cancelled') run.skipped(item);
    else run.errored(item, new vscode.TestMessage('the debug session ended without an exit code or a runner summary AMTP could read'));
    return { outcome, output };
  } finally {
    for (const s of subs) s.dispose();
    run.end();
  }
}
