// What the characterize stage hands the offline search (server/src/search/engine.ts) for each
// JavaScript or TypeScript module the generator planned cases for: how a test binds the module value
// (`const lib = require(…)`, or `import * as lib from …` for ESM, whose default export is then
// `lib.default`), the crawler's seeds for each symbol (documented argument lists, declared parameter
// types and names), and a weight for sharing the run budget (its exported symbols). The search itself
// finds what the module exports at run time, classes and methods included.
import { describeModules, normalizePath } from '../agents/generator/modules';
import { isExistenceOnly } from '../agents/generator/existence';
import type { CrawlerOutput, OracleBinding, SymbolInfo, TestCases } from '../contracts/types';
import type { Seed } from '../search/inputs';
import type { SearchJob } from '../search/engine';
import { exampleArgs } from './exampleArgs';

export interface SearchStageJob {
  /** workspace-relative */
  module: string;
  job: Omit<SearchJob, 'root' | 'modulePath'>;
  /** how much of the budget it gets, relative to the others */
  weight: number;
  /** the existence-only cases of the module, by symbol: a kept sequence that calls the symbol replaces them */
  existence: { id: string; symbol: string }[];
}

function seedOf(symbol: SymbolInfo): Seed {
  const params = (symbol.params ?? []).filter((p) => p.name !== 'this');
  return {
    examples: exampleArgs(symbol.name, symbol.examples ?? [], 'javascript'),
    types: params.map((p) => p.type),
    names: params.map((p) => p.name),
  };
}

export function searchJobs(plan: TestCases, map: CrawlerOutput): SearchStageJob[] {
  const planned = new Set(plan.cases.map((c) => normalizePath(c.target.file)));
  const jobs: SearchStageJob[] = [];
  for (const mod of describeModules(map)) {
    const file = normalizePath(mod.file.path);
    if (!planned.has(file) || mod.language === 'python') continue; // a module the generator left out (a config, a script) is never run
    const binding: OracleBinding = { local: mod.local, import: mod.moduleSystem === 'esm' ? 'namespace' : 'module' };
    const seeds = new Map<string, Seed>();
    for (const s of mod.runtime) {
      const seed = seedOf(s);
      seeds.set(s.name, seed);
      if (s.name.startsWith(`${mod.local}.`)) seeds.set(s.name.slice(mod.local.length + 1), seed);
    }
    const existence = plan.cases
      .filter((c) => normalizePath(c.target.file) === file && isExistenceOnly(c))
      .map((c) => ({
        id: c.id,
        symbol: c.target.symbol.startsWith(`${mod.local}.`) ? c.target.symbol.slice(mod.local.length + 1) : c.target.symbol,
      }));
    jobs.push({
      module: file,
      job: {
        file,
        language: mod.language === 'typescript' ? 'typescript' : 'javascript',
        binding,
        ...(mod.file.import_specifier ? { import_specifier: mod.file.import_specifier } : {}),
        seeds,
      },
      weight: 1 + mod.runtime.length,
      existence,
    });
  }
  return jobs;
}

/** The existence-only cases a module's kept sequences replace: those of the symbols (and classes of the methods) they call. */
export function replacedBy(existence: SearchStageJob['existence'], symbols: readonly string[], local: string): string[] {
  const called = new Set(symbols.flatMap((s) => [s, s.split('.')[0]]));
  if (symbols.length) called.add(local);
  return existence.filter((e) => called.has(e.symbol)).map((e) => e.id);
}
