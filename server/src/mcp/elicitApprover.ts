// High-risk actions started through MCP ask the MCP client's person for confirmation with an
// elicitation (a form request from server to client). A client that cannot elicit gets the action
// refused with a message that says how to allow it; it is never approved silently.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolName } from '../core/risk';
import type { ApprovalAnswer, Approver } from '../gateway/gateway';
import { previewDiff } from '../gateway/approvers';

export const NO_ELICITATION =
  'this MCP client cannot ask you to confirm (it does not support elicitation), so high-risk actions are refused. ' +
  'To allow them: run `amtp generate DIR --yes` in a terminal, use a client with elicitation (VS Code), ' +
  'or start the server with `amtp mcp DIR --risk TOOL=medium` for a tool you accept without asking.';

/** What the Approve box allows, for tools that do not change a file. */
const ALLOW: Partial<Record<ToolName, string>> = {
  'tests.run': 'run the tests',
  'git.branch': 'create the branch',
  'lessons.forget': 'forget the lesson',
};

export interface ElicitOptions {
  /** the tool call the confirmation belongs to (transports that multiplex use it) */
  relatedRequestId?: string | number;
  signal?: AbortSignal;
  /** how long a person has to answer; then the decision is `timeout` */
  timeoutMs?: number;
}

export function elicitationApprover(server: Server, opts: ElicitOptions = {}): Approver {
  return {
    async ask(req): Promise<ApprovalAnswer> {
      const client = server.getClientVersion()?.name ?? 'MCP client';
      if (!server.getClientCapabilities()?.elicitation?.form)
        return { decision: 'rejected', note: NO_ELICITATION, by: `${client} (cannot confirm)` };
      const message = [`[${req.risk} risk] ${req.tool}: ${req.summary}`, ...(req.diff ? ['', previewDiff(req.diff, 60)] : [])].join('\n');
      try {
        const r = await server.elicitInput(
          {
            mode: 'form',
            message,
            requestedSchema: {
              type: 'object',
              properties: {
                approve: {
                  type: 'boolean',
                  title: 'Approve',
                  description: `Allow AMTP to ${ALLOW[req.tool] ?? 'change this file'}`,
                  default: true,
                },
              },
            },
          },
          { relatedRequestId: opts.relatedRequestId, signal: opts.signal, timeout: opts.timeoutMs ?? 600_000 },
        );
        if (r.action === 'accept' && r.content?.approve !== false) return { decision: 'approved', by: `${client} (elicitation)` };
        return {
          decision: 'rejected',
          note: r.action === 'accept' ? 'not approved' : `the person chose "${r.action}"`,
          by: `${client} (elicitation)`,
        };
      } catch (e) {
        const timedOut = /timed out|timeout/i.test((e as Error).message);
        return timedOut
          ? { decision: 'timeout', by: `${client} (elicitation)` }
          : { decision: 'rejected', note: `confirmation failed: ${(e as Error).message}`, by: `${client} (elicitation)` };
      }
    },
  };
}
