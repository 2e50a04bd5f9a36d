// Starts a run with a client-created work-done token and shows the server's $/progress reports
// as a cancellable notification until the run ends.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { WorkDoneProgress, type LanguageClient } from 'vscode-languageclient/node';
import * as P from '../../server/src/protocol';
import type { RunsModel } from './model/runsModel';

const ENDED: ReadonlySet<P.RunStatus> = new Set(['completed', 'needs_review', 'awaiting_input', 'failed', 'cancelled']);

export async function startWithProgress(
  client: LanguageClient,
  model: RunsModel,
  title: string,
  start: (workDoneToken: string) => Promise<P.GenerateResult>,
  onStarted?: (runId: string) => void,
): Promise<P.RunView | undefined> {
  const token = randomUUID();
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, cancel) => {
      let finish!: () => void;
      const ended = new Promise<void>((resolve) => (finish = resolve));
      // Registered before the request goes out, so no report from the server can be missed.
      const sub = client.onProgress(WorkDoneProgress.type, token, (v) => {
        if (v.kind === 'end') finish();
        else if (v.message) progress.report({ message: v.message });
      });
      let runId: string | undefined;
      let watch: { dispose(): void } | undefined;
      try {
        progress.report({ message: 'starting' });
        runId = (await start(token)).runId;
        onStarted?.(runId);
        const id = runId;
        cancel.onCancellationRequested(() => void P.sendRequest(client, P.Cancel, { runId: id }));
        // The progress end is the normal signal; a terminal status covers a server that dropped it.
        watch = model.onDidChange(() => {
          const r = model.get(id);
          if (r && ENDED.has(r.status)) finish();
        });
        const now = model.get(id);
        if (now && ENDED.has(now.status)) finish();
        await ended;
        return model.get(id);
      } finally {
        sub.dispose();
        watch?.dispose();
      }
    },
  );
}
