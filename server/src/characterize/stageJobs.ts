// The characterize stage's work, one job per module: the offline search (server/src/search/) for a
// JavaScript or TypeScript module, the Python characterizer (python/) for a Python one. Each job
// returns its module's part of the `characterization` artifact (schemas/characterization.schema.json).
// The search's runs per module come from the run's budget (`--search-budget`), fixed before anything
// runs (server/src/search/budget.ts).
import * as path from 'node:path';
import { loadJsParser } from '../util/jsParser';
import type { CrawlerOutput, ModuleCharacterizationDoc, TestCase, TestCases } from '../contracts/types';
import type { CharRunAccess } from '../pipeline/deps';
import type { StageContext } from '../pipeline/stage';
import { DEFAULT_SEARCH_BUDGET_SECONDS, runsPerModule, safetyClockSeconds } from '../search/budget';
import { searchModule, type ModuleSearch } from '../search/engine';
import { searchInstrumenter } from './searchMutants';
import type { ModuleJob } from './run';
import { replacedBy, searchJobs, type SearchStageJob } from './searchJobs';
import { normalizePath } from '../agents/generator/modules';
import type { ModuleCharacterization } from './characterize';
import { pyCharToTestCase } from './python/case';
import { characterizePythonModule } from './python/characterize';
import { charJobs, type CharJob } from './targets';
import { cached, cacheKey } from './cache';
import { importGraph } from '../util/importGraph';
import type { CharacterizationRecord } from '../core/run';

/** Modules searched at once: two children, the reference machine's two cores. */
export const SEARCH_WORKERS = 2;

export interface StageJob extends ModuleJob<ModuleCharacterizationDoc> {
  /** workspace-relative */
  module: string;
}

/** Each module's result is cached by what decides it (./cache.ts); a recording or a replay always runs (or answers) through its tap. */
function moduleKeys(ctx: StageContext, map: CrawlerOutput, mutation: boolean): (module: string, job: unknown) => string | undefined {
  const { deps, state } = ctx;
  const root = deps.workspace;
  const graph = importGraph(
    root,
    map.key_files.map((k) => k.path),
  );
  const params = state.run.params;
  return (module, job) =>
    deps.charRuns
      ? undefined
      : cacheKey(root, graph, module, {
          job,
          // the mutation objective changes what the search keeps
          mutation,
          seed: params.seed,
          scope: params.scope?.files.find((f) => f.path === module) ?? null,
          lessons: (params.lessons ?? []).filter((l) => l.file === module).map((l) => l.text),
        });
}

export async function stageJobs(ctx: StageContext, plan: TestCases, map: CrawlerOutput, onCached?: () => void): Promise<StageJob[]> {
  const { deps, state } = ctx;
  const root = deps.workspace;
  // Mutation guides the search unless the person turned mutation off (--no-mutation).
  const mutation = state.run.params.verify?.mutation?.enabled !== false;
  const python = charJobs(plan, map);
  const keyOf = moduleKeys(ctx, map, mutation);
  const out: StageJob[] = python.map((j) => ({
    module: j.module,
    modulePath: path.join(root, j.module),
    run: (signal) =>
      tapped(deps.charRuns, { module: j.module, targets: j.targets }, root, () =>
        cached(
          root,
          keyOf(j.module, { python: j.targets }),
          async () => moduleDoc(j, await characterizePythonModule(path.join(root, j.module), root, j.targets, { signal, mutation })),
          onCached,
        ),
      ),
  }));
  const search = searchJobs(plan, map);
  if (!search.length) return out;
  const parser = await loadJsParser();
  const budget = state.run.params.searchBudget ?? DEFAULT_SEARCH_BUDGET_SECONDS;
  const runs = runsPerModule(
    budget,
    search.map((j) => j.weight),
  );
  // The clock only guards against a machine far slower than the reference; it starts when the stage does.
  const deadline = Date.now() + safetyClockSeconds(budget) * 1000;
  // A scoped run (--only, a CodeLens) keeps only the sequences of the symbols it plans for.
  const scoped = state.run.params.scope !== undefined;
  const instrument = mutation
    ? searchInstrumenter(root, [...search.map((j) => j.module), ...map.key_files.map((k) => k.path)], deps.signal)
    : undefined;
  search.forEach((j, i) => {
    const modulePath = path.join(root, j.module);
    out.push({
      module: j.module,
      modulePath,
      run: (signal) =>
        tapped(deps.charRuns, { module: j.module, targets: { search: runs[i] } }, root, () =>
          cached(root, keyOf(j.module, { search: j, runs: runs[i] }), () => searchOne(signal), onCached),
        ),
    });
    const searchOne = async (signal?: AbortSignal): Promise<ModuleCharacterizationDoc> => {
      let m: ModuleSearch;
      try {
        m = await searchModule({ ...j.job, modulePath, root }, { parser, executions: runs[i], signal, deadline, instrument });
      } catch (e) {
        // A fault of the search on one module costs that module's tests, not the run.
        return failedDoc(j.module, runs[i], e);
      }
      return searchedDoc(j, runs[i], scoped ? inScope(m, plan, j) : m);
    };
  });
  return out;
}

/** The module's search cut to the symbols the (scoped) plan targets in it, classes by their methods' prefix. */
function inScope(m: ModuleSearch, plan: TestCases, j: SearchStageJob): ModuleSearch {
  const local = j.job.binding.local;
  const bare = (symbol: string) => (symbol.startsWith(`${local}.`) ? symbol.slice(local.length + 1) : symbol).split('.')[0];
  const planned = new Set(plan.cases.filter((c) => normalizePath(c.target.file) === j.module).map((c) => bare(c.target.symbol)));
  return { ...m, cases: m.cases.filter((c) => planned.has(bare(c.target.symbol))), symbols: m.symbols.filter((s) => planned.has(bare(s))) };
}

/** A searched module's part of the characterization artifact. */
export function searchedDoc(j: SearchStageJob, runs: number, m: ModuleSearch): ModuleCharacterizationDoc {
  return {
    module: j.module,
    targets: m.callables,
    cases: m.cases,
    replaces: replacedBy(j.existence, m.symbols, j.job.binding.local),
    stable: m.candidates - m.unstable,
    unstable: m.unstable,
    unusable: m.unusable,
    ...(m.cutByClock ? { cut_by_clock: true } : {}),
    search: {
      runs,
      executed: m.executed,
      reached: m.reached,
      probes: m.probes,
      side_effects: m.sideEffects,
      ...(m.load ? { load: m.load.slice(0, 500) } : {}),
    },
  };
}

/** The module's run through the recording's tap, or the replay's answer, when there is one (server/src/record/charTap.ts). */
function tapped(
  access: CharRunAccess | undefined,
  key: { module: string; targets: unknown },
  root: string,
  exec: () => Promise<ModuleCharacterizationDoc>,
): Promise<ModuleCharacterizationDoc> {
  return access ? access.run(key, root, exec) : exec();
}

function failedDoc(module: string, runs: number, e: unknown): ModuleCharacterizationDoc {
  const error = `the search failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 500);
  return {
    module,
    targets: 0,
    cases: [],
    replaces: [],
    stable: 0,
    unstable: 0,
    unusable: 0,
    search: { runs, executed: 0, reached: 0, probes: 0, side_effects: 0, error },
  };
}

/** One Python module's result as the contract's document: the kept calls as cases, and the existence cases they replace. */
function moduleDoc(job: CharJob, m: ModuleCharacterization): ModuleCharacterizationDoc {
  const cases: TestCase[] = [];
  const seen = new Set<string>();
  const replaces = new Set<string>();
  for (const c of m.cases) {
    const reach = job.reach.get(c.path.join('.'));
    if (!reach) continue;
    const tc = pyCharToTestCase(c, job.module);
    if (!tc || seen.has(tc.id)) continue;
    seen.add(tc.id);
    cases.push(tc);
    reach.replaces.forEach((id) => replaces.add(id));
  }
  return {
    module: job.module,
    targets: job.targets.length,
    cases,
    replaces: [...replaces],
    stable: m.stable,
    unstable: m.unstable,
    unusable: m.unusable,
    ...(m.cutByClock ? { cut_by_clock: true } : {}),
  };
}

/** The search's totals for the run record and the summary. */
export function searchTotals(modules: readonly ModuleCharacterizationDoc[], budgetSeconds: number): Pick<CharacterizationRecord, 'search'> {
  const searched = modules.filter((m) => m.search);
  if (!searched.length) return {};
  const sum = (k: 'runs' | 'executed' | 'reached' | 'probes' | 'side_effects') => searched.reduce((s, m) => s + (m.search![k] ?? 0), 0);
  return {
    search: {
      budgetSeconds,
      modules: searched.length,
      runs: sum('runs'),
      executed: sum('executed'),
      reached: sum('reached'),
      probes: sum('probes'),
      sideEffects: sum('side_effects'),
      notLoaded: searched.filter((m) => m.search!.load || m.search!.error).map((m) => `${m.module}: ${m.search!.load ?? m.search!.error}`),
    },
  };
}

/** The modules whose search the wall-clock safety stop ended early, any language, for the record and the summary. */
export function clockCut(modules: readonly ModuleCharacterizationDoc[]): Pick<CharacterizationRecord, 'clockCut'> {
  const cut = modules.filter((m) => m.cut_by_clock).map((m) => m.module);
  return cut.length ? { clockCut: cut } : {};
}
