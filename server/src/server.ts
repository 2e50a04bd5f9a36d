// LSP connection wiring only: every handler lives in lsp/service.ts.
import { fileURLToPath } from 'node:url';
import {
  CancellationTokenSource,
  createConnection,
  ProposedFeatures,
  ResponseError,
  ErrorCodes,
  WorkDoneProgress,
  type InitializeParams,
} from 'vscode-languageserver/node';
import { loadPython } from './frameworks/pyGrammar';
import { loadJsParser } from './util/jsParser';
import { AmtpService, RestrictedModeError } from './lsp/service';
import { wireService } from './lsp/wiring';
import * as P from './protocol';
import type { LogLevel } from './core/log';

const connection = createConnection(ProposedFeatures.all);

/** core/log.ts levels as the LSP's window/logMessage types (connection.console's methods). */
const LSP_LOG = { error: 'error', warn: 'warn', info: 'info', debug: 'log' } as const satisfies Record<
  LogLevel,
  'error' | 'warn' | 'info' | 'log'
>;
let service: AmtpService | undefined;

function svc(): AmtpService {
  if (!service) throw new ResponseError(ErrorCodes.ServerNotInitialized, 'AMTP has no workspace folder open');
  return service;
}

/** Errors reach the client as ResponseErrors with a message a person can act on. */
function handle<A, R>(fn: (a: A) => Promise<R> | R): (a: A) => Promise<R> {
  return async (a: A) => {
    try {
      return await fn(a);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      const code = e instanceof RestrictedModeError ? ErrorCodes.InvalidRequest : ErrorCodes.InternalError;
      throw new ResponseError(code, (e as Error).message ?? String(e));
    }
  };
}

connection.onInitialize(async (params: InitializeParams) => {
  // Python and JavaScript are parsed synchronously once their parsers are loaded (frameworks/pyGrammar.ts,
  // util/jsParser.ts): before the first request, which waits for this answer. A failed load stops only a
  // parse of that language.
  await Promise.all([loadPython().catch(() => undefined), loadJsParser().catch(() => undefined)]);
  const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
  const init = (params.initializationOptions ?? { trusted: false, settings: { provider: 'offline' } }) as P.InitOptions;
  if (folder) {
    service = new AmtpService(
      fileURLToPath(folder),
      {
        runChanged: (run) => P.sendNotification(connection, P.RunChanged, { run }),
        requestApproval: (p) => P.sendRequest(connection, P.RequestApproval, p),
        progress: (token, v) => {
          const value =
            v.kind === 'begin'
              ? { kind: 'begin' as const, title: v.title, message: v.message, cancellable: v.cancellable }
              : v.kind === 'report'
                ? { kind: 'report' as const, message: v.message }
                : { kind: 'end' as const, message: v.message };
          void connection.sendProgress(WorkDoneProgress.type, token, value);
        },
        // The LSP's message types: VS Code's output channel shows each at its own level.
        log: (line, level) => connection.console[LSP_LOG[level]](line),
        lm: {
          models: async () => (await P.sendRequest(connection, P.LmModels, null)).models,
          // The run's abort becomes the request's $/cancelRequest, so the client stops the model too.
          chat: async (p, signal) => {
            const source = new CancellationTokenSource();
            const cancel = () => source.cancel();
            signal?.addEventListener('abort', cancel, { once: true });
            try {
              return await P.sendRequest(connection, P.LmChat, p, source.token);
            } finally {
              signal?.removeEventListener('abort', cancel);
              source.dispose();
            }
          },
        },
      },
      init,
    );
  }
  return { capabilities: {}, serverInfo: { name: 'amtp', version: '0.1.0' } };
});

// The connection's own typed overloads take protocol.ts's messages (one vscode-languageserver-protocol).
wireService(connection, svc, handle);

connection.listen();
