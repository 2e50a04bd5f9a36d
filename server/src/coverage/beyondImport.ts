// "Coverage beyond import": what the tests cover that merely loading the test files does not.
//
//   beyond = (statements covered by the tests − statements covered by loading them, no test run)
//            / (statements that loading leaves uncovered)
//
// Loading covers module bodies (declarations, top-level constants), so plain statement coverage
// credits a test suite for code it never exercised. The load-only run is the same runner with a
// filter that matches no test (server/src/coverage/loadOnly.ts).
const STATEMENT = /:(s@|l\d)/;

export interface BeyondImport {
  /** percent (one decimal); undefined when loading already covers every statement */
  percent?: number;
  /** statements covered only by running tests */
  byTests: number;
  /** statements loading leaves uncovered (the denominator) */
  leftByLoading: number;
}

export function beyondImport(tested: Set<string>, loaded: Set<string>, universe: Set<string>): BeyondImport {
  const statements = [...universe].filter((k) => STATEMENT.test(k));
  const left = statements.filter((k) => !loaded.has(k));
  const byTests = left.filter((k) => tested.has(k)).length;
  const percent = left.length ? Math.round((1000 * byTests) / left.length) / 10 : undefined;
  return { ...(percent !== undefined ? { percent } : {}), byTests, leftByLoading: left.length };
}

/** The units a test adds beyond import: the ones loading alone does not cover. */
export function beyondLoad(units: Set<string>, loaded: Set<string>): Set<string> {
  return new Set([...units].filter((u) => !loaded.has(u)));
}
