// Starts dist/server.js over IPC with the settings and trust the server needs from the start.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type * as P from '../../server/src/protocol';

export function createLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  init: P.InitOptions,
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
    workspaceFolder: vscode.workspace.workspaceFolders?.[0],
  };
  return new LanguageClient('amtp', 'AMTP', serverOptions, clientOptions);
}
