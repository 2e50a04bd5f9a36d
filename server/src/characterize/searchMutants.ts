// The mutation engine as the offline search sees it (server/src/search/mutants.ts Instrumenter): the
// files a module's runs loaded, instrumented with StrykerJS's mutant schemata in one pass (so the
// same files give the same mutant ids on every run), their texts keyed by absolute path. One
// instrumentation per distinct set of files, shared by the modules of a run that load the same files.
import * as path from 'node:path';
import { instrumentModules } from '../mutation/guide';
import type { Instrumenter, MutantSet } from '../search/mutants';

export function searchInstrumenter(root: string): Instrumenter {
  const done = new Map<string, Promise<MutantSet | undefined>>();
  return (files, signal) => {
    const sorted = [...new Set(files)].sort();
    if (!sorted.length) return Promise.resolve(undefined);
    const key = sorted.join('\n');
    if (!done.has(key)) done.set(key, instrument(root, sorted, signal));
    return done.get(key)!;
  };
}

async function instrument(root: string, files: string[], signal?: AbortSignal): Promise<MutantSet | undefined> {
  const { modules } = await instrumentModules(root, files, { signal });
  if (!modules.length) return undefined;
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
  return { overrides, mutants };
}
