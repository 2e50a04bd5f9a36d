import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Writes `files` (relative path → content) into a fresh temp dir and returns it. */
export async function makeRepo(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `amtp-${name}-`));
  for (const [rel, content] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fsp.writeFile(path.join(dir, rel), content);
  }
  return dir;
}
