// `amtp --help`, `amtp help COMMAND` / `amtp COMMAND --help` and `amtp --version`, all from the
// command and flag tables, so help can never list a flag the parser does not know (or miss one).
import { version } from '../../../package.json';
import { COMMANDS, COMMAND_NAMES, type CommandName } from './commands';
import { FLAGS, flagsOf, type FlagSpec } from './flags';

export const VERSION: string = version;

const EXIT_CODES =
  'Exit codes: 0 completed, 2 bad usage, 3 needs_review, 4 failed / cancelled / awaiting approval, 5 coverage below --min-coverage, 6 mutation score below --min-mutation-score, 7 awaiting input (kept tests below --confidence-threshold wait for amtp review), 130 interrupted (Ctrl-C).';
const ENVIRONMENT = [
  'Environment: OPENAI_API_KEY, OPENAI_BASE_URL, AMTP_PROVIDER, AMTP_MODEL (per agent: AMTP_CRAWLER_MODEL,',
  '  AMTP_GENERATOR_MODEL, AMTP_ENGINEER_MODEL), AZURE_OPENAI_API_KEY, AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_DEPLOYMENT,',
  '  AZURE_OPENAI_API_VERSION (or OPENAI_API_VERSION), AMTP_HEADERS (a JSON object), AMTP_TIMEOUT_SECONDS,',
  '  AMTP_DEADLINE_SECONDS, AMTP_MAX_OUTPUT_TOKENS, AMTP_PRICE_TABLE, AMTP_STRUCTURED_OUTPUT=0. See docs/configuration.md.',
].join('\n');

export function usage(): string {
  const width = Math.max(...COMMAND_NAMES.map((c) => `amtp ${c} ${COMMANDS[c].args}`.length)) + 2;
  return [
    `amtp ${VERSION} — turns a workspace into a reviewed, runnable test suite`,
    '',
    ...COMMAND_NAMES.map((c) => `  ${`amtp ${c} ${COMMANDS[c].args}`.padEnd(width)}${COMMANDS[c].summary}`),
    `  ${'amtp help COMMAND'.padEnd(width)}a command's flags (also: amtp COMMAND --help)`,
    `  ${'amtp --version'.padEnd(width)}the version`,
    '',
    ENVIRONMENT,
    EXIT_CODES,
  ].join('\n');
}

export function commandHelp(command: CommandName): string {
  const spec = COMMANDS[command];
  const rows = flagsOf(command).map((name) => {
    const f: FlagSpec = FLAGS[name];
    const left = `${f.short ? `-${f.short}, ` : ''}--${name}${f.value ? ` ${f.value}` : ''}${f.multiple ? ' ...' : ''}`;
    return [left, f.help] as const;
  });
  const width = 30;
  const lines = [
    `amtp ${command} ${spec.args}${rows.length ? ' [flags]' : ''}`,
    '',
    `  ${spec.summary[0].toUpperCase()}${spec.summary.slice(1)}.`,
  ];
  if ('details' in spec) lines.push('', ...spec.details.split('\n').map((l) => `  ${l}`));
  lines.push('', 'Flags:');
  for (const [left, text] of rows) {
    const wrapped = wrap(text, 100 - width);
    if (left.length + 4 <= width)
      lines.push(`  ${left.padEnd(width - 2)}${wrapped[0]}`, ...wrapped.slice(1).map((l) => ' '.repeat(width) + l));
    else lines.push(`  ${left}`, ...wrapped.map((l) => ' '.repeat(width) + l));
  }
  lines.push('', command === 'generate' || command === 'mcp' ? ENVIRONMENT : '', EXIT_CODES);
  return lines.filter((l, i, all) => !(l === '' && all[i - 1] === '')).join('\n');
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...out, line];
}
