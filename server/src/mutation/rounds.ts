// From the coverage round to the mutant rounds (docs/mutation.md): which tests reach each mutant,
// which mutants load-time code reaches (static: they need a process of their own), and what each
// mutant is expected to cost. The same for both languages.

/** What the coverage round measured: every mutant each test reached, with hit counts. */
export interface CoverageRound {
  perTest: Map<string, Map<string, number>>;
  /** mutants reached outside any test (while modules load, in hooks) */
  staticIds: Set<string>;
  /** each test's time, in ms */
  ms: Map<string, number>;
  /** tests that ran and passed in the coverage round: the only ones run against mutants */
  usable: Set<string>;
  /** the round's wall time and the tests it ran, for the estimates */
  wallMs: number;
}

export interface PlannedMutant {
  id: string;
  /** the usable tests that reach it */
  tests: string[];
  /** the module is loaded with it switched on: one process of its own */
  static: boolean;
  /** a static mutant run in process after all: its round loads the modules under test anew (CommonJS test files) */
  fresh?: boolean;
  /** a test that hits the mutant's switch more often than this fails (an endless loop) */
  hitLimit: number;
  /** an async test still running after this long fails */
  timeoutMs: number;
  /** expected ms of its tests (before the per-run overhead) */
  costMs: number;
}

const HIT_FACTOR = 100;
const MIN_HIT_LIMIT = 10_000;
const BASE_TEST_TIMEOUT_MS = 5000;

export function readCoverage(json: {
  perTest?: Record<string, Record<string, number>>;
  static?: Record<string, number>;
  ms?: Record<string, number>;
}): Omit<CoverageRound, 'usable' | 'wallMs'> {
  const perTest = new Map<string, Map<string, number>>();
  for (const [t, hits] of Object.entries(json.perTest ?? {})) {
    const m = perTest.get(t) ?? new Map<string, number>();
    for (const [id, n] of Object.entries(hits)) m.set(id, (m.get(id) ?? 0) + n);
    perTest.set(t, m);
  }
  return {
    perTest,
    staticIds: new Set(Object.keys(json.static ?? {})),
    ms: new Map(Object.entries(json.ms ?? {}).map(([k, v]) => [k, Number(v) || 0])),
  };
}

/** Merges coverage rounds read from several files (one per test file, or one per process). */
export function mergeCoverage(parts: Omit<CoverageRound, 'usable' | 'wallMs'>[]): Omit<CoverageRound, 'usable' | 'wallMs'> {
  const perTest = new Map<string, Map<string, number>>();
  const staticIds = new Set<string>();
  const ms = new Map<string, number>();
  for (const p of parts) {
    for (const [t, hits] of p.perTest) {
      const m = perTest.get(t) ?? new Map<string, number>();
      for (const [id, n] of hits) m.set(id, Math.max(m.get(id) ?? 0, n));
      perTest.set(t, m);
    }
    for (const id of p.staticIds) staticIds.add(id);
    for (const [t, n] of p.ms) ms.set(t, Math.max(ms.get(t) ?? 0, n));
  }
  return { perTest, staticIds, ms };
}

/** Each placed mutant with the tests that reach it, or no_coverage when none does. */
export function planMutants(ids: string[], cov: CoverageRound): { planned: PlannedMutant[]; noCoverage: string[] } {
  const reachedBy = new Map<string, { test: string; hits: number }[]>();
  for (const [test, hits] of cov.perTest) {
    if (!cov.usable.has(test)) continue;
    for (const [id, n] of hits) {
      const list = reachedBy.get(id) ?? [];
      list.push({ test, hits: n });
      reachedBy.set(id, list);
    }
  }
  const planned: PlannedMutant[] = [];
  const noCoverage: string[] = [];
  for (const id of ids) {
    const reach = (reachedBy.get(id) ?? []).sort((a, b) => a.test.localeCompare(b.test));
    const isStatic = cov.staticIds.has(id);
    if (!reach.length && !isStatic) {
      noCoverage.push(id);
      continue;
    }
    const maxHits = Math.max(1, ...reach.map((r) => r.hits));
    const costMs = reach.reduce((n, r) => n + (cov.ms.get(r.test) ?? 0), 0);
    const slowest = Math.max(0, ...reach.map((r) => cov.ms.get(r.test) ?? 0));
    planned.push({
      id,
      tests: reach.map((r) => r.test),
      static: isStatic,
      hitLimit: Math.max(MIN_HIT_LIMIT, HIT_FACTOR * maxHits),
      timeoutMs: BASE_TEST_TIMEOUT_MS + 2 * slowest,
      costMs,
    });
  }
  return { planned, noCoverage };
}

/**
 * A static mutant changes what a module is once loaded, so any test of any module that loads it may
 * notice (as StrykerJS runs every test against a static mutant): it runs with every usable test.
 */
export function widenStatics(planned: PlannedMutant[], cov: Pick<CoverageRound, 'usable' | 'ms'>): void {
  const all = [...cov.usable].sort();
  for (const p of planned.filter((x) => x.static)) {
    p.tests = [...new Set([...p.tests, ...all])].sort();
    p.costMs = p.tests.reduce((n, t) => n + (cov.ms.get(t) ?? 0), 0);
  }
}
