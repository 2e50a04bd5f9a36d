// Every flag of `amtp`, one entry each: its type, the commands it applies to, the help line and
// the check of its value. The parser (args.ts), the help (help.ts) and the docs test
// (test/unit/cliDocs.test.ts) all read this table, so adding a flag is one entry here plus the
// code that uses its value.
import { DEPTHS, FRAMEWORK_CHOICES } from '../core/frameworks';
import { PROVIDERS } from '../core/providers';
import { RISKS, TOOL_NAMES } from '../core/risk';
import type { CommandName } from './commands';
import { finite, headerCheck, integer, oneOf, positive, positiveNumber, wholeNumber } from './flagChecks';
import { REVIEW_FLAGS } from './reviewFlags';

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** the value's placeholder in help */
  value?: string;
  help: string;
  commands: readonly CommandName[];
  /** an error message when the value is not acceptable */
  check?: (v: string) => string | undefined;
  /** a flag that may not be given together with this one */
  conflicts?: string;
}

const RUN_FLAGS = ['generate', 'resume'] as const;
/** Commands that carry a run forward and say what it does on stderr (core/log.ts). */
const LOG_FLAGS = ['generate', 'resume', 'approve'] as const;
/** Where a run's requests go and how they look: the person's choice, for any command that calls a model. */
const ENDPOINT_FLAGS = ['generate', 'resume', 'mcp', 'worker'] as const;
/** Commands that read or write a run store. */
const STORE_FLAGS = ['generate', 'resume', 'approve', 'runs', 'worker', 'review', 'lessons'] as const;

export const FLAGS = {
  framework: {
    type: 'string',
    value: FRAMEWORK_CHOICES.join('|'),
    help: 'the test framework to write for (auto: the one the project uses)',
    commands: ['generate'],
    check: oneOf(FRAMEWORK_CHOICES),
  },
  depth: {
    type: 'string',
    value: DEPTHS.join('|'),
    help: 'how many cases to plan (default standard)',
    commands: ['generate'],
    check: oneOf(DEPTHS),
  },
  provider: {
    type: 'string',
    value: PROVIDERS.join('|'),
    help: 'offline: built-in static analysis, no network; openai: any OpenAI-compatible endpoint (OPENAI_API_KEY, OPENAI_BASE_URL; no key needed for a local server); azure: Azure OpenAI (AZURE_OPENAI_API_KEY, --azure-*); vscode-lm: only inside VS Code. Default: AMTP_PROVIDER, else openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline',
    commands: ['generate', 'mcp', 'worker'],
    check: oneOf(PROVIDERS),
  },
  model: { type: 'string', value: 'M', help: 'the model of every agent (default AMTP_MODEL, else gpt-4o-mini)', commands: ['generate'] },
  'crawler-model': {
    type: 'string',
    value: 'M',
    help: "the Repo Crawler's model (default AMTP_CRAWLER_MODEL, else --model)",
    commands: ['generate'],
  },
  'generator-model': {
    type: 'string',
    value: 'M',
    help: "the Test Case Generator's model (default AMTP_GENERATOR_MODEL, else --model)",
    commands: ['generate'],
  },
  'engineer-model': {
    type: 'string',
    value: 'M',
    help: "the Test Engineer's model (default AMTP_ENGINEER_MODEL, else --model)",
    commands: ['generate'],
  },
  seed: { type: 'string', value: 'N', help: 'the seed sent with every request (default 1234)', commands: ['generate'], check: integer },
  temperature: {
    type: 'string',
    value: 'T',
    help: 'sampling temperature, at most 0.2 (higher is clamped, with a warning)',
    commands: ['generate'],
    check: finite,
  },
  'max-attempts': {
    type: 'string',
    value: 'N',
    help: 'new sessions for a reply that does not parse (default 3)',
    commands: ['generate'],
    check: integer,
  },
  'max-input-tokens': {
    type: 'string',
    value: 'N',
    help: "most tokens one model request may carry; each agent's work is cut into batches that fit (default 8000)",
    commands: ['generate'],
    check: positive,
  },
  'max-output-tokens': {
    type: 'string',
    value: 'N',
    help: 'most tokens one model reply may use: batches are sized so their expected reply fits, and every request carries it as its output bound (default AMTP_MAX_OUTPUT_TOKENS, else 4096)',
    commands: ['generate'],
    check: positive,
  },
  concurrency: {
    type: 'string',
    value: 'N',
    help: 'batches sent at once; a 429 pauses them all (default 4)',
    commands: ['generate'],
    check: positive,
  },
  timeout: {
    type: 'string',
    value: 'SECONDS',
    help: 'give a model request up after this many seconds without data, before the first streamed chunk or between two (default AMTP_TIMEOUT_SECONDS, else 600)',
    commands: ENDPOINT_FLAGS,
    check: positiveNumber,
  },
  deadline: {
    type: 'string',
    value: 'SECONDS',
    help: 'give a model request up after this many seconds in all, however it streams (default AMTP_DEADLINE_SECONDS, else the --timeout plus one second for every 4 tokens of --max-output-tokens: 1624 s by default)',
    commands: ENDPOINT_FLAGS,
    check: positiveNumber,
  },
  header: {
    type: 'string',
    multiple: true,
    value: "'NAME: VALUE'",
    help: 'an extra HTTP header on every model request (e.g. for a gateway); repeatable, wins over AMTP_HEADERS (a JSON object). Values are treated as secrets',
    commands: ENDPOINT_FLAGS,
    check: headerCheck,
  },
  'price-table': {
    type: 'string',
    value: 'FILE',
    help: 'a JSON file of prices per million tokens by model, for the cost line of the summary (default AMTP_PRICE_TABLE); see docs/configuration.md',
    commands: ENDPOINT_FLAGS,
  },
  'no-structured-output': {
    type: 'boolean',
    help: 'never ask the endpoint for structured output (response_format); replies are still validated (also AMTP_STRUCTURED_OUTPUT=0)',
    commands: ENDPOINT_FLAGS,
  },
  'azure-endpoint': {
    type: 'string',
    value: 'URL',
    help: 'with --provider azure: the resource endpoint, https://NAME.openai.azure.com (default AZURE_OPENAI_ENDPOINT)',
    commands: ENDPOINT_FLAGS,
  },
  'azure-deployment': {
    type: 'string',
    value: 'NAME',
    help: 'with --provider azure: the deployment (default AZURE_OPENAI_DEPLOYMENT; else the v1 API with --model)',
    commands: ENDPOINT_FLAGS,
  },
  'azure-api-version': {
    type: 'string',
    value: 'VERSION',
    help: 'with --provider azure and a deployment: the api-version (default AZURE_OPENAI_API_VERSION or OPENAI_API_VERSION)',
    commands: ENDPOINT_FLAGS,
  },
  verify: {
    type: 'boolean',
    help: 'run the written tests and keep only assured ones (the default)',
    commands: ['generate'],
    conflicts: 'no-verify',
  },
  'no-verify': { type: 'boolean', help: 'write the tests without running them', commands: ['generate'] },
  'no-characterize': {
    type: 'boolean',
    help: 'do not run undocumented functions to pin what they do (characterization tests; docs/characterization.md)',
    commands: ['generate'],
  },
  mutation: {
    type: 'boolean',
    help: 'mutate the files under test while verifying: the keep rule keeps a test that kills a mutant no other kept test kills, and the summary gives the mutation score (the default; docs/mutation.md)',
    commands: ['generate'],
    conflicts: 'no-mutation',
  },
  'no-mutation': {
    type: 'boolean',
    help: 'verify without mutation: a test is kept only when it covers something no other kept test covers',
    commands: ['generate'],
  },
  'mutation-budget': {
    type: 'string',
    value: 'SECONDS',
    help: 'wall-clock budget of the mutation phase (default 60, shortened to no less than 20 when the run would not end within two minutes; a budget given here is kept); the summary says which mutants it did not reach',
    commands: ['generate'],
    check: positive,
  },
  'min-mutation-score': {
    type: 'string',
    value: 'N',
    help: 'mutation score target in percent: the summary says whether the verified run met it, and amtp exits 6 when not',
    commands: ['generate'],
  },
  'search-budget': {
    type: 'string',
    value: 'SECONDS',
    help: 'time budget of the offline search of call sequences that characterization runs (default 60, about right for 50 modules on 2 cores); fixed before it runs, so the same tests come out on every machine (docs/search.md)',
    commands: ['generate'],
    check: positive,
  },
  runs: {
    type: 'string',
    value: 'N',
    help: 'a test is kept only if it passes N runs in a row (default 3)',
    commands: ['generate'],
    check: positive,
  },
  rounds: {
    type: 'string',
    value: 'N',
    help: 'coverage rounds after verification: the engineer gets the code the kept tests leave uncovered and new tests that cover more stay (default 2; 0: none)',
    commands: ['generate'],
    check: wholeNumber,
  },
  'round-tokens': {
    type: 'string',
    value: 'N',
    help: 'the prompt tokens all coverage rounds may spend together (default 50000)',
    commands: ['generate'],
    check: positive,
  },
  'test-timeout': {
    type: 'string',
    value: 'SECONDS',
    help: 'kill one runner invocation (its whole process group) after this long (default 120)',
    commands: ['generate'],
    check: positive,
  },
  only: {
    type: 'string',
    multiple: true,
    value: 'PATH[#SYMBOL]',
    help: 'plan tests for this file (or only this symbol of it); repeatable. The rest of the workspace is still read for context',
    commands: ['generate'],
  },
  full: {
    type: 'boolean',
    help: 'a full run even when an earlier completed run with the same settings exists (by default only what changed since it runs, and nothing when nothing changed)',
    commands: ['generate'],
  },
  'changed-since': {
    type: 'string',
    value: 'REF',
    help: 'plan tests for what changed since the git ref REF in the working tree: the changed symbols of changed files, and untracked files',
    commands: ['generate'],
  },
  'confidence-threshold': {
    type: 'string',
    value: 'N',
    help: 'kept tests below this confidence (0 to 1, default 0.75) wait for review and the run ends awaiting_input (exit 7): amtp review accepts or rejects them (docs/confidence.md)',
    commands: ['generate'],
    check: (v) => (/^(0(\.\d+)?|1(\.0+)?)$/.test(v) ? undefined : `must be a number from 0 to 1 (got "${v}")`),
  },
  'accept-low-confidence': {
    type: 'boolean',
    help: 'keep tests below --confidence-threshold without review (--yes does not)',
    commands: ['generate'],
  },
  'into-existing': {
    type: 'boolean',
    help: 'add the cases to your own test file of the module when there is one (test/foo.test.js for test/foo.amtp.test.js, tests/test_foo.py for tests/test_foo_amtp.py), keeping every test already in it; changing your file is an overwrite (high risk: asks, or --yes). Without one, the AMTP file is written as usual',
    commands: ['generate'],
  },
  commit: {
    type: 'boolean',
    help: "after a completed run, create a branch named from the Test Engineer's PR metadata with one commit of exactly the files the run kept (high risk; never pushes; your checkout and staged changes are not touched)",
    commands: ['generate'],
  },
  yes: {
    type: 'boolean',
    short: 'y',
    help: 'approve every high-risk action of the run up front (file overwrites, writes outside test folders, running tests, --commit)',
    commands: RUN_FLAGS,
  },
  risk: {
    type: 'string',
    multiple: true,
    value: 'TOOL=LEVEL',
    help: `set a tool's risk for this run, in either direction; repeatable. TOOL: ${TOOL_NAMES.join(', ')}; LEVEL: ${RISKS.join(', ')}`,
    commands: [...RUN_FLAGS, 'mcp'],
  },
  record: {
    type: 'string',
    value: 'FILE.jsonl',
    help: 'record every LLM exchange, tool call and state transition (secrets redacted) for `amtp replay`',
    commands: ['generate'],
  },
  lcov: {
    type: 'string',
    value: 'FILE',
    help: "write the verified run's coverage of the files under test as lcov (JavaScript; paths relative to the workspace)",
    commands: ['generate'],
  },
  cobertura: {
    type: 'string',
    value: 'FILE',
    help: "write the verified run's coverage of the files under test as Cobertura XML (JavaScript)",
    commands: ['generate'],
  },
  'min-coverage': {
    type: 'string',
    value: 'N',
    help: 'statement coverage target in percent: the summary says whether the verified run met it, and amtp exits 5 when not',
    commands: ['generate'],
  },
  store: {
    type: 'string',
    value: 'URL',
    help: 'where runs, approvals and artifacts are kept: lowdb (the .amtp/ folder, the default) or postgres://USER@HOST:PORT/DATABASE (default AMTP_STORE); see docs/scale.md',
    commands: STORE_FLAGS,
  },
  cache: {
    type: 'string',
    value: 'URL',
    help: 'redis:// or valkey:// server shared by every AMTP process: MCP tool results, and the 429 hold (a Retry-After seen by one process pauses all of them for that endpoint and model) (default AMTP_CACHE)',
    commands: ['generate', 'resume', 'worker'],
  },
  queue: {
    type: 'string',
    value: 'URL',
    help: 'redis:// or valkey:// server of the job queue: generate sends each model call to `amtp worker` processes on any machine with the workspace at the same commit; needs --store postgres://… (default AMTP_QUEUE)',
    commands: ['generate', 'resume', 'worker'],
  },
  jobs: {
    type: 'string',
    value: 'N',
    help: 'jobs this worker runs at once (default 1)',
    commands: ['worker'],
    check: positive,
  },
  ...REVIEW_FLAGS,
  reject: { type: 'boolean', help: 'reject the pending actions instead of approving them', commands: ['approve'] },
  note: { type: 'string', value: 'TEXT', help: 'a note kept with the decision in the run record', commands: ['approve'] },
  out: { type: 'string', value: 'DIR', help: 'where the replay writes its files (default a new temporary folder)', commands: ['replay'] },
  pinned: {
    type: 'boolean',
    help: "take the crawler's static map and the system prompts from the recording, so a recording made by an older version still replays",
    commands: ['replay'],
  },
  verbose: {
    type: 'boolean',
    help: "also the run's debug lines on stderr: each batch's model call and each test the verifier keeps or drops",
    commands: LOG_FLAGS,
    conflicts: 'quiet',
  },
  quiet: {
    type: 'boolean',
    help: 'only warnings and errors on stderr (the summary still prints)',
    commands: LOG_FLAGS,
    conflicts: 'verbose',
  },
  json: {
    type: 'boolean',
    help: 'print one JSON object instead of text, for scripts (for a run: runId, status, activities, cases, files, approvals, verification, branch)',
    commands: ['generate', 'crawl', 'runs', 'resume', 'approve', 'replay', 'review', 'lessons'],
  },
  help: {
    type: 'boolean',
    short: 'h',
    help: "print this command's help",
    commands: ['generate', 'crawl', 'runs', 'resume', 'approve', 'replay', 'verify-determinism', 'mcp', 'worker', 'review', 'lessons'],
  },
} as const satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof FLAGS;
export const FLAG_NAMES = Object.keys(FLAGS) as FlagName[];

/** Flags that come before any command. */
export const TOP_LEVEL_FLAGS = ['--help', '-h', '--version', '-V'] as const;

export type FlagValues = {
  [K in FlagName]?: (typeof FLAGS)[K] extends { multiple: true }
    ? string[]
    : (typeof FLAGS)[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

export function flagsOf(command: CommandName): FlagName[] {
  return FLAG_NAMES.filter((f) => (FLAGS[f].commands as readonly string[]).includes(command));
}
