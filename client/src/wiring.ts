// Which client handler answers which server→client message (the tests check every one is wired).
import * as P from '../../server/src/protocol';

export interface ClientHandlers {
  runChanged(p: P.RunChangedParams): void;
  requestApproval(p: P.ApprovalParams): Promise<P.ApprovalResult>;
}

export function wireClient(on: P.Receiver, h: ClientHandlers): void {
  P.onNotification(on, P.RunChanged, (p) => h.runChanged(p));
  P.onRequest(on, P.RequestApproval, (p) => h.requestApproval(p));
}
