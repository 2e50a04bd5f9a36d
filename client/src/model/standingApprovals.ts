// "Always allow running workspace code here": the person's standing answer to AMTP's request to run
// workspace code (the `tests.run` approval: verification, characterization) for one workspace
// folder on this machine. It lives in VS Code's global state (the user profile on this machine,
// not synced), never in the workspace, so a repository can neither read nor plant it; "AMTP: Stop
// Always Allowing Workspace Code Here" revokes it. No 'vscode' import: unit-tested.
import type * as P from '../../../server/src/protocol';

/** The part of vscode.Memento this needs. */
export interface Memento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const KEY = 'amtp.alwaysRunWorkspaceCode';
/** the approvals a standing answer covers: running the workspace's own code, nothing else (never an overwrite, never a branch) */
const RUNS_WORKSPACE_CODE: ReadonlySet<string> = new Set(['tests.run']);

export class StandingApprovals {
  constructor(
    private readonly state: Memento,
    /** the workspace folder a request is about (its absolute path), or undefined */
    private readonly folder: () => string | undefined,
  ) {}

  /** Whether the request may be answered by the standing decision for this folder. */
  covers(params: Pick<P.ApprovalParams, 'tool'>): boolean {
    const folder = this.folder();
    return RUNS_WORKSPACE_CODE.has(params.tool) && folder !== undefined && this.list().includes(folder);
  }

  /** Whether a request can get the "Always allow here" button. */
  offers(params: Pick<P.ApprovalParams, 'tool'>): boolean {
    return RUNS_WORKSPACE_CODE.has(params.tool) && this.folder() !== undefined;
  }

  list(): string[] {
    const v = this.state.get<unknown>(KEY);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  async allow(): Promise<void> {
    const folder = this.folder();
    if (folder && !this.list().includes(folder)) await this.state.update(KEY, [...this.list(), folder]);
  }

  /** Revokes the standing decision for this folder; false when there was none. */
  async revoke(): Promise<boolean> {
    const folder = this.folder();
    if (!folder || !this.list().includes(folder)) return false;
    await this.state.update(
      KEY,
      this.list().filter((f) => f !== folder),
    );
    return true;
  }
}
