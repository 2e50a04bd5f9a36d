// mocha before 8 reads more command-line words from `./test/mocha.opts` (or the file `--opts FILE`
// names) and puts them before the command's own: spec folders and globs, `--recursive`,
// `--require`, `--ui`. mocha 8 dropped the file (an `--opts` there is an error), so it counts only
// when the project's mocha is older, or its version is not known. Read as data, never run; the
// reader is the crawler's (repo.read_file: bounded size, no named pipe, no binary file).

/** The words of an opts file, split the way mocha 5–7 split them (lib/cli/options.js `parseMochaOpts`). */
export function parseMochaOpts(text: string): string[] {
  // Only a `#` in the first column starts a comment; `\ ` keeps a space inside a word.
  return text
    .replace(/^#.*$/gm, '')
    .replace(/\\\s/g, '%20')
    .split(/\s/)
    .filter(Boolean)
    .map((w) => w.replace(/%20/g, ' '));
}

/** mocha's own default opts file, relative to the folder it runs in. */
const DEFAULT_OPTS = 'test/mocha.opts';
/** More words than any real opts file has: the rest of a long file is not read as options. */
const MAX_WORDS = 2000;

export interface MochaOptsInput {
  pkg: Record<string, unknown>;
  files: ReadonlySet<string>;
  read: (path: string) => Promise<string | undefined>;
}

/**
 * The opts file the mocha command reads and its words; undefined when it reads none: mocha 8 or
 * later in package.json, no such file listed in the workspace, or one the reader refused.
 */
export async function mochaOpts(inp: MochaOptsInput, args: readonly string[]): Promise<{ file: string; words: string[] } | undefined> {
  const major = declaredMajor(inp.pkg, 'mocha');
  if (major !== undefined && major >= 8) return undefined;
  const at = args.indexOf('--opts');
  const named = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith('--opts='))?.slice(7);
  const file = (named ?? DEFAULT_OPTS).replace(/^\.\//, '');
  if (!inp.files.has(file)) return undefined;
  const text = await inp.read(file);
  return text === undefined ? undefined : { file, words: parseMochaOpts(text).slice(0, MAX_WORDS) };
}

/** The major version a package.json range asks for (`^5.2.0`, `~6.1`, `7.x`, `5`); undefined for any other range. */
export function declaredMajor(pkg: Record<string, unknown>, name: string): number | undefined {
  for (const key of ['devDependencies', 'dependencies']) {
    const deps = pkg[key];
    const range = deps && typeof deps === 'object' ? (deps as Record<string, unknown>)[name] : undefined;
    const m = typeof range === 'string' ? /^\s*[\^~=v]*\s*(\d+)(?:[.\s]|$)/.exec(range) : null;
    if (m) return Number(m[1]);
  }
  return undefined;
}
