import { spawn } from 'node:child_process';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '../../dist/cli.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a child process, with no TTY (stdin closed), as CI does; optionally as another user. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd?: string,
  ids?: { uid: number; gid: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: {
        ...process.env,
        OPENAI_API_KEY: undefined,
        OPENAI_BASE_URL: undefined,
        AMTP_PROVIDER: undefined,
        AMTP_CRASH_AT: undefined,
        AZURE_OPENAI_API_KEY: undefined,
        AZURE_OPENAI_ENDPOINT: undefined,
        AZURE_OPENAI_DEPLOYMENT: undefined,
        OPENAI_API_VERSION: undefined,
        AMTP_HEADERS: undefined,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(ids ?? {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
