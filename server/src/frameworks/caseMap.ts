// The one way from a test file and a runner's result to the case a test belongs to. A test AMTP
// writes carries its case id in a comment on its first line (`it('ms(\'1d\') returns 86400000', () => { // tc_…`,
// `def test_ms_1d_returns_86400000():  # tc_…`), never in its name; runners report names. So every
// user (the verifier's runs, the mutation engines and their runtimes, the editor's Run/Debug and
// Testing view, review) reads the file's tests here and maps a reported name to its test, and a
// case id to the name a runner's filter selects.
import { findAllJsTests, type FoundTest } from './jsTestFind';
import { parsePyTests } from './pyTestFind';

export { CASE_ID } from './jsTestFind';

/** One test of a file: AMTP's (with its case id) or the person's own. */
export interface FileTest {
  caseId?: string;
  /** its own name: the title (JS) or the function name (Python) */
  name: string;
  /** describe names (JS) or class names (Python) around it, outermost first */
  suites: string[];
  /** 0-based line where the test starts (its decorators included) */
  line: number;
}

const isPython = (path: string) => path.endsWith('.py');

/** Every test the file holds, in file order; none when it does not parse. */
export function testsInFile(path: string, content: string): FileTest[] {
  let found: FoundTest[];
  try {
    found = isPython(path) ? parsePyTests(content).tests : findAllJsTests(path, content);
  } catch {
    return [];
  }
  return found.map((t) => ({
    ...(t.caseId ? { caseId: t.caseId } : {}),
    name: t.name,
    suites: t.suites,
    line: lineOf(content, t.start),
  }));
}

function lineOf(text: string, pos: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The name a runner reports for a test, as AMTP's runners build it (frameworks/run/*.ts): describes and title joined by spaces. */
function fullName(t: Pick<FileTest, 'name' | 'suites'>): string {
  return [...t.suites, t.name].join(' ');
}

/**
 * The test a runner's result names. JavaScript: a result is the describe names and the title joined
 * by spaces (mocha, jest, vitest, node:test), the title alone (node-tap, ava) or after `file › `
 * (ava), maybe after a mutant round's label; the longest match wins. Python: `module.Class::name`
 * or a node id, with a parametrize suffix.
 */
export function testOfResult<T extends Pick<FileTest, 'name' | 'suites'>>(tests: T[], resultName: string, python: boolean): T | undefined {
  if (python) {
    const parts = resultName.split('::');
    const fn = (parts.pop() ?? '').replace(/\[.*\]$/, '');
    const cls = parts.length > 1 ? parts[parts.length - 1] : (parts[0] ?? '').split('.').pop();
    return (
      tests.find((t) => t.name === fn && t.suites.length > 0 && t.suites[t.suites.length - 1] === cls) ??
      tests.find((t) => t.name === fn && (t.suites.length === 0 || parts.length === 0))
    );
  }
  return testFinder([tests])(resultName);
}

/** The case id of the test a runner's result names, or undefined (a person's own test, or no such test). */
export function caseOfResult(tests: FileTest[], resultName: string, python: boolean): string | undefined {
  return testOfResult(tests, resultName, python)?.caseId;
}

/**
 * The case id of the test a result names, among several files' tests (for a result that does not say
 * its file, mocha before 6) or one file's: the longest match over all of them wins, as testOfResult's
 * within one file. The first file with any match would give sha256's `create() leaves the observed
 * state` to sha1's test of that title (node-forge@1.3.1: 19 tests never measured). The tests are
 * indexed once by name and full name, so each result looks up the names it ends with (one per space
 * in it) instead of trying every test (1100 results × 1100 tests took 1.3 s per run on node-forge).
 */
export function caseFinder(files: FileTest[][], python: boolean): (resultName: string) => string | undefined {
  if (python)
    return (resultName) => {
      for (const tests of files) {
        const id = caseOfResult(tests, resultName, true);
        if (id) return id;
      }
      return undefined;
    };
  const find = testFinder(files);
  return (resultName) => find(resultName)?.caseId;
}

/**
 * Reported names to case ids for one run of these files (path → its tests): in the file a result
 * names when it names one of them, else among all of them (caseFinder). Each file's tests are indexed
 * once, when first asked for.
 */
export function caseReader(
  files: ReadonlyMap<string, FileTest[]>,
  python: boolean,
): (resultName: string, file?: string) => string | undefined {
  const own = new Map<string, (resultName: string) => string | undefined>();
  let any: ((resultName: string) => string | undefined) | undefined;
  return (resultName, file) => {
    const tests = file === undefined ? undefined : files.get(file);
    if (!tests) return (any ??= caseFinder([...files.values()], python))(resultName);
    return (own.get(file!) ?? own.set(file!, caseFinder([tests], python)).get(file!)!)(resultName);
  };
}

/**
 * The JavaScript test a result names among these lists' tests: a match is the whole result or what
 * follows one of its spaces (` candidate`, ` › candidate`), as a test's full name or its title; the
 * longest one wins, and the first test in list order among equals.
 */
function testFinder<T extends Pick<FileTest, 'name' | 'suites'>>(lists: T[][]): (resultName: string) => T | undefined {
  const byText = new Map<string, T[]>();
  for (const tests of lists)
    for (const t of tests) {
      if (!t.name) continue;
      for (const text of new Set([fullName(t), t.name])) (byText.get(text) ?? byText.set(text, []).get(text)!).push(t);
    }
  return (resultName) => {
    for (let at = 0; at >= 0; at = nextStart(resultName, at)) {
      const hits = byText.get(resultName.slice(at));
      if (hits) return hits[0];
    }
    return undefined;
  };
}

function nextStart(text: string, from: number): number {
  const space = text.indexOf(' ', from);
  return space < 0 ? -1 : space + 1;
}

/** The names a runner's name filter selects these cases by (frameworks/run/*.ts escape and anchor them). */
export function namesOfCases(tests: FileTest[], caseIds: Iterable<string>): string[] {
  const wanted = new Set(caseIds);
  return [...new Set(tests.filter((t) => t.caseId && wanted.has(t.caseId) && t.name).map((t) => t.name))];
}

/** Title → case id for the tests whose title is the file's only one of that name (the mutation runtime registers by title). */
export function caseIdsByName(tests: FileTest[]): Record<string, string> {
  const count = new Map<string, number>();
  for (const t of tests) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  const out: Record<string, string> = {};
  for (const t of tests) if (t.caseId && count.get(t.name) === 1) out[t.name] = t.caseId;
  return out;
}

/** The comment that carries a case id on a test's first line. */
export function caseIdComment(path: string, caseId: string): string {
  return isPython(path) ? `# ${caseId}` : `// ${caseId}`;
}
