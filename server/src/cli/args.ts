// Parses argv with node:util parseArgs (strict), then applies the flag table: which command a flag
// applies to, and whether its value is acceptable. Errors are UsageErrors a person can act on.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors';
import { RISKS, TOOL_NAMES, isRisk, isToolName } from '../core/risk';
import type { RiskOverrides } from '../gateway/policy';
import { COMMANDS, isCommand, type CommandName } from './commands';
import { FLAGS, FLAG_NAMES, type FlagName, type FlagSpec, type FlagValues } from './flags';

export type Parsed =
  | { command: 'help'; topic?: CommandName; positionals: string[]; values: FlagValues }
  | { command: 'version'; positionals: string[]; values: FlagValues }
  | { command: CommandName; positionals: string[]; values: FlagValues };

const OPTIONS = Object.fromEntries(
  FLAG_NAMES.map((name) => {
    const f: FlagSpec = FLAGS[name];
    return [name, { type: f.type, ...(f.multiple ? { multiple: true } : {}), ...(f.short ? { short: f.short } : {}) }];
  }),
) as NonNullable<ParseArgsConfig['options']>;

const help = (topic?: CommandName): Parsed => ({ command: 'help', topic, positionals: [], values: {} });

/** Parses argv (without node and script). Throws UsageError with a message a person can act on. */
export function parseCli(argv: string[]): Parsed {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-V') {
    if (rest.length) throw new UsageError(`--version takes nothing after it (got "${rest[0]}")`);
    return { command: 'version', positionals: [], values: {} };
  }
  if (first === undefined || first === '--help' || first === '-h') return help();
  if (first === 'help') return help(helpTopic(rest));
  if (!isCommand(first))
    throw new UsageError(`unknown command "${first}" (one of ${Object.keys(COMMANDS).join(', ')}; amtp --help lists them)`);
  const command = first;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${(e as Error).message} (amtp help ${command} lists its flags)`);
  }
  const values = parsed.values as FlagValues;
  if (values.help) return help(command);
  checkFlags(command, values);
  const n = parsed.positionals.length;
  const spec = COMMANDS[command];
  if (n > spec.max) throw new UsageError(`"${command}" takes at most ${spec.max} argument(s) (${spec.args}), got ${n}`);
  if (n < spec.min) throw new UsageError(`"${command}" needs ${spec.args.split(' ')[0]}`);
  return { command, positionals: parsed.positionals, values };
}

function helpTopic(rest: string[]): CommandName | undefined {
  if (rest.length > 1) throw new UsageError(`help takes one command, got ${rest.length}`);
  const topic = rest[0];
  if (topic === undefined) return undefined;
  if (!isCommand(topic)) throw new UsageError(`no command "${topic}" (one of ${Object.keys(COMMANDS).join(', ')})`);
  return topic;
}

function checkFlags(command: CommandName, values: FlagValues): void {
  for (const key of Object.keys(values) as FlagName[]) {
    const f: FlagSpec = FLAGS[key];
    if (!f.commands.includes(command))
      throw new UsageError(`--${key} does not apply to "${command}" (amtp help ${command} lists its flags)`);
    const v = values[key];
    for (const one of typeof v === 'string' ? [v] : Array.isArray(v) ? v : []) {
      const why = f.check?.(one);
      if (why) throw new UsageError(`--${key} ${why}`);
    }
    if (f.conflicts && values[f.conflicts as FlagName] !== undefined)
      throw new UsageError(`--${key} and --${f.conflicts} contradict each other`);
  }
  riskFlags(values.risk); // validates
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
