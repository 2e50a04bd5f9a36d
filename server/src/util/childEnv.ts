// The one environment of every child process AMTP starts: test runners and their coverage runs,
// characterization sandboxes, Python probes, git, the determinism replays. It is an allow-list, so
// the API key, header values (AMTP_HEADERS), tokens and cloud credentials never reach code AMTP runs,
// and HOME, TMPDIR and the XDG folders point into a private temporary folder instead of the person's
// own (docs/security.md, "Child processes"). test/unit/childEnv.test.ts checks that every spawn in
// server/src takes its env from here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Names of variables that are never passed on, even when AMTP itself is asked to set them. */
const SECRET_NAME =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH(?!OR)|SESSION|COOKIE|PRIVATE|HEADER|^AWS_|^AZURE_|^GCP_|^GOOGLE_|^OPENAI|^ANTHROPIC|^NPM_CONFIG_|^GH_|^GITHUB_/i;

/** What a program needs to start and to read text as the person does; nothing that identifies them. */
const KEPT = /^(PATH|LANG|LANGUAGE|LC_[A-Z]+|TZ|CI|PYENV_VERSION|SYSTEMROOT|WINDIR|COMSPEC|PATHEXT)$/i;

/** Set here from `home`; nobody else may point them elsewhere (a model's run command included). */
const MANAGED = /^(HOME|USERPROFILE|TMPDIR|TMP|TEMP|XDG_[A-Z_]+)$/i;

export interface ChildEnvOptions {
  /** a private folder the caller created (and removes): HOME, TMPDIR and the XDG folders point into it */
  home: string;
  /**
   * Variables AMTP sets for this child (coverage output, NODE_OPTIONS, a private git index, the
   * `NAME=value` pairs of the test command). A name that looks like a secret or that would move
   * HOME or TMPDIR is dropped.
   */
  set?: Record<string, string | undefined>;
  /** more names taken from AMTP's own environment when present (git's author identity) */
  keep?: readonly string[];
}

export function childEnv(opts: ChildEnvOptions, source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  const keep = new Set(opts.keep ?? []);
  for (const [k, v] of Object.entries(source)) {
    if (v !== undefined && (KEPT.test(k) || keep.has(k)) && !SECRET_NAME.test(k)) env[k] = v;
  }
  for (const [k, v] of Object.entries(opts.set ?? {})) {
    if (v !== undefined && !SECRET_NAME.test(k) && !MANAGED.test(k)) env[k] = v;
  }
  const h = opts.home;
  return {
    ...env,
    HOME: h,
    USERPROFILE: h,
    TMPDIR: h,
    TMP: h,
    TEMP: h,
    XDG_CONFIG_HOME: join(h, '.config'),
    XDG_CACHE_HOME: join(h, '.cache'),
    XDG_DATA_HOME: join(h, '.local', 'share'),
    XDG_STATE_HOME: join(h, '.local', 'state'),
  };
}

/** Calls `fn` with a fresh private folder (a child's HOME and cwd) and removes it afterwards. */
export function inTempHome<T>(fn: (home: string) => T): T {
  const home = mkdtempSync(join(tmpdir(), 'amtp-home-'));
  try {
    return fn(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
