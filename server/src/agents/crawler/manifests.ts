import type { CrawlerOutput, ModuleSystem } from '../../contracts/types';
import { parse as parseToml } from 'smol-toml';
import { exportTargets, resolveEntry } from './entryPoints';

export interface NpmPackage {
  /** root-relative dir, '' for the root */
  dir: string;
  manifest: string;
  // package.json as written by anyone: every field is checked where it is read.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: Record<string, any>;
}

export interface PythonManifests {
  pyproject?: string;
  setupCfg?: string;
  setupPy?: string;
  requirements: string[];
}

type Out = Pick<CrawlerOutput, 'package_managers' | 'frameworks' | 'entry_points'>;

const JS_FRAMEWORKS = [
  'express',
  'koa',
  'fastify',
  '@hapi/hapi',
  '@nestjs/core',
  'next',
  'react',
  'vue',
  'svelte',
  '@angular/core',
  'electron',
  'nuxt',
  'graphql',
  'socket.io',
];
const PY_FRAMEWORKS = [
  'fastapi',
  'django',
  'flask',
  'starlette',
  'aiohttp',
  'tornado',
  'pydantic',
  'sqlalchemy',
  'celery',
  'click',
  'typer',
];

const join = (dir: string, p: string) => (dir ? `${dir}/${p}` : p).replace(/\/\.\//g, '/').replace(/^\.\//, '');

export function moduleSystemOf(pkg: NpmPackage | undefined): ModuleSystem {
  if (!pkg) return 'unknown';
  return pkg.json.type === 'module' ? 'esm' : 'cjs';
}

/** Package managers, frameworks and entry points of npm packages; `files` is the set of tree paths. */
export function npmFacts(pkgs: NpmPackage[], files: Set<string>, out: Out): void {
  for (const p of pkgs) {
    const lock = ['pnpm-lock.yaml', 'yarn.lock', 'package-lock.json', 'bun.lockb', 'bun.lock', 'npm-shrinkwrap.json'].find((l) =>
      files.has(join(p.dir, l)),
    );
    const pm = String(p.json.packageManager ?? '').split('@')[0];
    const name = (
      ['npm', 'yarn', 'pnpm', 'bun'].includes(pm)
        ? pm
        : lock?.startsWith('pnpm')
          ? 'pnpm'
          : lock?.startsWith('yarn')
            ? 'yarn'
            : lock?.startsWith('bun')
              ? 'bun'
              : 'npm'
    ) as 'npm';
    const ws = Array.isArray(p.json.workspaces)
      ? p.json.workspaces
      : Array.isArray(p.json.workspaces?.packages)
        ? p.json.workspaces.packages
        : undefined;
    if (p.dir === '' || lock || ws) {
      const entry: Out['package_managers'][number] = { name, manifest: p.manifest };
      if (lock) entry.lockfile = join(p.dir, lock);
      if (ws) entry.workspaces = ws.map(String);
      out.package_managers.push(entry);
    }
    const deps = { ...p.json.devDependencies, ...p.json.peerDependencies, ...p.json.dependencies } as Record<string, string>;
    for (const f of JS_FRAMEWORKS) {
      if (deps[f] && !out.frameworks.some((x) => x.name === f))
        out.frameworks.push({ name: f, version: String(deps[f]), evidence: `${p.manifest} dependencies` });
    }
    const pkgName = typeof p.json.name === 'string' ? p.json.name : undefined;
    const add = (path: unknown, kind: Out['entry_points'][number]['kind'], name?: string) => {
      if (typeof path !== 'string' || !path) return;
      const e: Out['entry_points'][number] = { path: resolveEntry(join(p.dir, path), files), kind };
      if (name) e.name = name;
      if (pkgName) e.package = pkgName;
      if (!out.entry_points.some((x) => x.path === e.path && x.kind === kind && x.name === name)) out.entry_points.push(e);
    };
    add(p.json.main, 'main');
    add(p.json.module, 'module');
    add(p.json.types ?? p.json.typings, 'types');
    if (typeof p.json.bin === 'string') add(p.json.bin, 'bin', pkgName);
    else if (p.json.bin && typeof p.json.bin === 'object') for (const [k, v] of Object.entries(p.json.bin)) add(v, 'bin', k);
    // Every condition's file is an entry point (a pattern like `./*` is expanded only where a file needs a specifier).
    for (const t of exportTargets(p.json.exports)) if (!t.target.includes('*')) add(t.target, 'exports', t.subpath);
    // A nested package.json without a name only sets its folder's module type (ramda's es/package.json).
    if (!p.json.main && !p.json.exports && (p.dir === '' || pkgName) && files.has(join(p.dir, 'index.js'))) add('index.js', 'main');
  }
}

/** Python package managers, frameworks and console scripts. */
export function pythonFacts(m: PythonManifests, files: Set<string>, out: Out): string[] {
  const deps: string[] = [];
  const py = m.pyproject ?? '';
  const add = (name: Out['package_managers'][number]['name'], manifest: string, lockfile?: string) => {
    if (out.package_managers.some((x) => x.name === name)) return;
    out.package_managers.push(lockfile ? { name, manifest, lockfile } : { name, manifest });
  };
  if (m.pyproject !== undefined) {
    const doc = pyproject(py);
    const tool = record(doc.tool);
    const project = record(doc.project);
    const poetry = record(tool.poetry);
    const backend = JSON.stringify(doc['build-system'] ?? {});
    if ('poetry' in tool || files.has('poetry.lock')) add('poetry', 'pyproject.toml', files.has('poetry.lock') ? 'poetry.lock' : undefined);
    if (files.has('uv.lock')) add('uv', 'pyproject.toml', 'uv.lock');
    if ('pdm' in tool || files.has('pdm.lock')) add('pdm', 'pyproject.toml', files.has('pdm.lock') ? 'pdm.lock' : undefined);
    if (backend.includes('hatchling') || 'hatch' in tool) add('hatch', 'pyproject.toml');
    if (backend.includes('setuptools') || 'setuptools' in tool) add('setuptools', 'pyproject.toml');
    for (const d of Array.isArray(project.dependencies) ? project.dependencies : []) {
      const name = typeof d === 'string' ? /^\s*([A-Za-z0-9_.-]+)/.exec(d)?.[1] : undefined;
      if (name) deps.push(name);
    }
    deps.push(...Object.keys(record(poetry.dependencies)));
    for (const [name, target] of [...Object.entries(record(project.scripts)), ...Object.entries(record(poetry.scripts))])
      if (typeof target === 'string') out.entry_points.push({ path: target, kind: 'console_script', name });
  }
  if (m.setupPy !== undefined || m.setupCfg !== undefined) add('setuptools', m.setupCfg !== undefined ? 'setup.cfg' : 'setup.py');
  if (files.has('Pipfile')) add('pipenv', 'Pipfile', files.has('Pipfile.lock') ? 'Pipfile.lock' : undefined);
  for (const r of m.requirements) {
    add('pip', 'requirements.txt');
    deps.push(...[...r.matchAll(/^\s*([A-Za-z0-9_.-]+)/gm)].map((x) => x[1]));
  }
  const cfgScripts = /console_scripts\s*=\s*\n((?:[ \t]+.+\n?)+)/.exec(m.setupCfg ?? '');
  if (cfgScripts)
    for (const l of cfgScripts[1].split('\n')) {
      const s = /^\s*([\w.-]+)\s*=\s*(\S+)/.exec(l);
      if (s) out.entry_points.push({ path: s[2], kind: 'console_script', name: s[1] });
    }
  for (const s of (m.setupPy ?? '').matchAll(/['"]([\w.-]+)\s*=\s*([\w.]+:[\w.]+)['"]/g))
    out.entry_points.push({ path: s[2], kind: 'console_script', name: s[1] });
  const lower = new Set(deps.map((d) => d.toLowerCase()));
  for (const f of PY_FRAMEWORKS) if (lower.has(f)) out.frameworks.push({ name: f, evidence: 'Python dependencies' });
  if (files.has('manage.py') && !out.frameworks.some((f) => f.name === 'django'))
    out.frameworks.push({ name: 'django', evidence: 'manage.py' });
  return [...lower];
}

/** pyproject.toml as a TOML document; one that does not parse tells nothing (pip would refuse it too). */
export function pyproject(text: string): Record<string, unknown> {
  try {
    return parseToml(text);
  } catch {
    return {};
  }
}

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
