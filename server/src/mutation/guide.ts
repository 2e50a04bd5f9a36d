// The guide (docs/mutation.md, issue 23 point 4): what the offline search and the LLM rounds can ask
// of the mutation engine, without running a test.
// - For the offline search (the call-sequence generator): a module's mutants and its instrumented text, to load
//   in a sandbox child instead of the module, where one switch turns a mutant on and the child reads
//   which mutants a call reached (MUTANT_SWITCH says where, per language).
// - For the LLM rounds: per function, its surviving mutants as unified diffs with the function source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { SurvivingMutant } from '../core/mutation';
import { functionAt } from './functions';
import { instrumentJs } from './js/instrument';
import { instrumentPython } from './python/instrument';
import type { Mutant } from './types';

/**
 * How a child process that loaded an instrumented module switches a mutant on and reads what a call
 * reached. JS: `globalThis.__stryker__.activeMutant = id` (or the env variable before the module
 * loads, for code that runs at load); coverage counts are in `globalThis.__stryker__.mutantCoverage`:
 * `static` outside a test, `perTest[currentTestId]` while `currentTestId` is set. Python: the dict
 * `builtins.__amtp_mutation__`, keys `active`, `test`, `static`, `perTest` the same way.
 */
export const MUTANT_SWITCH = {
  js: {
    global: 'globalThis.__stryker__',
    active: 'activeMutant',
    coverage: 'mutantCoverage',
    currentTest: 'currentTestId',
    env: '__STRYKER_ACTIVE_MUTANT__',
  },
  python: {
    global: 'builtins.__amtp_mutation__',
    active: 'active',
    coverage: 'static/perTest',
    currentTest: 'test',
    env: 'AMTP_ACTIVE_MUTANT',
  },
} as const;

export interface InstrumentedModule {
  /** workspace-relative */
  file: string;
  language: 'js' | 'python';
  /** the module with every mutant placed as a schema: load this text in place of the file */
  code: string;
  /** the mutants placed in `code` (ids unique across the modules of one call) */
  mutants: Mutant[];
  /** mutants left out as equivalent-mutant noise, with why (never placed) */
  filtered: (Mutant & { reason: string })[];
}

/** Instruments workspace files (JS/TS with StrykerJS, Python with the ast operators) without running anything of theirs. */
export async function instrumentModules(
  workspace: string,
  files: string[],
  opts: { python?: string; signal?: AbortSignal } = {},
): Promise<{ modules: InstrumentedModule[]; failed: { file: string; reason: string }[] }> {
  const read = (fs: string[]) => new Map(fs.map((f) => [f, readFileSync(join(workspace, f), 'utf8')]));
  const py = files.filter((f) => f.endsWith('.py'));
  const js = files.filter((f) => !f.endsWith('.py'));
  const modules: InstrumentedModule[] = [];
  const failed: { file: string; reason: string }[] = [];
  const collect = (
    language: InstrumentedModule['language'],
    r: { files: Map<string, string>; mutants: (Mutant & { filtered?: string })[]; failed: typeof failed },
  ) => {
    failed.push(...r.failed);
    for (const [file, code] of r.files) {
      const of = r.mutants.filter((m) => m.file === file);
      modules.push({
        file,
        language,
        code,
        mutants: of.filter((m) => !m.filtered).map(({ filtered: _f, ...m }) => m),
        filtered: of.filter((m) => m.filtered).map(({ filtered, ...m }) => ({ ...m, reason: filtered! })),
      });
    }
  };
  if (js.length) collect('js', await instrumentJs(read(js), opts.signal));
  if (py.length) collect('python', await instrumentPython(opts.python ?? 'python3', read(py), opts.signal));
  return { modules: modules.sort((a, b) => a.file.localeCompare(b.file)), failed };
}

export interface FunctionSurvivors {
  file: string;
  /** `name`, `Class.method`, or `(module)` for code outside any function */
  function: string;
  /** 1-based, inclusive */
  startLine: number;
  endLine: number;
  source: string;
  mutants: { id: string; mutator: string; status: SurvivingMutant['status']; line: number; coveredBy: string[]; diff: string }[];
}

/**
 * The surviving mutants (the run record's `verification.mutation.survivors`) grouped by the function
 * that holds them, each as a unified diff of that function with the mutant applied. At most `limit`
 * mutants per function (the rest are left for a later round), functions in file and line order.
 */
export function survivorsByFunction(workspace: string, survivors: SurvivingMutant[], limit = 10): FunctionSurvivors[] {
  const texts = new Map<string, string>();
  const text = (f: string) => {
    if (!texts.has(f)) texts.set(f, readFileSync(join(workspace, f), 'utf8'));
    return texts.get(f)!;
  };
  const groups = new Map<string, FunctionSurvivors>();
  for (const s of [...survivors].sort(
    (a, b) => a.file.localeCompare(b.file) || a.start.line - b.start.line || a.start.column - b.start.column,
  )) {
    const source = text(s.file);
    const fn = functionAt(s.file, source, s.start.line);
    const key = `${s.file}\n${fn.startLine}`;
    const group = groups.get(key) ?? {
      file: s.file,
      function: fn.name,
      startLine: fn.startLine,
      endLine: fn.endLine,
      source: fn.source,
      mutants: [],
    };
    groups.set(key, group);
    if (group.mutants.length >= limit) continue;
    group.mutants.push({
      id: s.id,
      mutator: s.mutator,
      status: s.status,
      line: s.start.line,
      coveredBy: s.coveredBy,
      diff: mutantDiff(s, source, fn),
    });
  }
  return [...groups.values()];
}

/** The function's text before and after the mutant, as a unified diff named after the file. */
export function mutantDiff(s: SurvivingMutant, source: string, fn: { startLine: number; endLine: number; source: string }): string {
  const lines = source.split('\n');
  const before = lines.slice(fn.startLine - 1, fn.endLine).join('\n');
  const offset = (line: number, column: number) =>
    lines.slice(fn.startLine - 1, line - 1).reduce((n, l) => n + l.length + 1, 0) + (column - 1);
  const from = offset(s.start.line, s.start.column);
  const to = offset(s.end.line, s.end.column);
  const after = before.slice(0, from) + s.replacement + before.slice(to);
  // Hunk lines are the file's, not the function's.
  const shift = (n: string) => String(Number(n) + fn.startLine - 1);
  return createTwoFilesPatch(`a/${s.file}`, `b/${s.file}`, `${before}\n`, `${after}\n`, undefined, undefined, { context: 3 })
    .split('\n')
    .slice(1)
    .map((l) =>
      l
        .replace(/\t$/, '')
        .replace(/^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/, (_m, a, b, c, d) => `@@ -${shift(a)}${b ?? ''} +${shift(c)}${d ?? ''} @@`),
    )
    .join('\n');
}
