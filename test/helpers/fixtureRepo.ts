import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];

/** Writes `files` (relative path → content) into a fresh temp dir and returns it (removeRepos removes it). */
export async function makeRepo(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `amtp-${name}-`));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fsp.writeFile(path.join(dir, rel), content);
  }
  return dir;
}

/** Removes every folder makeRepo made so far (a test that locked one, chmod 0, has unlocked it). */
export async function removeRepos(): Promise<void> {
  const dirs = made.splice(0);
  await Promise.all(dirs.map((d) => fsp.rm(d, { recursive: true, force: true })));
}
