// A branch name from the engineer's PR metadata. The contract already limits it to [A-Za-z0-9._/-],
// but git's rules (git-check-ref-format) go further: no `..`, no component starting with `.` or
// ending with `.lock`, no trailing `.` or `/`. This makes a clean candidate; git has the last word.
import { git } from './git';

const FALLBACK = 'amtp/tests';

/** A best-effort clean branch name (not yet checked by git). */
export function cleanBranchName(raw: string): string {
  const parts = raw
    .replace(/[^A-Za-z0-9._/-]+/g, '-')
    .split('/')
    .map((c) =>
      c
        .replace(/\.{2,}/g, '.')
        .replace(/^[.-]+/, '')
        .replace(/(\.lock)+$/i, '')
        .replace(/\.+$/, ''),
    )
    .filter((c) => c.length > 0);
  const name = parts
    .join('/')
    .slice(0, 120)
    .replace(/[/.]+$/, '');
  return name || FALLBACK;
}

/** `git check-ref-format --branch`: the name git itself accepts for a new branch, or undefined. */
export async function checkedBranchName(cwd: string, name: string): Promise<string | undefined> {
  const r = await git(['check-ref-format', '--branch', name], { cwd, okCodes: [1, 128] });
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** Who holds a branch name: nobody, this run (a crash after creating it), or someone else. */
export type BranchOwner = 'free' | 'this-run' | 'other';

/**
 * The name for this run's branch: the engineer's, cleaned. If a branch of that name exists and is
 * not this run's, the run id is appended, so no existing branch is ever moved.
 */
export async function branchNameFor(
  cwd: string,
  raw: string,
  runId: string,
  owner: (name: string) => Promise<BranchOwner>,
): Promise<{ name: string; exists: boolean }> {
  const base = (await checkedBranchName(cwd, cleanBranchName(raw))) ?? FALLBACK;
  const suffixed = `${base}-${runId.replace(/^r_/, '')}`;
  for (const name of [base, suffixed]) {
    const who = await owner(name);
    if (who !== 'other') return { name, exists: who === 'this-run' };
  }
  throw new Error(`branches ${base} and ${suffixed} both exist already; delete or rename one, then resume the run`);
}
