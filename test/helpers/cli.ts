import { spawn } from 'node:child_process';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '../../dist/cli.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI as a child process, with no TTY (stdin closed), as CI does; optionally as another
 * user, and killed (SIGKILL) after `timeout` ms (a run that would never end shows as that signal).
 */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd?: string,
  opts?: { uid?: number; gid?: number; timeout?: number },
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
      ...(opts ?? {}),
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
