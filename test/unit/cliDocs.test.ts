// The docs may only show flags the CLI has: every `amtp COMMAND …` in README.md and docs/*.md (code
// blocks and inline code) is checked against that command's entries in the flag table
// (server/src/cli/flags.ts), and a flag quoted on its own must exist for some command.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isCommand } from '../../server/src/cli/commands';
import { FLAGS, FLAG_NAMES, TOP_LEVEL_FLAGS, flagsOf, type FlagSpec } from '../../server/src/cli/flags';

const ROOT = path.resolve(__dirname, '../..');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Flags of other programs that the docs quote on their own (runner invocations, the git calls AMTP makes). */
const OTHER_TOOLS = new Set([
  '--config',
  '--import',
  '--node-option',
  '--branch',
  '--match',
  '--grep',
  '--no-ext-diff',
  '--no-textconv',
  '--ignore-submodules',
  '--no-gpg-sign',
  // c8's (docs/relay-run-d3-array.md), and tap's coverage switches (docs/verifier.md: tap 15–17 and 18+)
  '--all',
  '--no-coverage',
  '--disable-coverage',
  // Node's V8 CPU profile (docs/benchmarks.md)
  '--cpu-prof',
  // mocha 5–7's options in test/mocha.opts (docs/test-cases.md)
  '--opts',
  '--recursive',
  '--extension',
  '--compilers',
]);

interface Invocation {
  file: string;
  command: string;
  flags: string[];
  text: string;
}

/** `amtp CMD …` (also `npx amtp`, `node dist/cli.js`) in code blocks and inline code, up to a shell separator. */
function invocations(file: string, markdown: string): Invocation[] {
  const out: Invocation[] = [];
  const blocks = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1].replace(/\\\n\s*/g, ' '));
  const spans = [...markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  for (const text of [...blocks.flatMap((b) => b.split('\n')), ...spans]) {
    for (const m of text.matchAll(/(?:^|[\s"'(])(?:amtp|dist\/cli\.js)\s+([^\s|;&#)]+)([^|;&#\n]*)/g)) {
      const flags = [...` ${m[2]}`.matchAll(/[\s[(](--?[A-Za-z][\w-]*)/g)].map((f) => f[1]);
      out.push({ file, command: m[1], flags, text: m[0].trim() });
    }
  }
  return out;
}

function loneFlags(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`(--[A-Za-z][\w-]*)[^`]*`/g)].map((m) => m[1]);
}

const short = (name: string) => (FLAGS[name as keyof typeof FLAGS] as FlagSpec).short;

/** What is wrong with these invocations: unknown top-level flags, flags of another command or of none. */
function problems(found: Invocation[]): string[] {
  const wrong: string[] = [];
  for (const inv of found) {
    if (inv.command.startsWith('-')) {
      if (!(TOP_LEVEL_FLAGS as readonly string[]).includes(inv.command))
        wrong.push(`${inv.file}: ${inv.text}: no top-level flag ${inv.command}`);
      continue;
    }
    if (inv.command === 'help' || !isCommand(inv.command)) continue; // prose such as `amtp __proto__` (a bug report) is not an invocation
    const allowed = new Set(flagsOf(inv.command).flatMap((f) => [`--${f}`, ...(short(f) ? [`-${short(f)}`] : [])]));
    for (const flag of inv.flags)
      if (!allowed.has(flag)) wrong.push(`${inv.file}: \`${inv.text}\`: ${flag} is not a flag of "${inv.command}"`);
  }
  return wrong;
}

describe('docs show only flags the CLI has', () => {
  const found = DOCS.flatMap((f) => invocations(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));

  it('finds the invocations it checks (the scan works)', () => {
    assert.ok(found.length > 20, `${found.length} invocations`);
    assert.deepEqual(
      invocations('x.md', 'run `amtp generate . --yes --commit` or\n```sh\nnpx amtp resume r_1 \\\n  --json | jq .\n```\n').map((i) => [
        i.command,
        i.flags,
      ]),
      [
        ['resume', ['--json']],
        ['generate', ['--yes', '--commit']],
      ],
    );
  });

  it("every amtp COMMAND in the docs uses only that command's flags", () => {
    assert.deepEqual(problems(found), []);
  });

  it("a flag quoted on its own exists for some command (or is another tool's, listed here)", () => {
    const all = new Set([...FLAG_NAMES.map((f) => `--${f}`), ...TOP_LEVEL_FLAGS]);
    const wrong = DOCS.flatMap((f) =>
      loneFlags(fs.readFileSync(path.join(ROOT, f), 'utf8'))
        .filter((x) => !all.has(x) && !OTHER_TOOLS.has(x))
        .map((x) => `${f}: ${x}`),
    );
    assert.deepEqual(wrong, []);
  });

  it('catches a documented flag that does not exist, or that belongs to another command', () => {
    const md =
      '```yaml\n      - run: npx amtp generate . --yes --changes-since origin/main\n```\nthen `amtp runs --reject` and `amtp --versions`\n';
    assert.deepEqual(problems(invocations('x.md', md)), [
      'x.md: `amtp generate . --yes --changes-since origin/main`: --changes-since is not a flag of "generate"',
      'x.md: `amtp runs --reject`: --reject is not a flag of "runs"',
      'x.md: amtp --versions: no top-level flag --versions',
    ]);
  });
});
