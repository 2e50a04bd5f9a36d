// Whether a TypeScript project's test runner type-checks the test files, and under which strictness:
// with ts-jest (diagnostics on) or ts-node (not transpile-only) one type error fails the whole file,
// so the Test Engineer is told (test_setup.typecheck) and the verifier repairs per test. Read from the
// runner's config and the test command, never by running anything.
import { parse as parseJsonc } from 'jsonc-parser';
import type { TypeCheck } from '../../contracts/types';
import { readRunnerConfig } from './runnerConfigs';

export interface TypecheckInput {
  runner: string | undefined;
  /** the test command and the scripts it runs, as written */
  script: string;
  pkg: Record<string, unknown>;
  files: ReadonlySet<string>;
  read: (path: string) => Promise<string | undefined>;
}

export async function detectTypecheck(inp: TypecheckInput): Promise<TypeCheck | undefined> {
  const checked = await runnerChecks(inp);
  if (!checked) return undefined;
  const strict = await tsStrict(inp);
  return { ...checked, ...(strict !== undefined ? { strict } : {}) };
}

async function runnerChecks(inp: TypecheckInput): Promise<Omit<TypeCheck, 'strict'> | undefined> {
  switch (inp.runner) {
    case 'jest':
      return jestChecks(inp);
    case 'vitest':
      return { checked: false, evidence: 'vitest compiles TypeScript with esbuild, which does not type-check' };
    case 'mocha':
    case 'node-test':
    case 'ava': {
      const text = `${inp.script} ${JSON.stringify(inp.pkg.mocha ?? '')} ${JSON.stringify(inp.pkg.ava ?? '')} ${await mocharc(inp)}`;
      if (/ts-node\/register\/transpile-only|TS_NODE_TRANSPILE_ONLY=(1|true)|--transpile-only/.test(text))
        return { checked: false, evidence: 'ts-node runs transpile-only' };
      if (/ts-node/.test(text)) return { checked: true, evidence: 'the test command loads ts-node, which type-checks each file' };
      if (/\btsx\b|@swc\/register|esbuild-register|--experimental-strip-types|@babel\/register/.test(text))
        return { checked: false, evidence: 'the test command compiles TypeScript without type-checking (tsx, swc, esbuild or babel)' };
      return undefined;
    }
    default:
      return undefined;
  }
}

/** ts-jest type-checks unless `diagnostics: false` or `isolatedModules: true`; babel-jest and swc never do. */
async function jestChecks(inp: TypecheckInput): Promise<Omit<TypeCheck, 'strict'> | undefined> {
  const found = await readRunnerConfig('jest', { pkg: inp.pkg, files: inp.files, read: inp.read, defaults: {} });
  const v = found?.config.value ?? {};
  const where = found?.file ?? 'jest defaults';
  const transform = v.transform && typeof v.transform === 'object' ? Object.values(v.transform as Record<string, unknown>) : [];
  const tsJest = [v.preset, ...transform].find((t) => JSON.stringify(t ?? '').includes('ts-jest'));
  if (tsJest !== undefined) {
    const opts = {
      ...((v.globals as Record<string, unknown> | undefined)?.['ts-jest'] as object | undefined),
      ...(Array.isArray(tsJest) && tsJest[1] && typeof tsJest[1] === 'object' ? tsJest[1] : {}),
    } as { diagnostics?: unknown; isolatedModules?: unknown };
    if (opts.diagnostics === false) return { checked: false, evidence: `${where}: ts-jest with diagnostics off` };
    if (opts.isolatedModules === true) return { checked: false, evidence: `${where}: ts-jest with isolatedModules (transpile only)` };
    return { checked: true, evidence: `${where}: ts-jest reports type errors (diagnostics on), failing the whole test file` };
  }
  return {
    checked: false,
    evidence: `${where}: TypeScript is compiled without a type check (${transform.length ? 'its transform' : 'babel-jest'})`,
  };
}

async function mocharc(inp: TypecheckInput): Promise<string> {
  for (const f of ['.mocharc.js', '.mocharc.cjs', '.mocharc.json', '.mocharc.jsonc', '.mocharc.yml', '.mocharc.yaml'])
    if (inp.files.has(f)) return (await inp.read(f)) ?? '';
  return '';
}

/** tsconfig.json's compilerOptions.strict; undefined when it says nothing (or only through `extends`). */
async function tsStrict(inp: TypecheckInput): Promise<boolean | undefined> {
  const text = inp.files.has('tsconfig.json') ? await inp.read('tsconfig.json') : undefined;
  if (text === undefined) return undefined;
  const cfg = parseJsonc(text) as { compilerOptions?: { strict?: unknown } } | undefined;
  const strict = cfg?.compilerOptions?.strict;
  return typeof strict === 'boolean' ? strict : undefined;
}
