// What every child AMTP starts to run workspace code shares (the search child, server/src/search/child.ts,
// and the Python characterization child, server/src/characterize/python/sandbox.ts): an environment
// with no secrets, the harness assets' location, and killing a child's whole process group.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Names of env variables that are never passed to code AMTP runs (keys, tokens, passwords, cloud creds). */
const SECRET_NAME =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|SESSION|COOKIE|PRIVATE|^AWS_|^AZURE_|^GCP_|^GOOGLE_|^OPENAI|^ANTHROPIC|^NPM_CONFIG_|^GH_|^GITHUB_/i;
/** Only these survive at all: enough for node to run, nothing that identifies the user. */
const KEPT = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SYSTEMROOT'];

export function scrubbedEnv(source: NodeJS.ProcessEnv, home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of KEPT) {
    const v = source[k];
    if (v !== undefined && !SECRET_NAME.test(k)) env[k] = v;
  }
  return { ...env, HOME: home, USERPROFILE: home, TMPDIR: home, TZ: 'UTC', FORCE_COLOR: '0', NO_COLOR: '1' };
}

export function assetPath(name: string): string {
  // From source the assets sit in ../frameworks/assets; in the bundles esbuild.mjs copies them to dist/assets.
  const fromSource = join(__dirname, '..', 'frameworks', 'assets', name);
  return existsSync(fromSource) ? fromSource : join(__dirname, 'assets', name);
}

/** Kills the child's whole process group (it was started detached, so it leads one). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* the group is already gone */
  }
}
