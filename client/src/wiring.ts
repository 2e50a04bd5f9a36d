// Which client handler answers which server→client message (the tests check every one is wired).
import * as P from '../../server/src/protocol';

/** The Language Model API side (client/src/lm.ts); absent where vscode.lm is not available. */
export interface LmHandlers {
  models(): Promise<P.LmModelsResult>;
  chat(p: P.LmChatParams, token?: P.CancellationLike): Promise<P.LmChatResult>;
}

export interface ClientHandlers {
  runChanged(p: P.RunChangedParams): void;
  requestApproval(p: P.ApprovalParams): Promise<P.ApprovalResult>;
  lm?: LmHandlers;
}

const NO_LM = 'this VS Code offers no Language Model API (vscode.lm): choose another amtp.provider';

export function wireClient(on: P.Receiver, h: ClientHandlers): void {
  P.onNotification(on, P.RunChanged, (p) => h.runChanged(p));
  P.onRequest(on, P.RequestApproval, (p) => h.requestApproval(p));
  P.onRequest(on, P.LmModels, () => (h.lm ? h.lm.models() : { models: [] }));
  P.onRequest(on, P.LmChat, (p, token) => (h.lm ? h.lm.chat(p, token) : { error: { kind: 'NotFound' as const, message: NO_LM } }));
}
