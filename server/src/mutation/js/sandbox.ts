// The mutation sandbox of a JavaScript/TypeScript workspace: a copy of it under .amtp/mutation/
// (git-ignored with the rest of .amtp/), where the modules under test are replaced by their
// instrumented text and the test files by their mutant drivers. The person's files are never
// changed. It sits inside the workspace so that everything resolves as it does there: node_modules
// folders are linked, not copied, and packages hoisted above the workspace are found through the
// parent folders. A crash can leave one behind: the next mutation run removes sandboxes whose
// process is gone.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/** Folders never copied: version control, AMTP's own state, coverage output, Python environments. */
const SKIPPED = new Set([
  '.git',
  '.hg',
  '.svn',
  '.amtp',
  '.stryker-tmp',
  'coverage',
  '.nyc_output',
  '.venv',
  'venv',
  '__pycache__',
  '.cache',
]);
/** Beyond this many files the workspace is too large to copy for one mutation run. */
const MAX_SANDBOX_FILES = 20_000;

export interface Sandbox {
  root: string;
  /** files copied (node_modules folders linked, not counted) */
  files: number;
  write(rel: string, text: string): void;
  remove(): void;
}

function sandboxParent(workspace: string): string {
  return join(workspace, '.amtp', 'mutation');
}

/** Copies the workspace into a new sandbox; throws when it is larger than MAX_SANDBOX_FILES files. */
export function createSandbox(workspace: string): Sandbox {
  const parent = sandboxParent(workspace);
  mkdirSync(parent, { recursive: true });
  removeStale(parent);
  const root = mkdtempSync(join(parent, 'sandbox-'));
  writeFileSync(join(root, '.amtp-owner'), String(process.pid));
  let files: number;
  try {
    files = copyTree(workspace, root, '');
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  return {
    root,
    files,
    write(rel, text) {
      const path = join(root, rel);
      // Unlinked first: a file that was a link must not write through to the workspace.
      if (existsSync(path)) unlinkSync(path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

function copyTree(from: string, to: string, rel: string, count = { n: 0 }): number {
  for (const e of readdirSync(join(from, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    const src = join(from, child);
    const dst = join(to, child);
    if (e.isSymbolicLink()) {
      symlinkSync(readlinkSync(src), dst);
    } else if (e.isDirectory()) {
      if (SKIPPED.has(e.name)) continue;
      if (e.name === 'node_modules') symlinkSync(src, dst, 'dir');
      else {
        mkdirSync(dst);
        copyTree(from, to, child, count);
      }
    } else if (e.isFile()) {
      if (++count.n > MAX_SANDBOX_FILES)
        throw new Error(`the workspace has more than ${MAX_SANDBOX_FILES} files to copy into a mutation sandbox`);
      copyFileSync(src, dst);
    }
  }
  return count.n;
}

/** Sandboxes left by a process that is gone (a crash, a kill) are removed; a live one's are kept. */
function removeStale(parent: string): void {
  for (const name of readdirSync(parent)) {
    const dir = join(parent, name);
    if (!name.startsWith('sandbox-') || !lstatSync(dir).isDirectory()) continue;
    const owner = Number(existsSync(join(dir, '.amtp-owner')) ? readFileSync(join(dir, '.amtp-owner'), 'utf8') : NaN);
    if (!Number.isInteger(owner) || !alive(owner)) rmSync(dir, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
