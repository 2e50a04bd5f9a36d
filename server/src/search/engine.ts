// The offline search for one JavaScript or TypeScript module: generate (generate.ts), keep the
// greedy selection of candidates whose behaviour is stable (stability.ts), and write each as a
// planned TestCase (case.ts). The same module, seed and number of runs give the same cases, in the
// same order, on every run.
import type { JsParser } from '../util/jsParser';
import type { OracleBinding, TestCase } from '../contracts/types';
import { sequenceCase } from './case';
import { DEFAULT_SEARCH_LIMITS, type SearchLimits } from './child';
import { generate, stepSymbol } from './generate';
import { factsToKeep, guideByMutants, mutationRuns, type Guided, type MutationSummary } from './guided';
import type { Seed } from './inputs';
import type { Instrumenter } from './mutants';
import { confirmStable, type Confirmed } from './stability';

const SEARCH_SEED = 20_261_125;

export interface SearchJob {
  /** absolute module file */
  modulePath: string;
  root: string;
  /** workspace-relative module file */
  file: string;
  language: 'javascript' | 'typescript';
  /** how a test binds the module value (`const lib = require(…)`, `import * as lib from …`) */
  binding: OracleBinding;
  import_specifier?: string;
  /** the crawler's seeds (documented arguments, declared types) by symbol */
  seeds: ReadonlyMap<string, Seed>;
}

export interface SearchOptions {
  parser: JsParser;
  /** sequence runs for this module (derived from the time budget: budget.ts) */
  executions: number;
  seed?: number;
  limits?: SearchLimits;
  signal?: AbortSignal;
  /** wall-clock safety net (epoch ms) */
  deadline?: number;
  /** the mutation engine, for mutation as a second objective (guided.ts); without it, coverage alone */
  instrument?: Instrumenter;
}

export interface ModuleSearch {
  /** absolute module file */
  module: string;
  cases: TestCase[];
  /** the symbols the kept cases call (their existence checks are replaced) */
  symbols: string[];
  /** functions, classes and methods found */
  callables: number;
  executed: number;
  candidates: number;
  /** selected sequences whose runs disagreed */
  unstable: number;
  /** runs that timed out, crashed, left work pending or had side effects */
  unusable: number;
  sideEffects: number;
  /** statements and branches (probes) reached by all runs, of those in the files the runs loaded */
  reached: number;
  probes: number;
  /** the mutation phase, when it ran */
  mutation?: MutationSummary;
  load?: string;
  cutByClock?: boolean;
}

export async function searchModule(job: SearchJob, opts: SearchOptions): Promise<ModuleSearch> {
  const seed = opts.seed ?? SEARCH_SEED;
  const child = { module: job.modulePath, root: job.root, limits: opts.limits ?? DEFAULT_SEARCH_LIMITS };
  const g = await generate(
    {
      job: child,
      seeds: job.seeds,
      local: job.binding.local,
      parser: opts.parser,
      seed,
      executions: opts.executions,
      deadline: opts.deadline,
      signal: opts.signal,
    },
    job.file,
  );
  const base = {
    module: job.modulePath,
    callables: g.callables,
    executed: g.executed,
    candidates: g.candidates.length,
    unusable: g.unusable,
    sideEffects: g.sideEffects,
    reached: [...g.covered].filter((x) => !/^(error|returns|event|items):/.test(x)).length,
    probes: g.goals.total,
    ...(g.load ? { load: g.load } : {}),
    ...(g.cutByClock ? { cutByClock: true } : {}),
  };
  if (!g.candidates.length || opts.signal?.aborted) return { ...base, cases: [], symbols: [], unstable: 0 };
  const guided: Guided = opts.instrument
    ? await guideByMutants(g, {
        job: child,
        local: job.binding.local,
        seed,
        runs: mutationRuns(opts.executions, g.executed),
        instrument: opts.instrument,
        signal: opts.signal,
      })
    : { candidates: g.candidates, kills: new Map() };
  const confirmed = await confirmStable(child, guided.candidates, seed, opts.signal);
  const { cases, symbols } = writeCases(job, confirmed.kept, guided);
  return {
    ...base,
    cases,
    symbols,
    unstable: confirmed.unstable,
    ...(guided.summary ? { mutation: guided.summary } : {}),
  };
}

/** The kept sequences as test cases, each asserting the checks that notice its kills (or its first ones). */
function writeCases(job: SearchJob, kept: Confirmed['kept'], guided: Guided): { cases: TestCase[]; symbols: string[] } {
  const cases: TestCase[] = [];
  const symbols = new Set<string>();
  const ids = new Set<string>();
  const local = job.binding.local;
  for (const { cand, obs } of kept) {
    const keep = factsToKeep(cand.seq, obs, local, guided.kills.get(cand.seq.id));
    const ctx = { file: job.file, language: job.language, binding: job.binding, import_specifier: job.import_specifier };
    const tc = sequenceCase(cand.seq, obs, ctx, keep);
    if (!tc || ids.has(tc.id)) continue;
    ids.add(tc.id);
    cases.push(tc);
    obs.steps.forEach((_, i) => symbols.add(stepSymbol(cand.seq, obs, i, local)));
  }
  return { cases, symbols: [...symbols].sort() };
}
