// What the characterize stage runs for Python: the exported functions of the plan's modules that have no
// documented result (the generator planned only an existence/arity check for them, or nothing), with
// the seeds the engine's inputs come from (signature and JSDoc types, documented example arguments,
// the function's own source) and how a test reaches each one (the binding the generator would use).
import { isExistenceOnly } from '../agents/generator/existence';
import { bindingFor, describeModules, normalizePath, targetOf, type ModuleInfo } from '../agents/generator/modules';
import { symbolInfo } from '../agents/engineer/batches';
import type { CrawlerOutput, OracleBinding, SymbolInfo, TestCase, TestCases } from '../contracts/types';
import type { CharTarget } from './characterize';
import { exampleArgs } from './exampleArgs';

/** How a test reaches a characterized function: the generator's target, binding and access expression. */
interface CharReach {
  target: TestCase['target'];
  access: string;
  bindings: OracleBinding[];
  /** the existence-only cases of this target, which kept characterization cases replace */
  replaces: string[];
}

export interface CharJob {
  /** workspace-relative path */
  module: string;
  language: ModuleInfo['language'];
  targets: CharTarget[];
  /** by export path (`path.join('.')`) */
  reach: Map<string, CharReach>;
}

/**
 * The path the Python harness (server/src/frameworks/assets/amtp.char-harness.py) follows from the
 * module for a binding and its access expression; undefined for an access it cannot follow.
 */
export function exportPath(binding: OracleBinding, access: string): string[] | undefined {
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(access)) return undefined;
  const [local, ...rest] = access.split('.');
  if (local !== binding.local) return undefined;
  switch (binding.import) {
    case 'module':
    case 'namespace':
      return rest;
    case 'default':
      return ['default', ...rest];
    case 'named':
      return [binding.name ?? binding.local, ...rest];
  }
}

function signatureOf(symbol: SymbolInfo): string | undefined {
  if (symbol.params?.some((p) => p.type)) return `(${symbol.params.map((p) => (p.type ? `${p.name}: ${p.type}` : p.name)).join(', ')})`;
  return symbol.signature;
}

/** The characterization jobs of a plan's Python modules: one per module with at least one target (JavaScript and TypeScript: searchJobs.ts). */
export function charJobs(plan: TestCases, map: CrawlerOutput): CharJob[] {
  const planned = new Set(plan.cases.map((c) => normalizePath(c.target.file)));
  const casesOf = (file: string, symbol: string) =>
    plan.cases.filter((c) => normalizePath(c.target.file) === file && c.target.symbol === symbol);
  const jobs: CharJob[] = [];
  for (const mod of describeModules(map)) {
    const file = normalizePath(mod.file.path);
    if (!planned.has(file) || mod.language !== 'python') continue; // a module the generator left out (a config, a script) is never run
    const job: CharJob = { module: file, language: mod.language, targets: [], reach: new Map() };
    // Python classes too: call sequences construct them and call their methods (python/sequence.ts).
    const python = mod.language === 'python';
    for (const symbol of mod.runtime.filter((s) => s.kind === 'function' || (python && s.kind === 'class' && !s.name.includes('.')))) {
      const { binding, access } = bindingFor(mod, symbol);
      const path = exportPath(binding, access);
      const target = targetOf(mod, symbol);
      const cases =
        symbol.kind === 'class'
          ? plan.cases.filter((c) => normalizePath(c.target.file) === file && c.target.symbol.split('.')[0] === target.symbol)
          : casesOf(file, target.symbol);
      // A class whose doctests document some methods still gets sequences for the rest: only its
      // existence checks are replaced. A function with a documented result is not run.
      const undocumented = symbol.kind === 'class' ? cases.some(isExistenceOnly) || !cases.length : cases.every(isExistenceOnly);
      if (!path || job.reach.has(path.join('.')) || !undocumented) continue;
      const info = symbolInfo(map, mod.file.path, symbol.name);
      job.targets.push({
        path,
        arity: target.arity ?? symbol.params?.length ?? 0,
        signature: signatureOf(symbol),
        doc: info.doc,
        source: info.source,
        examples: exampleArgs(symbol.name, symbol.examples ?? [], mod.language === 'python' ? 'python' : 'javascript'),
      });
      job.reach.set(path.join('.'), { target, access, bindings: [binding], replaces: cases.filter(isExistenceOnly).map((c) => c.id) });
    }
    if (job.targets.length) jobs.push(job);
  }
  return jobs;
}
