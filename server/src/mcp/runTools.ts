// The MCP tools that run the pipeline: tests_generate and tests_run, with tests_review and
// tests_lessons for the person's decisions and what they teach the next run. The MCP layer only declares
// them (schemas with every parameter described) and turns the call into a context with an
// approver that asks the MCP client; the work is handed in as `RunTools` (server/src/cli/mcpRuns.ts),
// since the pipeline sits above this layer.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DEPTHS, FRAMEWORK_CHOICES, type Depth, type FrameworkChoice } from '../core/frameworks';
import type { Approver } from '../gateway/gateway';
import { elicitationApprover } from './elicitApprover';
import { RUN_TOOLS } from './toolNames';

export interface ToolCallContext {
  /** asks the MCP client's person (elicitation), or refuses when the client cannot ask */
  approver: Approver;
  /** aborted when the client cancels the call or the server shuts down */
  signal: AbortSignal;
  /** a progress line for the client (sent only when the call asked for progress) */
  progress(message: string): void;
}

export interface GenerateInput {
  /** workspace-relative files, or file#symbol, to plan tests for (default: the whole workspace) */
  only?: string[];
  /** a git ref: plan tests for what changed since it in the working tree */
  changedSince?: string;
  depth?: Depth;
  framework?: FrameworkChoice;
  verify?: boolean;
  commit?: boolean;
  intoExisting?: boolean;
}

export interface ReviewInput {
  runId: string;
  decisions?: { caseId: string; verdict: 'accepted' | 'rejected' | 'real_bug' | 'docs_wrong' | 'wrong_test'; reason?: string }[];
}

export interface LessonsInput {
  /** the case id of the lesson to forget; absent: list the lessons */
  forget?: string;
}

export interface RunTestsInput {
  runId?: string;
  files?: string[];
}

export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
  isError?: boolean;
}

export interface RunTools {
  generate(input: GenerateInput, ctx: ToolCallContext): Promise<ToolOutput>;
  runTests(input: RunTestsInput, ctx: ToolCallContext): Promise<ToolOutput>;
  review(input: ReviewInput, ctx: ToolCallContext): Promise<ToolOutput>;
  lessons(input: LessonsInput, ctx: ToolCallContext): Promise<ToolOutput>;
}

const HIGH_RISK =
  'High-risk actions (overwriting a file, writing outside test folders, running tests, creating a branch) ask you through ' +
  'the MCP client (elicitation); a client that cannot ask gets them refused, and nothing of them happens.';

/** What every run tool call shares: the server's shutdown signal and the confirmation timeout. */
interface RunToolOptions {
  signal?: AbortSignal;
  approvalTimeoutMs?: number;
}

export function registerRunTools(server: McpServer, runs: RunTools, opts: RunToolOptions = {}): void {
  registerGenerateTool(server, runs, opts);
  registerRunTestsTool(server, runs, opts);
  registerReviewTool(server, runs, opts);
  registerLessonsTool(server, runs, opts);
}

/** tests_lessons: what the next run's generator and engineer will be told, or forgetting one lesson. */
function registerLessonsTool(server: McpServer, runs: RunTools, opts: RunToolOptions): void {
  server.registerTool(
    RUN_TOOLS.lessons,
    {
      description:
        "Without `forget`: the lessons the next run's generator and engineer are given (the person's decisions about tests and " +
        'repairs that gave up), each with its case id, source, module and symbol, text and date. With `forget`: forgets the ' +
        "person's decision behind that lesson, so the next run may plan and write the test again. Forgetting is high risk " +
        '(lessons.forget): the person confirms it through the MCP client first (elicitation); a client that cannot ask gets it refused.',
      inputSchema: {
        forget: z
          .string()
          .optional()
          .describe('the case id of the lesson to forget (tc_ followed by 12 hex digits), as listed; leave out to list the lessons'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args, extra) => call(() => runs.lessons(args, context(server, extra, opts))),
  );
}

/** tests_review: a run's tests with their outcome and the person's decision, or decisions about single tests. */
function registerReviewTool(server: McpServer, runs: RunTools, opts: RunToolOptions): void {
  server.registerTool(
    RUN_TOOLS.review,
    {
      description:
        "Without decisions: list a run's tests (case id, title, outcome, file, the person's earlier decision). With decisions: " +
        'keep (accepted), drop (rejected: removed from its file, never written back), or answer a quarantined test ' +
        '(real_bug: stays quarantined and skipped; docs_wrong: reported as a documentation issue; wrong_test: removed and a lesson). ' +
        'Decisions hold in every later run, so the person confirms them through the MCP client first (elicitation); ' +
        'a client that cannot ask gets them refused.',
      inputSchema: {
        runId: z.string().describe('the run, as tests_generate returned it (runId)'),
        decisions: z
          .array(
            z.object({
              caseId: z.string().describe('the test case id, tc_ followed by 12 hex digits'),
              verdict: z.enum(['accepted', 'rejected', 'real_bug', 'docs_wrong', 'wrong_test']),
              reason: z.string().max(500).optional().describe("the person's reason, one line"),
            }),
          )
          .optional()
          .describe('the decisions to take; leave out to list the tests'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args, extra) => call(() => runs.review(args, context(server, extra, opts))),
  );
}

/** tests_generate: a whole run (or a scoped one) with every parameter described for the calling model. */
function registerGenerateTool(server: McpServer, runs: RunTools, opts: RunToolOptions): void {
  server.registerTool(
    RUN_TOOLS.generate,
    {
      description:
        'Generate tests for the workspace, or only for the files and symbols in `only` or what changed since `changedSince`: ' +
        'the Repo Crawler maps it, the Test Case Generator plans cases, undocumented functions are run in a sandbox to pin what ' +
        "they do, the Test Engineer writes test files, then the tests run with the project's own runner and only passing, " +
        `coverage-adding tests stay. ${HIGH_RISK} ` +
        'Returns the run summary (runId, status, cases, files, approvals, verification).',
      inputSchema: {
        only: z
          .array(z.string())
          .optional()
          .describe(
            'plan tests only for these workspace-relative files, or one symbol of a file as "lib/index.js#clamp" (default: the whole workspace)',
          ),
        changedSince: z
          .string()
          .optional()
          .describe(
            'a git ref (e.g. "main" or "HEAD~3"): plan tests only for what changed since it in the working tree, untracked files included',
          ),
        depth: z.enum(DEPTHS).optional().describe('how many cases to plan: smoke (a few key cases), standard (default) or deep'),
        framework: z
          .enum(FRAMEWORK_CHOICES)
          .optional()
          .describe('the test framework to write for; auto (default) uses the one the project uses'),
        verify: z
          .boolean()
          .optional()
          .describe('run the written tests and keep only assured ones (default true; running tests asks for confirmation)'),
        commit: z
          .boolean()
          .optional()
          .describe(
            'after a completed run, create a branch with one commit of exactly the kept files (asks for confirmation; never pushes; default false)',
          ),
        intoExisting: z
          .boolean()
          .optional()
          .describe(
            "add the cases to the person's own test file of each module when there is one (test/foo.test.js beside test/foo.amtp.test.js, tests/test_foo.py beside tests/test_foo_amtp.py), keeping every test already in it; changing that file asks for confirmation (default false: AMTP's own files)",
          ),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args, extra) => call(() => runs.generate(args, context(server, extra, opts))),
  );
}

/** tests_run: one run of the kept (or named) test files. */
function registerRunTestsTool(server: McpServer, runs: RunTools, opts: RunToolOptions): void {
  server.registerTool(
    RUN_TOOLS.run,
    {
      description:
        "Run tests once with the project's own runner and report each test's result. By default the test files the latest " +
        `run wrote and kept. Running tests executes workspace code: ${HIGH_RISK}`,
      inputSchema: {
        runId: z
          .string()
          .optional()
          .describe('the run whose test files and framework to use (default: the latest run that wrote files); tests_generate returns it'),
        files: z
          .array(z.string())
          .optional()
          .describe('workspace-relative test files to run instead of the run\'s kept files, e.g. ["test/add.test.js"]'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args, extra) => call(() => runs.runTests(args, context(server, extra, opts))),
  );
}

type Extra = {
  signal: AbortSignal;
  requestId: string | number;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; message?: string };
  }) => Promise<void>;
};

function context(server: McpServer, extra: Extra, opts: RunToolOptions): ToolCallContext {
  const signal = opts.signal ? AbortSignal.any([extra.signal, opts.signal]) : extra.signal;
  const token = extra._meta?.progressToken;
  let step = 0;
  return {
    signal,
    approver: elicitationApprover(server.server, { relatedRequestId: extra.requestId, signal, timeoutMs: opts.approvalTimeoutMs }),
    progress: (message) => {
      if (token !== undefined)
        void extra
          .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++step, message } })
          .catch(() => undefined);
    },
  };
}

async function call(
  fn: () => Promise<ToolOutput>,
): Promise<{ content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean }> {
  try {
    const r = await fn();
    return { content: [{ type: 'text', text: r.text }], structuredContent: r.structured, ...(r.isError ? { isError: true } : {}) };
  } catch (e) {
    return { content: [{ type: 'text', text: (e as Error).message }], isError: true };
  }
}
