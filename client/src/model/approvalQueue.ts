// Pending approvals as plain data. Each request from the server gets one promise; the first of
// notification button, inline tree action, command or timeout to call decide() answers it, and every
// later answer is a no-op. No 'vscode' import: the races are unit-tested.
import type * as P from '../../../server/src/protocol';

export interface PendingApproval {
  params: P.ApprovalParams;
  receivedAt: number;
}

type Listener = () => void;

export interface ApprovalQueueOptions {
  /** seconds before an unanswered request answers `timeout`; 0 or undefined waits forever */
  timeoutSeconds?: () => number | undefined;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  now?: () => number;
}

interface Entry extends PendingApproval {
  resolve: (r: P.ApprovalResult) => void;
  timer?: unknown;
}

export class ApprovalQueue {
  private readonly pending = new Map<string, Entry>();
  /** runs whose remaining approvals the user approved in one go ("Approve all in this run") */
  private readonly approveAllRuns = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly now: () => number;

  constructor(private readonly options: ApprovalQueueOptions = {}) {
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout));
    this.now = options.now ?? Date.now;
  }

  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(): void {
    for (const l of [...this.listeners]) l();
  }

  /** True when the request was answered up front by an earlier "Approve all in this run". */
  isPreApproved(params: P.ApprovalParams): boolean {
    return this.approveAllRuns.has(params.runId);
  }

  /** Queues a request; the promise settles with the first decision. */
  request(params: P.ApprovalParams): Promise<P.ApprovalResult> {
    if (this.isPreApproved(params)) {
      return Promise.resolve({ decision: 'approved', note: 'approved with "Approve all in this run"' });
    }
    // A re-sent request (same id) shares the first one's answer instead of asking twice.
    const existing = this.pending.get(params.approvalId);
    if (existing) return new Promise((resolve) => this.chain(existing, resolve));
    return new Promise<P.ApprovalResult>((resolve) => {
      const entry: Entry = { params, receivedAt: this.now(), resolve };
      const seconds = this.options.timeoutSeconds?.();
      if (seconds && seconds > 0) {
        entry.timer = this.setTimer(() => this.decide(params.approvalId, 'timeout'), seconds * 1000);
      }
      this.pending.set(params.approvalId, entry);
      this.fire();
    });
  }

  private chain(entry: Entry, resolve: (r: P.ApprovalResult) => void): void {
    const first = entry.resolve;
    entry.resolve = (r) => {
      first(r);
      resolve(r);
    };
  }

  /** Answers a pending request. Returns false when it was already answered (or never asked). */
  decide(approvalId: string, decision: P.ApprovalResult['decision'], note?: string): boolean {
    const entry = this.pending.get(approvalId);
    if (!entry) return false;
    this.pending.delete(approvalId);
    if (entry.timer !== undefined) this.clearTimer(entry.timer);
    const result: P.ApprovalResult = note ? { decision, note } : { decision };
    entry.resolve(result);
    this.fire();
    return true;
  }

  /** Approves every pending request of the run and the ones that follow in it. */
  approveAll(runId: string): number {
    this.approveAllRuns.add(runId);
    let n = 0;
    for (const e of [...this.pending.values()]) {
      if (e.params.runId === runId && this.decide(e.params.approvalId, 'approved', 'approved with "Approve all in this run"')) n++;
    }
    return n;
  }

  /** Rejects everything still pending (client shutdown): nothing is written without a person. */
  rejectAll(note: string): void {
    for (const id of [...this.pending.keys()]) this.decide(id, 'rejected', note);
  }

  has(approvalId: string): boolean {
    return this.pending.has(approvalId);
  }

  get(approvalId: string): PendingApproval | undefined {
    const e = this.pending.get(approvalId);
    return e && { params: e.params, receivedAt: e.receivedAt };
  }

  /** Oldest first. */
  list(): PendingApproval[] {
    return [...this.pending.values()]
      .sort((a, b) => a.receivedAt - b.receivedAt)
      .map((e) => ({ params: e.params, receivedAt: e.receivedAt }));
  }

  latest(): PendingApproval | undefined {
    return this.list().at(-1);
  }
}

/** The one-line label of an approval in the tree and the notification. */
export function describeApproval(p: P.ApprovalParams): string {
  const what = p.diff ? `${p.diff.before === null ? 'create' : 'overwrite'} ${p.diff.path}` : (p.target ?? p.tool);
  return `${p.risk} risk · ${p.tool}: ${what}`;
}
