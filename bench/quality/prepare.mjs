// Gets a subject's files and its test framework, and makes the fresh workspace AMTP runs on.
// Everything fetched is cached under bench/.work (git-ignored): npm tarballs (npm pack), Debian
// packages (apt-get download + dpkg -x), and per package × framework a node_modules holding the
// package's runtime dependencies and the framework, installed with npm from the registry.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackNpmPackage } from '../../test/helpers/npmPack.ts';
import { peersIn } from './peers.mjs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const WORK = join(REPO, 'bench/.work');

/** The npm package that provides each framework's runner (node:test ships with Node, pytest is Python). */
const RUNNER_PACKAGE = { jest: 'jest', vitest: 'vitest', mocha: 'mocha', ava: 'ava', 'node-tap': 'tap' };

export const safe = (s) => s.replace(/[^A-Za-z0-9._-]/g, '_');

export function sh(cmd, args, cwd, what) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error?.code === 'ENOENT') throw new Error(`${what}: \`${cmd}\` is not installed (${r.error.message})`);
  if (r.status !== 0)
    throw new Error(`${what}: \`${cmd} ${args.join(' ')}\` exited ${r.status}\n${(r.stderr || r.stdout).trim().slice(-2000)}`);
  return r.stdout;
}

/** The pristine files of a subject (cached); never written to. */
export async function sourceDir(subject) {
  if (subject.from === 'fixture') return join(REPO, subject.spec);
  if (subject.from === 'vendored') return unpackNpmPackage(subject.spec);
  if (subject.from === 'npm') return npmSource(subject.spec);
  if (subject.from === 'deb') return debSource(subject.spec);
  throw new Error(`unknown subject source ${subject.from}`);
}

function npmSource(spec) {
  const dir = join(WORK, 'src', safe(spec));
  if (existsSync(join(dir, 'package/package.json'))) return join(dir, 'package');
  const tarballs = join(WORK, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const file = sh('npm', ['pack', spec, '--silent', '--pack-destination', tarballs], REPO, `fetching ${spec}`).trim().split('\n').pop();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  sh('tar', ['-xzf', join(tarballs, file), '-C', dir], REPO, `unpacking ${file}`);
  return join(dir, 'package');
}

/** A Debian python3-* package as it installs: the contents of its usr/lib/python3/dist-packages. */
function debSource(name) {
  const root = join(WORK, 'src', safe(name));
  const site = join(root, 'usr/lib/python3/dist-packages');
  if (existsSync(site)) return site;
  const debs = join(WORK, 'debs');
  mkdirSync(debs, { recursive: true });
  const have = () => readdirSync(debs).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
  if (!have()) {
    try {
      sh('apt-get', ['download', name], debs, `fetching ${name}`);
    } catch (e) {
      throw new Error(
        `${e.message}\n(the Python subjects come from Debian: run on a Debian/Ubuntu machine with apt, after \`apt-get update\`)`,
        { cause: e },
      );
    }
  }
  rmSync(root, { recursive: true, force: true });
  sh('dpkg', ['-x', join(debs, have()), root], debs, `unpacking ${name}`);
  if (!existsSync(site)) throw new Error(`${name} has no usr/lib/python3/dist-packages (not a pure-Python package?)`);
  return site;
}

/**
 * The version range installed: the subject's own devDependency range (runners `declared`), else, or
 * with runners `amtp`, the version AMTP itself is tested with.
 */
function frameworkRange(subject, framework, runners) {
  if (subject.frameworkRange && runners === 'declared') return subject.frameworkRange;
  return JSON.parse(readFileSync(join(REPO, 'node_modules', RUNNER_PACKAGE[framework], 'package.json'), 'utf8')).version;
}

/**
 * node_modules with the package's dependencies and the framework (cached per package × framework).
 * Installed beside the package, not into it, so the package's own package.json stays as published.
 * `tools` (name → exact version) adds the bench's measuring tools in a separate folder (`+measure`):
 * AMTP's own run never sees them.
 */
export function installRunner(subject, framework, source, runners, tools) {
  const kind = `${runners === 'amtp' ? '+amtp' : ''}${tools ? '+measure' : ''}`;
  const dir = join(WORK, 'deps', `${safe(subject.spec)}+${framework}${kind}`);
  const done = join(dir, 'installed.json');
  if (existsSync(done)) return { dir, installed: JSON.parse(readFileSync(done, 'utf8')) };
  const pkg = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const deps = { ...pkg.dependencies, ...configuredTools(source, pkg, framework) };
  const runner = RUNNER_PACKAGE[framework];
  if (runner) deps[runner] = frameworkRange(subject, framework, runners);
  if (tools) Object.assign(deps, resolvedPeers(subject, framework, source, runners, deps));
  Object.assign(deps, typeof tools === 'function' ? tools(deps) : tools);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: deps }, null, 2));
  // Registry packages' install scripts are not run (esbuild and rollup use their platform packages).
  sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', ...(tools ? ['--legacy-peer-deps'] : [])],
    dir,
    `installing ${framework} for ${subject.spec}`,
  );
  const version = (name) => `${name}@${JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version}`;
  const configured = Object.keys(configuredTools(source, pkg, framework)).map(version);
  const installed = [runner ? version(runner) : `node ${process.version}`, ...configured].join(' + ');
  writeFileSync(done, JSON.stringify(installed));
  return { dir, installed };
}

/**
 * The measuring folder is installed with --legacy-peer-deps (Stryker's plugins declare peers the
 * package's framework range may not meet), so npm would leave out the peers that the run's folder
 * got, such as ts-jest's `typescript`, and the kept files would not load where they loaded for AMTP.
 */
function resolvedPeers(subject, framework, source, runners, deps) {
  return peersIn(join(installRunner(subject, framework, source, runners).dir, 'node_modules'), deps);
}

const CONFIG_FILE = /^(\.mocharc\..+|jest\.config\..+|ava\.config\..+|vitest\.config\..+|vite\.config\..+|\.taprc)$/;

/** What a tool a test config names needs installed beside it (its peer dependencies). */
const CONFIG_PEERS = {
  'ts-node': ['typescript'],
  'ts-jest': ['typescript'],
  '@babel/register': ['@babel/core'],
  'babel-jest': ['@babel/core'],
};

/** The framework's configuration in the package folder: its package.json field and its config files, as one text. */
export function configText(dir, pkg, framework) {
  const texts = [JSON.stringify(pkg[framework === 'node-tap' ? 'tap' : framework] ?? '')];
  for (const name of readdirSync(dir)) if (CONFIG_FILE.test(name)) texts.push(readFileSync(join(dir, name), 'utf8'));
  return texts.join('\n');
}

/**
 * Whether a configuration names a package: by name, by a file inside it (`ts-node/register`,
 * mitt@3.0.1's mocha require), or by its path (`<rootDir>/node_modules/ts-jest`, heap-js@2.7.1's jest
 * transform).
 */
export function mentions(config, name) {
  return new RegExp(`(^|[^\\w@/.-]|node_modules/)${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}($|[^\\w.-])`).test(config);
}

/**
 * The devDependencies the framework's configuration names (colord's `"jest": {"transform": {…: "ts-jest"}}`),
 * at their declared ranges: without them the project's own config cannot load, which is not what a
 * maintainer's checkout looks like. Other devDependencies (linters, bundlers) are left out.
 */
function configuredTools(source, pkg, framework) {
  const config = configText(source, pkg, framework);
  const named = Object.entries(pkg.devDependencies ?? {}).filter(([name]) => name !== RUNNER_PACKAGE[framework] && mentions(config, name));
  // and the devDependencies those need beside them, at the package's range: ts-node under mitt@3.0.1's
  // esm@3 loader failed on the newest typescript (5.x ships `??`, which esm@3 cannot parse)
  const peers = named.flatMap(([name]) => CONFIG_PEERS[name] ?? []).filter((name) => pkg.devDependencies?.[name]);
  return Object.fromEntries([...named, ...peers.map((name) => [name, pkg.devDependencies[name]])]);
}

function pytestVersion() {
  try {
    return `pytest ${execFileSync('python3', ['-c', 'import pytest; print(pytest.__version__)'], { encoding: 'utf8' }).trim()}`;
  } catch {
    return 'pytest not installed for python3';
  }
}

/**
 * A fresh copy of the subject for one run, and the runner it will find. Reported npm packages run
 * in the system temp folder with their own node_modules next to them (nothing of AMTP's above);
 * tuning subjects run under bench/.work, finding the runners in AMTP's own node_modules as before.
 */
export async function makeWorkspace(subject, framework, runners = 'declared') {
  const source = await sourceDir(subject);
  if (subject.from === 'npm' || subject.from === 'deb') {
    const root = mkdtempSync(join(tmpdir(), `amtp-quality-${safe(subject.spec)}-`));
    // npm unpacks into `package/`; a Python checkout is named after its project (AMTP names the project from the folder when nothing else does).
    const dir = join(root, subject.from === 'npm' ? 'package' : subject.spec.replace(/^python3-/, ''));
    cpSync(source, dir, { recursive: true });
    let runner = pytestVersion();
    if (subject.from === 'npm') {
      const deps = installRunner(subject, framework, source, runners);
      symlinkSync(join(deps.dir, 'node_modules'), join(root, 'node_modules'), 'dir');
      // a config that names `<rootDir>/node_modules/ts-jest` (heap-js@2.7.1) looks in the package's own folder
      if (namesRootDirModules(dir)) symlinkSync(join(deps.dir, 'node_modules'), join(dir, 'node_modules'), 'dir');
      runner = deps.installed;
    }
    return { dir, root, source, runner, modules: countModules(source), cleanup: () => rmSync(root, { recursive: true, force: true }) };
  }
  mkdirSync(WORK, { recursive: true });
  // a folder of its own around the copy: the bench's measuring node_modules is linked there (independent.mjs)
  const root = mkdtempSync(join(WORK, 'q-'));
  const dir = join(root, basename(subject.spec).replace(/@.*$/, '') || 'package');
  cpSync(source, dir, { recursive: true });
  const runner = framework === 'pytest' ? pytestVersion() : `AMTP's ${RUNNER_PACKAGE[framework] ?? 'node'}`;
  return { dir, root, source, runner, modules: countModules(source), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Whether the package's manifest or a runner config at its top names `<rootDir>/node_modules`. */
export function namesRootDirModules(dir) {
  return readdirSync(dir)
    .filter((f) => f === 'package.json' || CONFIG_FILE.test(f))
    .some((f) => statSync(join(dir, f)).isFile() && readFileSync(join(dir, f), 'utf8').includes('<rootDir>/node_modules'));
}

const CODE = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.py']);

/** Source files a user could import: code files, without type declarations, minified bundles or node_modules. */
export function countModules(dir) {
  let n = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) n += countModules(p);
    else if (CODE.has(extname(name)) && !/\.d\.[mc]?ts$|\.min\.js$/.test(name)) n += 1;
  }
  return n;
}
