// Per-test coverage from ONE test process (docs/verifier.md, "Per-test coverage in one process").
// The preload server/src/frameworks/assets/amtp.v8-pertest.cjs takes V8's precise coverage at every
// test boundary (taking resets the counters), so each take holds what one test ran, or, labelled '',
// what ran outside any test: loading the test files and hooks, the load-only baseline. Here:
// - the whole run is the sum of all takes (c8's merge, @bcoe/v8-coverage), read exactly as a
//   NODE_V8_COVERAGE run is (./v8.ts): the istanbul map, the covered units and every unit's key;
// - each test's covered units are read from its own takes with the same rules. A file read as itself
//   (no source map) is read straight from the counts: statements and branches from the syntax tree
//   (./statements.ts, ./branches.ts), functions at the positions the whole run's map has them, so the
//   keys are the whole run's; a file read through a source map goes through v8-to-istanbul.
import { lineOf } from '../util/lineOf';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mergeProcessCovs } from '@bcoe/v8-coverage';
import { countAt, syntaxStatements, withSyntaxStatements } from './statements';
import { unitSets, unitsOf, type IstanbulFile, type IstanbulMap, type MeasuredUnits } from './units';
import { convert, scriptSource, scriptsToMap, type ScriptSource, type SourceMapCache, type V8Function, type V8Script } from './v8';

/** One take: the test that just ended (its full name) or '' (loading, hooks), and the scripts that ran. */
export interface Segment {
  label: string;
  file: string;
  scripts: (V8Script & { scriptId?: string })[];
}

/** Covered units per case id, and what ran outside every test (the load-only baseline). */
export interface PerTestUnits {
  byTest: Map<string, Set<string>>;
  load: Set<string>;
}

/** The environment the preload reads: where it writes its takes, and the workspace whose scripts count. */
export function perTestEnv(outDir: string, root: string): Record<string, string> {
  return { AMTP_PERTEST_OUT: outDir, AMTP_PERTEST_ROOT: resolve(root) };
}

/** Every take every process wrote, in the order each process wrote them (a line cut short by a kill is skipped). */
export function readSegments(outDir: string): Segment[] {
  if (!existsSync(outDir)) return [];
  const out: Segment[] = [];
  for (const name of readdirSync(outDir).sort()) {
    if (!name.startsWith('pertest-') || !name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(outDir, name), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        out.push(JSON.parse(line) as Segment);
      } catch {
        // A process killed while writing: that take is lost, the others count.
      }
    }
  }
  return out;
}

/** The whole run's map and units, and each test's covered units, from the takes of one run. */
export async function perTestMeasurement(
  segments: Segment[],
  sourceMaps: SourceMapCache,
  vmSources: Map<string, string[]>,
  root: string,
  files: string[],
  /** a take's case id from its label and test file (the ids are in comments, not names: frameworks/caseMap.ts, given by the runner) */
  idOf: (label: string, file: string) => string | undefined,
): Promise<{ map: IstanbulMap; units: MeasuredUnits; perTest: PerTestUnits }> {
  const total = mergeProcessCovs(
    segments.map((s) => ({ result: s.scripts.map((x, i) => ({ scriptId: x.scriptId ?? String(i), url: x.url, functions: x.functions })) })),
  );
  const map = await scriptsToMap(total.result, sourceMaps, root, files, vmSources);
  const units = unitsOf(map, root);
  const wanted = new Set(files.map((f) => resolve(root, f)));
  const perTest: PerTestUnits = { byTest: new Map(), load: new Set() };
  const reader = new TakeReader(map, root);
  for (const seg of segments) {
    const id = seg.label ? idOf(seg.label, seg.file) : undefined;
    // A test without a case id (the person's own, in a file a run added to) is nobody's contribution, and not loading either.
    if (seg.label && !id) continue;
    const into = id ? (perTest.byTest.get(id) ?? perTest.byTest.set(id, new Set()).get(id)!) : perTest.load;
    for (const script of seg.scripts) {
      const src = scriptSource(script, sourceMaps, vmSources, root, wanted);
      if (src) for (const u of await reader.covered(src, script.functions)) into.add(u);
    }
  }
  return { map, units, perTest };
}

/** Reads one take of one script into the covered units, keyed as the whole run's map keys them. */
class TakeReader {
  private readonly lineStarts = new Map<string, number[]>();
  private readonly fnAt = new Map<string, Map<string, string>>();
  constructor(
    private readonly map: IstanbulMap,
    private readonly root: string,
  ) {}

  // Tests of one function mostly run the same blocks: the units of a take are read once per pattern
  // of ranges that ran (a count's value does not change which units are covered).
  private readonly seen = new Map<string, readonly string[]>();

  async covered(src: ScriptSource, functions: V8Function[]): Promise<readonly string[]> {
    let pattern = src.path;
    for (const fn of functions) for (const r of fn.ranges) pattern += `|${r.startOffset},${r.endOffset},${r.count > 0 ? 1 : 0}`;
    let units = this.seen.get(pattern);
    if (!units) this.seen.set(pattern, (units = [...(await this.read(src, functions))]));
    return units;
  }

  private async read(src: ScriptSource, functions: V8Function[]): Promise<Set<string>> {
    const whole = this.map[src.path];
    if (src.mapped || !whole || !syntaxStatements(src.path)) {
      const data = (await convert(src.path, functions, src.mapped)) as unknown as IstanbulMap;
      const own = Object.fromEntries(Object.entries(data).filter(([f]) => f in this.map));
      return unitSets(own, this.root).units;
    }
    // Functions as v8-to-istanbul makes them: the named ones, at the start of their first range.
    const f: IstanbulFile['f'] = Object.fromEntries(Object.keys(whole.f).map((k) => [k, 0]));
    const at = this.functionsAt(src.path, whole);
    for (const fn of functions) {
      const first = fn.ranges[0];
      if (!fn.functionName || !first || first.count <= 0) continue;
      const id = at.get(this.position(src.path, first.startOffset));
      if (id !== undefined) f[id] = (f[id] ?? 0) + first.count;
    }
    const counts = countAt(functions.flatMap((x) => x.ranges));
    const file = withSyntaxStatements({ ...whole, f, s: {}, b: {} }, src.path, counts);
    return unitSets({ [src.path]: file }, this.root).units;
  }

  /** `line:column` of an offset, lines from 1 and columns from 0, as v8-to-istanbul counts them. */
  private position(path: string, offset: number): string {
    let starts = this.lineStarts.get(path);
    if (!starts) {
      const text = readFileSync(path, 'utf8');
      starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts.set(path, starts);
    }
    const line = lineOf(starts, offset);
    return `${line + 1}:${offset - starts[line]}`;
  }

  private functionsAt(path: string, whole: IstanbulFile): Map<string, string> {
    let at = this.fnAt.get(path);
    if (!at) {
      at = new Map();
      for (const [id, fn] of Object.entries(whole.fnMap)) {
        const d = fn.decl ?? fn.loc;
        if (d && !at.has(`${d.start.line}:${d.start.column ?? 0}`)) at.set(`${d.start.line}:${d.start.column ?? 0}`, id);
      }
      this.fnAt.set(path, at);
    }
    return at;
  }
}
