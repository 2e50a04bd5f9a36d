// The commands of `amtp`: what each takes and what it does. Help and argument checks come from
// here; the code that runs each command is in main.ts.

export interface CommandSpec {
  /** positional arguments, as help shows them */
  args: string;
  min: number;
  max: number;
  summary: string;
  /** more for `amtp help COMMAND` */
  details?: string;
}

export const COMMANDS = {
  generate: {
    args: '[DIR]',
    min: 0,
    max: 1,
    summary: 'crawl DIR, plan test cases, write the tests and verify them',
    details:
      'DIR defaults to the current folder. Verification (on when the tests can run here) runs the written\n' +
      "tests --runs times with the project's runner, each run killed after --test-timeout seconds; only\n" +
      'tests that load, pass every run and add coverage stay. High-risk actions (overwriting a file,\n' +
      'writing outside test folders, running tests, --commit) ask on a TTY; --yes approves them up front;\n' +
      'with neither they wait and the run ends awaiting_approval (exit 4): decide with `amtp approve`.\n' +
      "A repository's own .vscode/settings.json may only raise risks, and never chooses the provider or\n" +
      'where requests go.',
  },
  crawl: { args: '[DIR]', min: 0, max: 1, summary: "print DIR's static map: languages, test setup, entry points" },
  runs: { args: '[DIR]', min: 0, max: 1, summary: "list the runs recorded in DIR's .amtp/ folder" },
  resume: { args: 'RUN_ID [DIR]', min: 1, max: 2, summary: 'continue a stopped run; finished agents are not called again' },
  approve: {
    args: 'RUN_ID [DIR]',
    min: 1,
    max: 2,
    summary: "decide a run's pending high-risk actions (approve, or --reject), then continue it",
  },
  review: {
    args: 'RUN_ID [DIR]',
    min: 1,
    max: 2,
    summary: "list a run's tests, or keep, drop or answer single tests; the decisions hold in every later run",
    details:
      'Without a decision flag it lists every test the run planned: its outcome and your decision; on a\n' +
      'terminal (or with --interactive) it asks about each undecided test in turn, those that wait for you\n' +
      'first, and records the answers after one confirmation. --drop (or --reject)\n' +
      'removes the test from its file now and no later run writes it back; --keep (or --accept) accepts it; a quarantined\n' +
      'test is answered --real-bug (stays quarantined, skipped, with your note), --docs-wrong (reported as a\n' +
      'documentation issue) or --wrong-test (removed, held back, and a lesson for the next run). --reason is\n' +
      'kept with each decision given. Decisions are sealed under your owner key in .amtp/decisions/.',
  },
  lessons: {
    args: '[list|forget CASE_ID] [DIR]',
    min: 0,
    max: 3,
    summary: 'list what the next run learns from your decisions and failed repairs, or forget one',
  },
  replay: { args: 'FILE.jsonl', min: 1, max: 1, summary: 'run a recorded pipeline again from the file alone (no workspace, no network)' },
  'verify-determinism': {
    args: 'FILE.jsonl',
    min: 1,
    max: 1,
    summary: 'replay a recording twice in separate processes and compare byte for byte',
  },
  mcp: {
    args: '[DIR]',
    min: 0,
    max: 1,
    summary: 'serve DIR to an MCP client over stdio (read, search, generate and run tests)',
    details:
      'Without DIR the current folder is served, except / or your home folder, which are refused: MCP\n' +
      'hosts often start servers there. High-risk actions ask the MCP client for confirmation\n' +
      '(elicitation); a client that cannot ask gets them refused. See docs/mcp.md.',
  },
  worker: {
    args: '[DIR]',
    min: 0,
    max: 1,
    summary: 'answer the model calls that `generate --queue` runs send, for the commit DIR is at',
    details:
      'Needs --queue redis://… and --store postgres://… (or AMTP_QUEUE, AMTP_STORE), the same as the run\n' +
      "uses. DIR (default the current folder) must be a git checkout at the run's commit: a job names its\n" +
      'commit and the AMTP version, and a worker on another refuses it. The provider, endpoint and key are\n' +
      "this machine's own (flags and environment, as for generate); no key travels in a job. Runs until\n" +
      'Ctrl-C or SIGTERM; a worker killed mid-job has its job run by another. See docs/scale.md.',
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function isCommand(v: string): v is CommandName {
  return Object.hasOwn(COMMANDS, v);
}
