// Starts dist/server.js over IPC for one workspace folder, with the settings and trust the server
// needs from the start. `workspaceFolder` makes the server's initialize name that folder alone.
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type * as P from '../../server/src/protocol';

export function createLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  init: P.InitOptions,
  workspaceFolder: vscode.WorkspaceFolder,
  name: string,
): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    // AMTP works on the workspace, not on documents: no document selector, no synchronization.
    documentSelector: [],
    initializationOptions: init,
    outputChannel: output,
    workspaceFolder,
  };
  return new LanguageClient('amtp', name, serverOptions, clientOptions);
}
