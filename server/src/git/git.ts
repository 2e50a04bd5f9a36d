// `git` through child_process with argument arrays: no shell ever parses a branch name, a path or a
// commit message, so nothing the model wrote can become a command.
import { spawn } from 'node:child_process';

/** git exited non-zero, or could not start; the message carries git's own words. */
export class GitError extends Error {
  readonly kind = 'GitError';
}

export interface GitCall {
  cwd: string;
  /** added to the inherited environment (e.g. GIT_INDEX_FILE for a private index) */
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

export function git(args: string[], call: GitCall): Promise<GitResult> {
  const ok = new Set([0, ...(call.okCodes ?? [])]);
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: call.cwd, env: { ...process.env, ...call.env }, stdio: ['pipe', 'pipe', 'pipe'] });
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
