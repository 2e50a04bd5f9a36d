import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors';
import { DEPTHS, FRAMEWORK_CHOICES } from '../core/frameworks';
import { PROVIDERS } from '../core/providers';
import { RISKS, TOOL_NAMES, isRisk, isToolName } from '../core/risk';
import type { RiskOverrides } from '../gateway/policy';

export const USAGE = `amtp — turns a workspace into a reviewed, runnable test suite

  amtp generate [DIR] [--framework ${FRAMEWORK_CHOICES.join('|')}] [--depth ${DEPTHS.join('|')}]
                      [--provider ${PROVIDERS.join('|')}] [--model M] [--crawler-model M] [--generator-model M]
                      [--engineer-model M] [--seed N] [--temperature T] [--max-attempts N]
                      [--verify | --no-verify] [--runs N] [--test-timeout SECONDS]
                      [--yes] [--risk TOOL=LEVEL]... [--record FILE.jsonl] [--json] [ENDPOINT OPTIONS]
  amtp crawl [DIR] [--json]
  amtp runs [DIR] [--json]
  amtp resume RUN_ID [DIR] [--yes] [--risk TOOL=LEVEL]... [--json] [ENDPOINT OPTIONS]
  amtp approve RUN_ID [DIR] [--reject] [--note TEXT] [--json]
  amtp replay FILE.jsonl [--out DIR] [--pinned] [--json]
  amtp verify-determinism FILE.jsonl
  amtp mcp [DIR]

Verification (default on when the tests can run): the written tests run --runs times (3) with the
project's runner, each run killed after --test-timeout seconds (120); only tests that load, pass every
run and add coverage stay. Running tests is high risk: --yes approves it, a TTY asks, otherwise it waits.
--risk TOOL=LEVEL sets a tool's risk for this run (e.g. --risk tests.run=medium). A repository's own
.vscode/settings.json may only raise risks, and never chooses the provider or where requests go.

Endpoint options: [--timeout SECONDS] [--max-output-tokens N] [--header 'NAME: VALUE']...
  [--price-table FILE] [--no-structured-output] [--azure-endpoint URL] [--azure-deployment NAME]
  [--azure-api-version VERSION]. --timeout counts idle seconds between streamed chunks (600).
  A base URL without a key (Ollama, LM Studio, vLLM) needs no key. See docs/configuration.md.

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, AMTP_MODEL, AMTP_PROVIDER, AZURE_OPENAI_API_KEY,
  AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_DEPLOYMENT, OPENAI_API_VERSION, AMTP_HEADERS (JSON object),
  AMTP_TIMEOUT_SECONDS, AMTP_MAX_OUTPUT_TOKENS, AMTP_PRICE_TABLE, AMTP_STRUCTURED_OUTPUT=0.
Exit codes: 0 completed, 2 bad usage, 3 needs_review, 4 failed / awaiting approval.`;

const ENUMS: Record<string, readonly string[]> = { framework: FRAMEWORK_CHOICES, depth: DEPTHS, provider: PROVIDERS };

const OPTIONS = {
  framework: { type: 'string' },
  depth: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'crawler-model': { type: 'string' },
  'generator-model': { type: 'string' },
  'engineer-model': { type: 'string' },
  seed: { type: 'string' },
  temperature: { type: 'string' },
  'max-attempts': { type: 'string' },
  verify: { type: 'boolean' },
  'no-verify': { type: 'boolean' },
  runs: { type: 'string' },
  'test-timeout': { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  risk: { type: 'string', multiple: true },
  reject: { type: 'boolean' },
  note: { type: 'string' },
  record: { type: 'string' },
  out: { type: 'string' },
  pinned: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // endpoint options (generate, resume): server/src/cli/endpointOptions.ts
  timeout: { type: 'string' },
  'max-output-tokens': { type: 'string' },
  header: { type: 'string', multiple: true },
  'price-table': { type: 'string' },
  'no-structured-output': { type: 'boolean' },
  'azure-endpoint': { type: 'string' },
  'azure-deployment': { type: 'string' },
  'azure-api-version': { type: 'string' },
} satisfies ParseArgsConfig['options'];

type Values = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
};

export interface Parsed {
  command: string;
  positionals: string[];
  values: Values;
}

const ENDPOINT: (keyof typeof OPTIONS)[] = ['timeout', 'max-output-tokens', 'header', 'price-table', 'no-structured-output', 'azure-endpoint', 'azure-deployment', 'azure-api-version'];

const ALLOWED: Record<string, (keyof typeof OPTIONS)[]> = {
  generate: ['framework', 'depth', 'provider', 'model', 'crawler-model', 'generator-model', 'engineer-model', 'seed', 'temperature', 'max-attempts', 'verify', 'no-verify', 'runs', 'test-timeout', 'yes', 'risk', 'record', 'json', ...ENDPOINT],
  crawl: ['json'],
  runs: ['json'],
  resume: ['yes', 'risk', 'json', ...ENDPOINT],
  approve: ['reject', 'note', 'json'],
  replay: ['out', 'pinned', 'json'],
  'verify-determinism': ['json'],
  mcp: [],
};
const MAX_POSITIONALS: Record<string, number> = { generate: 1, crawl: 1, runs: 1, resume: 2, approve: 2, replay: 1, 'verify-determinism': 1, mcp: 1 };
const MIN_POSITIONALS: Record<string, number> = { resume: 1, approve: 1, replay: 1, 'verify-determinism': 1 };

/** Parses argv (without node and script). Throws UsageError with a message a person can act on. */
export function parseCli(argv: string[]): Parsed {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') return { command: 'help', positionals: [], values: {} };
  if (!Object.hasOwn(ALLOWED, command)) throw new UsageError(`unknown command "${command}"`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const values = parsed.values as Values;
  if (values.help) return { command: 'help', positionals: [], values: {} };
  for (const key of Object.keys(values) as (keyof typeof OPTIONS)[]) {
    if (!ALLOWED[command].includes(key)) throw new UsageError(`--${key} does not apply to "${command}"`);
  }
  for (const [key, allowed] of Object.entries(ENUMS)) {
    const v = values[key as keyof Values];
    if (typeof v === 'string' && !allowed.includes(v)) throw new UsageError(`--${key} must be one of ${allowed.join(', ')} (got "${v}")`);
  }
  for (const key of ['seed', 'max-attempts'] as const) {
    const v = values[key];
    if (v !== undefined && !/^-?\d+$/.test(v)) throw new UsageError(`--${key} must be an integer (got "${v}")`);
  }
  for (const key of ['runs', 'test-timeout'] as const) {
    const v = values[key];
    if (v !== undefined && (!/^\d+$/.test(v) || Number(v) < 1)) throw new UsageError(`--${key} must be a positive integer (got "${v}")`);
  }
  riskFlags(values.risk); // validates
  if (values.timeout !== undefined && !(Number(values.timeout) > 0)) throw new UsageError(`--timeout must be a positive number of seconds (got "${values.timeout}")`);
  if (values['max-output-tokens'] !== undefined && (!/^\d+$/.test(values['max-output-tokens']) || Number(values['max-output-tokens']) < 1)) throw new UsageError(`--max-output-tokens must be a positive integer (got "${values['max-output-tokens']}")`);
  headerFlags(values.header); // validates
  if (values.verify && values['no-verify']) throw new UsageError('--verify and --no-verify contradict each other');
  if (values.temperature !== undefined && !Number.isFinite(Number(values.temperature))) throw new UsageError(`--temperature must be a number`);
  const n = parsed.positionals.length;
  if (n > MAX_POSITIONALS[command]) throw new UsageError(`"${command}" takes at most ${MAX_POSITIONALS[command]} argument(s), got ${n}`);
  if (n < (MIN_POSITIONALS[command] ?? 0)) throw new UsageError(`"${command}" needs ${command === 'verify-determinism' || command === 'replay' ? 'FILE.jsonl' : 'RUN_ID'}`);
  return { command, positionals: parsed.positionals, values };
}

/** `--risk TOOL=LEVEL` (repeatable): the person's own risk overrides, in either direction. */
export function riskFlags(values: string[] | undefined): RiskOverrides {
  const out: RiskOverrides = {};
  for (const v of values ?? []) {
    const [tool, risk] = v.split('=');
    if (!isToolName(tool)) throw new UsageError(`--risk ${v}: unknown tool "${tool}" (one of ${TOOL_NAMES.join(', ')})`);
    if (!isRisk(risk)) throw new UsageError(`--risk ${v}: the level must be one of ${RISKS.join(', ')}`);
    out[tool] = risk;
  }
  return out;
}

/** `--header 'NAME: VALUE'` (repeatable): extra headers for every model request. */
export function headerFlags(values: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const i = v.indexOf(':');
    const name = i > 0 ? v.slice(0, i).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header must be 'NAME: VALUE' with a valid HTTP header name`); // the value may be a secret: never echoed
    out[name] = v.slice(i + 1).trim();
  }
  return out;
}
