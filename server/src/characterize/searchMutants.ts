// The mutation engine as the offline search sees it (server/src/search/mutants.ts Instrumenter): the
// package's JavaScript and TypeScript product files instrumented with StrykerJS's mutant schemata in
// one pass for the whole stage, started when the stage starts so it runs beside the modules'
// generation loops; each module then gets the instrumented texts (by absolute path) and the mutants
// of the files its runs loaded. A file outside that set is not mutated. Mutant ids never reach a
// written test: the search tries mutants in source order, so the same files give the same tests.
import * as path from 'node:path';
import { isProductPath } from '../agents/crawler/targets';
import { instrumentModules, type InstrumentedModule } from '../mutation/guide';
import type { Instrumenter, MutantSet } from '../search/mutants';

const SCRIPT = /\.[cm]?[jt]sx?$/;
const NOT_SOURCE = /\.d\.[cm]?ts$|\.min\.[cm]?js$/;

/** The files worth instrumenting for the search: product scripts, no typings or minified copies. */
function searchableFiles(files: readonly string[]): string[] {
  return [...new Set(files.filter((f) => SCRIPT.test(f) && !NOT_SOURCE.test(f) && isProductPath(f)))].sort();
}

export function searchInstrumenter(root: string, files: readonly string[], signal?: AbortSignal): Instrumenter {
  const all = searchableFiles(files);
  let done: Promise<Map<string, InstrumentedModule>> | undefined;
  const start = () =>
    (done ??= all.length
      ? instrumentModules(root, all, { signal }).then((r) => new Map(r.modules.map((m) => [m.file, m])))
      : Promise.resolve(new Map()));
  // A failure is each module's to see (it then searches by coverage alone), never an unhandled rejection.
  start().catch(() => undefined);
  return async (requested) => {
    const modules = await start();
    const mine = [...new Set(requested)]
      .sort()
      .map((f) => modules.get(f))
      .filter((m): m is InstrumentedModule => !!m);
    return mine.length ? subset(root, mine) : undefined;
  };
}

function subset(root: string, modules: InstrumentedModule[]): MutantSet | undefined {
  const overrides: Record<string, string> = {};
  for (const m of modules) overrides[path.join(root, m.file)] = m.code;
  const mutants = modules.flatMap((m) =>
    m.mutants.map((x) => ({
      id: x.id,
      file: x.file,
      line: x.start.line,
      column: x.start.column,
      mutator: x.mutator,
      replacement: x.replacement,
    })),
  );
  return mutants.length ? { overrides, mutants } : undefined;
}
