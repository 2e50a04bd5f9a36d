// `git` through child_process with argument arrays: no shell ever parses a branch name, a path or a
// commit message, so nothing the model wrote can become a command.
//
// And git itself runs nothing the repository controls: a repository's config and hooks are workspace
// code, and git runs before any approval (`--changed-since`, the MCP tool's `changedSince`). Every
// call switches off, over any config file (docs/security.md, "git"):
// - hooks: core.hooksPath is a folder that cannot exist, and hooks declared in config are disabled;
// - core.fsmonitor, which git runs as a command on diff, status and ls-files;
// - filter drivers (clean/smudge/process) the config names, which diff runs on working-tree files;
// - external diff and textconv drivers (diff.external, diff.<driver>.command and .textconv): every
//   `git diff` gets --no-ext-diff --no-textconv (an empty diff.external would make diff fail instead);
// - the pager, core.sshCommand, credential helpers, any transport (protocol.allow=never), commit signing.
// The child gets no secret and a temporary HOME (util/childEnv.ts); the person's own global config
// is still read (their name and e-mail), through an include in that temporary HOME.
import { spawn } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { childEnv } from '../util/childEnv';

/** git exited non-zero, or could not start; the message carries git's own words. */
export class GitError extends Error {
  readonly kind = 'GitError';
}

export interface GitCall {
  cwd: string;
  /** added to the child's environment (e.g. GIT_INDEX_FILE for a private index) */
  env?: Record<string, string>;
  /** bytes for stdin */
  input?: string | Buffer;
  /** exit codes that are answers, not failures (e.g. 1 from `check-ignore` or `show-ref`) */
  okCodes?: number[];
}

export interface GitResult {
  code: number;
  stdout: string;
}

/** A folder that can never exist (a path below a file), so git finds no hook in it. */
const NO_HOOKS = process.platform === 'win32' ? path.join(os.tmpdir(), 'amtp-no-hooks', 'NUL', 'none') : '/dev/null/amtp-no-hooks';

/** Overrides on every call; `-c` beats every config file, the repository's included. */
const SAFE_CONFIG = [
  `core.hooksPath=${NO_HOOKS}`,
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.sshCommand=',
  'core.askPass=',
  'credential.helper=',
  'protocol.allow=never',
  'commit.gpgSign=false',
  // the hook events the commands AMTP runs can fire, for git versions that also take hooks from config
  'hook.reference-transaction.enabled=false',
  'hook.post-index-change.enabled=false',
];

/** The person's identity for the one commit AMTP makes, when they give it through the environment. */
const IDENTITY = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'EMAIL'];

const ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_NO_LAZY_FETCH: '1', GIT_OPTIONAL_LOCKS: '0' };

export async function git(args: string[], call: GitCall): Promise<GitResult> {
  const home = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-git-'));
  try {
    await fsp.writeFile(path.join(home, '.gitconfig'), personalConfig());
    const env = { ...ENV, ...call.env };
    const named = await run(
      ['config', '--show-scope', '--name-only', '--get-regexp', '^(filter|hook)\\.'],
      { ...call, env, input: '', okCodes: [1] },
      home,
    );
    const [sub, ...rest] = args;
    const own = sub === 'diff' ? ['--no-ext-diff', '--no-textconv'] : [];
    return await run([sub, ...own, ...rest], { ...call, env }, home, driverOverrides(named.stdout));
  } finally {
    await fsp.rm(home, { recursive: true, force: true });
  }
}

/**
 * `-c` switches for the filter drivers and config-declared hooks the config files name (`scope\tkey`
 * lines; their names are the config's, so they cannot be listed up front). A name git's `-c` cannot
 * express is refused.
 */
export function driverOverrides(listing: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of listing.split('\n').filter(Boolean)) {
    const [scope, key = ''] = line.split('\t');
    if (scope === 'command') continue; // AMTP's own -c switches
    const m = /^(filter|hook)\.(.+)\.[^.]+$/s.exec(key);
    if (!m || seen.has(`${m[1]}.${m[2]}`)) continue;
    seen.add(`${m[1]}.${m[2]}`);
    if (/[=\n]/.test(m[2])) throw new GitError(`the git config names a ${m[1]} "${m[2]}" that AMTP cannot switch off; rename it`);
    const keys = m[1] === 'filter' ? ['clean=', 'smudge=', 'process=', 'required=false'] : ['enabled=false', 'command=true'];
    for (const k of keys) out.push('-c', `${m[1]}.${m[2]}.${k}`);
  }
  return out;
}

/** The temporary HOME's .gitconfig: the person's global config files, included by absolute path. */
function personalConfig(): string {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const files = process.env.GIT_CONFIG_GLOBAL
    ? [process.env.GIT_CONFIG_GLOBAL]
    : [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')];
  const quote = (p: string) => `"${p.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return ['[include]', ...files.filter((f) => existsSync(f)).map((f) => `\tpath = ${quote(f)}`), ''].join('\n');
}

function run(args: string[], call: GitCall, home: string, overrides: string[] = []): Promise<GitResult> {
  const ok = new Set([0, ...(call.okCodes ?? [])]);
  const argv = [...SAFE_CONFIG.flatMap((c) => ['-c', c]), ...overrides, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn('git', argv, {
      cwd: call.cwd,
      env: childEnv({ home, set: call.env, keep: IDENTITY }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(new GitError(e.code === 'ENOENT' ? 'git is not installed (or not on PATH)' : `git ${args[0]}: ${e.message}`)),
    );
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code !== null && ok.has(code)) return resolve({ code, stdout });
      const why = Buffer.concat(err).toString('utf8').trim() || stdout.trim() || `exit code ${code}`;
      reject(new GitError(`git ${args[0]} failed: ${why}`));
    });
    // A child that exits before reading stdin must not crash us with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(call.input ?? '');
  });
}
