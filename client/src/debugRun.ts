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
  const session = watchSession(mark, (text) => run.appendOutput(text.replace(/\r?\n/g, '\r\n'), undefined, item));
  try {
    if (!(await vscode.debug.startDebugging(folder, { ...config, [MARK]: mark }))) {
      run.errored(item, new vscode.TestMessage(`the debugger did not start for ${config.name}`));
      return { outcome: 'not_started', output: session.output() };
    }
    const cancel = token?.onCancellationRequested(() => session.stop());
    await session.ended;
    cancel?.dispose();
    const outcome = token?.isCancellationRequested ? 'cancelled' : debugOutcome(session.exitCode(), session.output());
    if (outcome === 'passed') run.passed(item);
    else if (outcome === 'failed') run.failed(item, new vscode.TestMessage('the test failed under the debugger (see its output)'));
    else if (outcome === 'cancelled') run.skipped(item);
    else run.errored(item, new vscode.TestMessage('the debug session ended without an exit code or a runner summary AMTP could read'));
    return { outcome, output: session.output() };
  } finally {
    session.dispose();
    run.end();
  }
}

/**
 * Follows the debug session marked `mark` and every session under it (js-debug runs the program in
 * a child session): their output as it comes, the exit code if an adapter reports one, and the end
 * of the marked session (or `stop()`, which also stops it).
 */
function watchSession(mark: string, onOutput: (text: string) => void) {
  let root: vscode.DebugSession | undefined;
  let output = '';
  let exitCode: number | undefined;
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const ours = (s: vscode.DebugSession | undefined): boolean =>
    !!s && (s.configuration[MARK] === mark || (root !== undefined && s.id === root.id) || ours(s.parentSession));
  const subs = [
    vscode.debug.registerDebugAdapterTrackerFactory('*', {
      createDebugAdapterTracker: (session) => {
        if (!ours(session)) return undefined;
        if (session.configuration[MARK] === mark) root = session;
        return {
          onDidSendMessage: (m: unknown) => {
            const text = dapOutput(m);
            if (text) {
              output += text;
              onOutput(text);
            }
            exitCode = dapExitCode(m) ?? exitCode;
          },
        };
      },
    }),
    vscode.debug.onDidStartDebugSession((s) => (root ??= s.configuration[MARK] === mark ? s : undefined)),
    vscode.debug.onDidTerminateDebugSession((s) => root && s.id === root.id && end()),
  ];
  return {
    ended,
    output: () => output,
    exitCode: () => exitCode,
    stop: () => {
      void vscode.debug.stopDebugging(root);
      end();
    },
    dispose: () => subs.forEach((s) => s.dispose()),
  };
}
