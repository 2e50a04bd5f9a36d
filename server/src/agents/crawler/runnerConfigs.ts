// Where a JavaScript test runner looks, read from its own config without running it: jest
// (`roots`, `testMatch`, `testRegex`, `testPathIgnorePatterns`, `projects`, `rootDir`) from the
// config the test command names, jest.config.{js,cjs,mjs,ts,mts,cts,json} or package.json "jest";
// vitest (`test.include`, `test.exclude`, `test.dir`, `root`, inline `test.projects`); mocha
// (`.mocharc.js`/`.cjs` `spec`); ava (`ava.config.*` `files`). JavaScript configs are parsed
// (staticConfig.ts): only literal values count, and a computed setting is reported in `unread`.
import { posix } from 'node:path';
import type { TestRuns } from '../../contracts/types';
import type { FrameworkDescriptor } from '../../frameworks/descriptor';
import { FRAMEWORK_REGISTRY, runnerName } from '../../frameworks/registry';
import { loadJsParser } from '../../util/jsParser';
import { staticConfig, type StaticConfig } from './staticConfig';

export type ConfigRuns = Pick<TestRuns, 'patterns' | 'source'> & Partial<Pick<TestRuns, 'roots' | 'ignore' | 'projects' | 'unread'>>;

export interface ConfigInput {
  pkg: Record<string, unknown>;
  files: ReadonlySet<string>;
  read: (path: string) => Promise<string | undefined>;
  /** the `--config FILE` the test command passes, if any */
  configArg?: string;
  defaults: Record<string, string[]>;
}

type ReadConfig = NonNullable<FrameworkDescriptor['detection']['readConfig']>;
/** Each runner's config files and their key that lists the test files (its framework's descriptor). */
const READ_CONFIG: Record<string, ReadConfig> = Object.fromEntries(
  Object.values(FRAMEWORK_REGISTRY).flatMap((d) => (d.detection.readConfig ? [[runnerName(d), d.detection.readConfig]] : [])),
);

/** The runner's own config, read as data; undefined when it has none AMTP can read (the runner's defaults then apply). */
export async function readRunnerConfig(runner: string, inp: ConfigInput): Promise<{ file: string; config: StaticConfig } | undefined> {
  const arg = inp.configArg?.replace(/^\.\//, '');
  const file = arg && inp.files.has(arg) ? arg : READ_CONFIG[runner]?.files.find((f) => inp.files.has(f));
  if (file) {
    const text = await inp.read(file);
    const config = text === undefined ? undefined : await parseConfig(file, text);
    if (config) return { file, config };
    if (file.endsWith('.json') || text === undefined) return undefined;
    return { file, config: { value: {}, computed: ['(config)'] } };
  }
  const inPkg = inp.pkg[runner];
  if (runner === 'jest' && inPkg && typeof inPkg === 'object' && !Array.isArray(inPkg))
    return { file: 'package.json jest', config: { value: inPkg as Record<string, unknown>, computed: [] } };
  return undefined;
}

async function parseConfig(file: string, text: string): Promise<StaticConfig | undefined> {
  if (file.endsWith('.json')) {
    try {
      const v = JSON.parse(text) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? { value: v as Record<string, unknown>, computed: [] } : undefined;
    } catch {
      return undefined; // jest will report its broken config itself
    }
  }
  try {
    return staticConfig((await loadJsParser()).parse(file, text).program);
  } catch {
    return undefined;
  }
}

/** The files the runner's config makes it run; undefined when the config says nothing about them. */
export async function configRuns(runner: string, inp: ConfigInput): Promise<ConfigRuns | undefined> {
  const found = await readRunnerConfig(runner, inp);
  if (!found) return undefined;
  const { file, config } = found;
  const name = file === 'package.json jest' ? 'package.json jest.' : `${file} `;
  if (runner === 'jest') return jestRuns(config, name, inp.defaults.jest);
  if (runner === 'vitest') return vitestRuns(config, name, inp.defaults.vitest);
  const key = READ_CONFIG[runner]?.filesKey;
  if (!key) return undefined;
  const globs = strings(config.value[key]).filter((p) => !p.startsWith('!'));
  const unread = unreadOf(config, file, [key]);
  if (globs.length) return { patterns: globs.map(dotless), source: `${name}${key}`, ...(unread ? { unread } : {}) };
  return unread ? { patterns: inp.defaults[runner] ?? [], source: `${runner} defaults`, unread } : undefined;
}

function jestRuns(config: StaticConfig, name: string, defaults: string[], root = '.'): ConfigRuns | undefined {
  const v = config.value;
  const rootDir = posix.join(root, typeof v.rootDir === 'string' ? dotless(v.rootDir.replace('<rootDir>', '.')) : '.');
  const at = (p: string) => (rootDir === '.' ? p : p.replaceAll('<rootDir>', rootDir));
  const match = list(v.testMatch).map(at);
  const regex = strings(v.testRegex).map((r) => `/${r}/`);
  // jest's roots default to [rootDir]: a rootDir of `src` alone keeps it from looking anywhere else.
  const roots = (Array.isArray(v.roots) ? list(v.roots) : rootDir !== '.' ? [rootDir] : [])
    .map((r) => posix.normalize(dotless(r.replaceAll('<rootDir>', rootDir))).replace(/\/$/, ''))
    .filter((r) => !r.startsWith('..'));
  const ignore = list(v.testPathIgnorePatterns).map((r) => `/${r.replaceAll('<rootDir>', rootDir === '.' ? '' : `/${rootDir}`)}/`);
  const projects = jestProjects(v.projects, name, defaults, rootDir);
  const unread = [
    unreadOf(config, name.trim(), ['testMatch', 'testRegex', 'roots', 'rootDir', 'projects', 'testPathIgnorePatterns']),
    projects.unread,
  ]
    .filter(Boolean)
    .join('; ');
  const own = match.length ? match : regex.length ? regex : undefined;
  if (!own && !roots.length && !projects.list.length && !ignore.length && !unread) return undefined;
  const source = match.length ? `${name}testMatch` : regex.length ? `${name}testRegex` : roots.length ? `${name}roots` : 'jest defaults';
  const patterns = own ?? defaults;
  return {
    patterns: projects.list.length ? [...new Set(projects.list.flatMap((p) => p.patterns))] : patterns,
    source: projects.list.length ? `${name}projects` : source,
    ...(roots.length && !(roots.length === 1 && roots[0] === '.') ? { roots } : {}),
    ...(ignore.length ? { ignore } : {}),
    ...(projects.list.length ? { projects: projects.list } : {}),
    ...(unread ? { unread } : {}),
  };
}

/** Inline project objects as their own runs; a path to another config is not followed (reported in `unread`). */
function jestProjects(
  value: unknown,
  name: string,
  defaults: string[],
  rootDir: string,
): { list: NonNullable<TestRuns['projects']>; unread?: string } {
  if (!Array.isArray(value)) return { list: [] };
  const list: NonNullable<TestRuns['projects']> = [];
  const other: string[] = [];
  value.forEach((p, i) => {
    if (typeof p === 'string') {
      if (p.replace(/\/$/, '') !== '<rootDir>') other.push(p);
      return;
    }
    if (!p || typeof p !== 'object') return;
    const runs = jestRuns({ value: p as Record<string, unknown>, computed: [] }, name, defaults, rootDir);
    const proj = p as { displayName?: unknown };
    const label = typeof proj.displayName === 'string' ? proj.displayName : `projects[${i}]`;
    list.push({
      name: label,
      patterns: runs?.patterns ?? defaults,
      ...(runs?.roots ? { roots: runs.roots } : {}),
      ...(runs?.ignore ? { ignore: runs.ignore } : {}),
    });
  });
  return {
    list,
    ...(other.length ? { unread: `${name.trim()} projects ${other.join(', ')} name other configs, which AMTP does not follow` } : {}),
  };
}

function vitestRuns(config: StaticConfig, name: string, defaults: string[]): ConfigRuns | undefined {
  const v = config.value;
  const test = (v.test && typeof v.test === 'object' ? v.test : {}) as Record<string, unknown>;
  const root = dotless(typeof test.root === 'string' ? test.root : typeof v.root === 'string' ? v.root : '.') || '.';
  const dir = typeof test.dir === 'string' ? posix.join(root, dotless(test.dir)) : root;
  const under = (p: string) => (root === '.' ? dotless(p) : posix.join(root, dotless(p)));
  const include = list(test.include).map(under);
  const exclude = list(test.exclude).map(under);
  const projects = (Array.isArray(test.projects) ? test.projects : []).flatMap((p, i) => {
    const t = p && typeof p === 'object' ? ((p as { test?: Record<string, unknown> }).test ?? {}) : undefined;
    if (!t) return [];
    const pRoot = typeof t.root === 'string' ? posix.join(root, dotless(t.root)) : root;
    const pats = list(t.include).map((x) => posix.join(pRoot, dotless(x)));
    return [
      {
        name: typeof t.name === 'string' ? t.name : `projects[${i}]`,
        patterns: pats.length ? pats : defaults.map((d) => posix.join(pRoot, d)),
      },
    ];
  });
  const unread = unreadOf(config, name.trim(), ['test', 'test.include', 'test.exclude', 'test.dir', 'test.root', 'root', 'test.projects']);
  if (!include.length && dir === '.' && !projects.length && !exclude.length && !unread) return undefined;
  const patterns = projects.length ? projects.flatMap((p) => p.patterns) : include.length ? include : defaults.map(under);
  return {
    patterns,
    source: projects.length ? `${name}test.projects` : include.length ? `${name}test.include` : 'vitest defaults',
    ...(dir !== '.' ? { roots: [dir] } : {}),
    ...(exclude.length ? { ignore: exclude } : {}),
    ...(projects.length ? { projects } : {}),
    ...(unread ? { unread } : {}),
  };
}

/** "FILE: testMatch, roots are computed" for the settings that matter here, or undefined. */
function unreadOf(config: StaticConfig, file: string, keys: string[]): string | undefined {
  const hit = config.computed.filter(
    (c) => c === '(config)' || c.startsWith('(config)') || keys.some((k) => c === k || c.startsWith(`${k}.`) || c.startsWith(`${k}[`)),
  );
  if (!hit.length) return undefined;
  if (hit.some((h) => h.startsWith('(config)')))
    return `${file} builds its config at run time (not a literal object); AMTP does not run configs, so the runner's defaults stand in`;
  return `${file}: ${[...new Set(hit)].join(', ')} ${hit.length > 1 ? 'are' : 'is'} computed; AMTP does not run configs, so the runner's defaults stand in for ${hit.length > 1 ? 'them' : 'it'}`;
}

/** A list of strings (the runners take no single string for these settings). */
function list(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** One string or a list of them. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function dotless(p: string): string {
  return p.replace(/^\.\//, '');
}
