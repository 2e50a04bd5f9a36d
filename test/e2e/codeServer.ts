// Starts code-server (a real VS Code, Node extension host) and headless Debian Chromium for the
// e2e layers. Facts behind the flags: /work/shared/E2E.md.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { STATE_DEADLINE_MS, until } from './deadlines';

export const ROOT = path.resolve(__dirname, '..', '..');
export const OUT = path.join(ROOT, 'test-output', 'e2e');
/** the extension under test: this repo (its dist/ must be built), or another build of it */
const EXTENSION = path.resolve(process.env.AMTP_EXTENSION_PATH ?? ROOT);
const CODE_SERVER_VERSION = process.env.AMTP_CODE_SERVER_VERSION ?? '4.100.3';
const CHROMIUM = process.env.AMTP_CHROMIUM ?? '/usr/bin/chromium';
/** Scratch space of this process. Not os.tmpdir(): on shared machines /tmp gets swept under running tests. */
export const SCRATCH = path.join(
  process.env.AMTP_E2E_CACHE ?? path.join(os.homedir(), '.cache', 'amtp-e2e'),
  'scratch',
  String(process.pid),
);
fs.mkdirSync(SCRATCH, { recursive: true });
process.on('exit', () => fs.rmSync(SCRATCH, { recursive: true, force: true }));

export function codeServerBin(): string {
  const bin =
    process.env.AMTP_CODE_SERVER ??
    path.join(os.homedir(), '.cache', 'amtp-e2e', `code-server-${CODE_SERVER_VERSION}`, 'node_modules', '.bin', 'code-server');
  // A missing tool is a failure, not a skip: CI installs it (scripts/e2e/install-code-server.sh).
  if (!fs.existsSync(bin))
    throw new Error(`code-server not found at ${bin}: run scripts/e2e/install-code-server.sh (or set AMTP_CODE_SERVER)`);
  return bin;
}

/** A fresh copy of examples/sample-lib in a temp dir. */
export function sampleWorkspace(name: string): string {
  const ws = fs.mkdtempSync(path.join(SCRATCH, `amtp-${name}-`));
  fs.cpSync(path.join(ROOT, 'examples', 'sample-lib'), ws, { recursive: true });
  return ws;
}

/** The two folders of the multi-root layer: copies of examples/sample-lib, the second renamed so the two are told apart. */
export const MULTI_ROOT_FOLDERS = ['lib-a', 'lib-b'] as const;

/**
 * A multi-root workspace in a temp dir: two copies of examples/sample-lib (lib-a; lib-b, whose
 * package is "other-lib") and the .code-workspace file naming both. Returns the workspace file.
 */
export function multiRootWorkspace(name: string): string {
  const dir = fs.mkdtempSync(path.join(SCRATCH, `amtp-${name}-`));
  for (const folder of MULTI_ROOT_FOLDERS)
    fs.cpSync(path.join(ROOT, 'examples', 'sample-lib'), path.join(dir, folder), { recursive: true });
  const pkg = path.join(dir, MULTI_ROOT_FOLDERS[1], 'package.json');
  fs.writeFileSync(pkg, fs.readFileSync(pkg, 'utf8').replace('"name": "sample-lib"', '"name": "other-lib"'));
  const file = path.join(dir, 'two.code-workspace');
  fs.writeFileSync(file, JSON.stringify({ folders: MULTI_ROOT_FOLDERS.map((f) => ({ path: f })) }, null, 2));
  return file;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface CodeServer {
  port: number;
  base: string;
  /** the workbench URL that opens `folder` (or a .code-workspace file) with our extension under development (and tests, if given) */
  workbenchUrl(folder: string, extensionTestsPath?: string): string;
  stop(): Promise<void>;
  log(): string;
  /**
   * Copies code-server's log and the extension host's logs (the AMTP output channel holds the
   * client's lines and the language server's stderr) to OUT/<prefix>-*.log; returns the paths.
   */
  saveLogs(prefix: string): string[];
}

/** Log files under `dir`, found by name (the dated folder names differ per run). */
function logFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.log') && /^(.*AMTP|remoteexthost|remoteagent)\.log$/i.test(path.basename(f)))
    .map((f) => path.join(dir, f));
}

/** Removes what an earlier run of layer `prefix` left in OUT (screenshots, logs, report). */
export function freshOutput(prefix: string): void {
  fs.mkdirSync(OUT, { recursive: true });
  for (const f of fs.readdirSync(OUT))
    if (f.startsWith(`${prefix}-`) || f.startsWith(`${prefix}.`)) fs.rmSync(path.join(OUT, f), { force: true });
}

/** The last `n` lines of a text. */
export const tail = (text: string, n = 60): string => text.split('\n').slice(-n).join('\n');

export interface CodeServerOptions {
  /** environment for code-server and the extension host it starts */
  env?: Record<string, string>;
  /**
   * The person's own settings, written to User/settings.json. code-server honours machine-scoped
   * keys there (amtp.provider, amtp.baseURL, amtp.riskOverrides); a workspace's own
   * .vscode/settings.json cannot set them.
   */
  userSettings?: Record<string, unknown>;
}

export async function startCodeServer(name: string, options: CodeServerOptions = {}): Promise<CodeServer> {
  const { env = {}, userSettings = {} } = options;
  const bin = codeServerBin();
  const home = fs.mkdtempSync(path.join(SCRATCH, `amtp-cs-${name}-`));
  const dirs = {
    user: path.join(home, 'user'),
    ext: path.join(home, 'ext'),
    config: path.join(home, 'config'),
    data: path.join(home, 'data'),
    tmp: path.join(home, 'tmp'),
  };
  Object.values(dirs).forEach((d) => fs.mkdirSync(d, { recursive: true }));
  const quiet = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
  };
  fs.mkdirSync(path.join(dirs.user, 'User'), { recursive: true });
  fs.writeFileSync(path.join(dirs.user, 'User', 'settings.json'), JSON.stringify({ ...quiet, ...userSettings }, null, 2));
  const logFile = path.join(home, 'code-server.log');
  let launched: { child: ChildProcess; port: number } | undefined;
  // The free port can be taken by another process before code-server binds it (a shared machine):
  // then code-server exits with EADDRINUSE and is started again on another port.
  for (let attempt = 1; !launched; attempt++) {
    const port = await freePort();
    const child = spawnCodeServer(bin, port, dirs, logFile, {
      ...process.env,
      XDG_CONFIG_HOME: dirs.config,
      XDG_DATA_HOME: dirs.data,
      TMPDIR: dirs.tmp,
      ...env,
    });
    const up = await until('code-server to answer /healthz', async () => {
      if (child.exitCode !== null) return 'exited';
      return fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => r.ok && 'up',
        () => false,
      ); // refused: not listening yet
    }).catch((e: Error) => {
      killGroup(child, 'SIGKILL');
      throw new Error(`${e.message}\n${tail(fs.readFileSync(logFile, 'utf8'))}`);
    });
    if (up === 'up') launched = { child, port };
    else if (attempt >= 3 || !/EADDRINUSE/.test(fs.readFileSync(logFile, 'utf8')))
      throw new Error(`code-server exited with ${child.exitCode}:\n${tail(fs.readFileSync(logFile, 'utf8'))}`);
  }
  const { child, port } = launched;
  const base = `http://127.0.0.1:${port}`;
  const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${p}`;
  return {
    port,
    base,
    workbenchUrl(folder, extensionTestsPath) {
      const payload: [string, string][] = [['extensionDevelopmentPath', remote(EXTENSION)]];
      if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
      const open = folder.endsWith('.code-workspace') ? 'workspace' : 'folder';
      return `${base}/?${open}=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    log: () => fs.readFileSync(logFile, 'utf8'),
    saveLogs(prefix) {
      fs.mkdirSync(OUT, { recursive: true });
      const saved: string[] = [];
      for (const src of [logFile, ...logFiles(dirs.user)]) {
        const dest = path.join(OUT, `${prefix}-${path.relative(home, src).replace(/[\\/]+/g, '_')}`);
        try {
          fs.copyFileSync(src, dest);
          saved.push(dest);
        } catch {
          /* a log that vanished with its process */
        }
      }
      return saved;
    },
    async stop() {
      killGroup(child, 'SIGTERM');
      const gone = await Promise.race([
        new Promise((r) => child.once('exit', () => r(true))),
        new Promise((r) => setTimeout(() => r(false), 3000)),
      ]);
      if (!gone || child.exitCode === null) killGroup(child, 'SIGKILL');
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

function spawnCodeServer(
  bin: string,
  port: number,
  dirs: { user: string; ext: string },
  logFile: string,
  env: NodeJS.ProcessEnv,
): ChildProcess {
  const logFd = fs.openSync(logFile, 'a');
  const args = [
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir',
    dirs.user,
    '--extensions-dir',
    dirs.ext,
  ];
  try {
    // detached = its own process group (setsid), so stop() can end the lingering helpers too.
    return spawn(bin, args, { detached: true, stdio: ['ignore', logFd, logFd], env });
  } finally {
    fs.closeSync(logFd);
  }
}

/** Signals code-server's whole process group (its helpers linger otherwise). */
function killGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, sig);
  } catch {
    /* already gone */
  }
}

export async function launchBrowser(name: string): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium (or set AMTP_CHROMIUM)`);
  const profile = fs.mkdtempSync(path.join(SCRATCH, `amtp-chromium-${name}-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Every wait on the page (waitFor, click, fill) may take as long as one awaited state.
  context.setDefaultTimeout(STATE_DEADLINE_MS);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * What a failed layer leaves behind: a screenshot of the page, code-server's log and the extension
 * host's logs (AMTP output channel) under test-output/e2e/, and the tail of each printed.
 */
export async function saveFailure(prefix: string, page: Page, server: CodeServer): Promise<void> {
  const shotFile = path.join(OUT, `${prefix}-failure.png`);
  await page.screenshot({ path: shotFile }).then(
    () => console.log(`screenshot: ${path.relative(process.cwd(), shotFile)}`),
    (e: Error) => console.log(`no screenshot: ${e.message}`),
  );
  for (const file of server.saveLogs(prefix)) {
    console.log(`\n── ${path.relative(process.cwd(), file)} (last 60 lines) ──`);
    console.log(tail(fs.readFileSync(file, 'utf8')));
  }
}
