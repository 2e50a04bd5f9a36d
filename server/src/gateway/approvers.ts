import * as readline from 'node:readline/promises';
import { createTwoFilesPatch } from 'diff';
import { sha256 } from '../core/canonical';
import type { ToolName } from '../core/risk';
import type { ApprovalRecord, RunRecord } from '../core/run';
import type { ApprovalAnswer, ApprovalRequest, Approver } from './gateway';

/** --yes: the person approved every high-risk action of this run up front. */
export const approveAll: Approver = { ask: async () => ({ decision: 'approved', by: 'cli --yes' }) };

/** No TTY and no --yes: nothing risky happens; the request waits for `amtp approve`. */
export const deferAll: Approver = { ask: async () => ({ decision: 'pending', by: 'cli (no tty)' }) };

export const rejectAll: Approver = { ask: async () => ({ decision: 'rejected', by: 'cli --reject' }) };

/**
 * The id of a request that covers every later request of the same tool in the run: a person asked
 * once to "run workspace code" (characterization, then the written tests) is not asked again.
 */
export function runWideApprovalId(runId: string, tool: ToolName): string {
  return 'ap_' + sha256(`${runId}\n${tool}\nthe whole run`).slice(0, 24);
}

/**
 * Decisions already taken for this run (e.g. `amtp approve`) answer first; the rest go to `next`.
 * Only a decision `trusted` vouches for (its seal: store/ownership.ts) is taken; one that is not
 * (edited by hand, or by anything that can write the workspace) is said and asked again.
 */
export function recordedDecisions(
  run: () => RunRecord,
  next: Approver,
  trusted: (a: ApprovalRecord) => boolean,
  warn: (line: string) => void = () => undefined,
): Approver {
  return {
    async ask(req) {
      const approvals = run().approvals;
      const wide = runWideApprovalId(run().id, req.tool);
      const decided = (id: string) => approvals.find((a) => a.id === id && (a.decision === 'approved' || a.decision === 'rejected'));
      const prior = decided(req.id) ?? decided(wide);
      if (prior && trusted(prior)) return { decision: prior.decision as 'approved' | 'rejected', note: prior.note, by: prior.decidedBy };
      if (prior)
        warn(
          `the run record says ${req.tool} was ${prior.decision}, but that decision is not signed by you (it was edited outside AMTP); asking again`,
        );
      return next.ask(req);
    },
  };
}

/** Asks on the terminal, showing the diff; anything but "y" is a rejection. */
export function ttyApprover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Approver {
  return {
    async ask(req: ApprovalRequest): Promise<ApprovalAnswer> {
      output.write(`\n[${req.risk} risk] ${req.tool}: ${req.summary}\n`);
      if (req.diff) output.write(previewDiff(req.diff) + '\n');
      const rl = readline.createInterface({ input, output });
      try {
        const answer = (await rl.question('Approve? [y/N] ')).trim().toLowerCase();
        return { decision: answer === 'y' || answer === 'yes' ? 'approved' : 'rejected', by: 'cli tty' };
      } finally {
        rl.close();
      }
    },
  };
}

export function previewDiff(d: NonNullable<ApprovalRequest['diff']>, maxLines = 80): string {
  const patch = createTwoFilesPatch(`a/${d.path}`, `b/${d.path}`, d.before ?? '', d.after, d.before === null ? '(new file)' : '', '');
  const lines = patch.split('\n');
  return lines.length > maxLines ? [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more lines`].join('\n') : patch;
}
