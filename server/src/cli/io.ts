// What every command shares and nothing heavy: the error line and the workspace argument.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../core/errors';

export const err = (line: string) => process.stderr.write(line + '\n');

export async function workspaceArg(dir: string | undefined): Promise<string> {
  const ws = path.resolve(dir ?? process.cwd());
  const st = await fsp.stat(ws).catch(() => undefined);
  if (!st?.isDirectory()) throw new UsageError(`not a directory: ${ws}`);
  return ws;
}
