// The one fake VS Code client the language-server tests use: it records what the server sends
// (run views, approval requests, progress, log lines) and answers approvals as told.
import type { ClientPort, ProgressValue } from '../../server/src/lsp/service';
import type * as P from '../../server/src/protocol';

export class FakeClient {
  readonly views: P.RunView[] = [];
  readonly approvals: P.ApprovalParams[] = [];
  readonly progressEvents: { token: string; value: ProgressValue }[] = [];
  readonly logs: string[] = [];

  constructor(public answer: (p: P.ApprovalParams) => Promise<P.ApprovalResult> = async () => ({ decision: 'approved' })) {}

  get port(): ClientPort {
    return {
      runChanged: (v) => void this.views.push(v),
      requestApproval: (p) => {
        this.approvals.push(p);
        return this.answer(p);
      },
      progress: (token, value) => void this.progressEvents.push({ token, value }),
      log: (line, level) => void this.logs.push(`${level}: ${line}`),
    };
  }

  /** The views of one run, in the order they were sent. */
  viewsOf(runId: string): P.RunView[] {
    return this.views.filter((v) => v.runId === runId);
  }
}
