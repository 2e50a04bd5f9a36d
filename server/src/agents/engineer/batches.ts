// The Test Engineer's batches: a few planned cases each, with what their tests need — the test file
// AMTP will assemble and the import lines it will put there, each target symbol's signature, doc
// and an excerpt of its source, and the framework's conventions — sized so the request and the
// expected test bodies fit the budget. The reply is the body of each test; AMTP assembles the files.
import type { CrawlerOutput, EngineerInput, TestCase, TestCases } from '../../contracts/types';
import { frameworkConventions, projectConventions, resolveFramework } from '../../frameworks';
import type { FrameworkRenderer } from '../../frameworks/types';
import type { AgentBatching, PlannedBatch } from '../batching';
import { estimateTokens, pack, type Budget } from '../budget';
import { helperSources, outlineSource, symbolSource } from '../sources';
import { assemble } from './assemble';
import { bindingsFor, planFiles, type TestFileGroup } from './filePlan';

/** Expected reply tokens per case: one test body with its assertions. */
const OUT_PER_CASE = 350;

type Symbol = EngineerInput['symbols'][number];

/**
 * Signature, doc, whole source and helpers of the symbol a case targets, from the crawler's map
 * (agents/sources.ts). Within `fit` tokens: the helpers go first, then the source becomes an
 * outline; a source is never cut mid-body.
 */
export function symbolInfo(map: CrawlerOutput, file: string, name: string, fit = Infinity): Symbol {
  const sym = map.key_files.find((k) => k.path === file)?.symbols.find((s) => s.name === name);
  const out: Symbol = { file, name };
  if (!sym) return out;
  out.kind = sym.kind;
  if (sym.signature) out.signature = sym.signature;
  if (sym.doc) out.doc = sym.doc;
  const src = symbolSource(map, file, sym);
  if (!src) return out;
  out.line = src.line;
  out.source = src.code;
  const helpers = helperSources(map, file, sym).map((h) => ({ name: h.name, source: h.code }));
  if (helpers.length) out.helpers = helpers;
  if (estimateTokens(out) <= fit) return out;
  delete out.helpers;
  if (estimateTokens(out) <= fit) return out;
  const outline = outlineSource(map, file, sym);
  if (outline) Object.assign(out, { source: outline.code, source_truncated: true });
  return out;
}

const IMPORT_LINE = /^(?:import\s|from\s\S+\simport\s|const\s.+=\s*require\()/;
const BOUND_FROM = /^const\s+(?:\{[^}]*\}|[A-Za-z_$][\w$]*)\s*=\s*([A-Za-z_$][\w$]*);$/;

/** The import statements AMTP will write at the top of the file for these bindings, with the lines that bind names from them. */
export function importLines(renderer: FrameworkRenderer, g: TestFileGroup, cases: TestCase[]): string[] {
  const skeleton = renderer.render({
    project: g.project,
    path: g.path,
    importPath: g.importPath,
    bindings: bindingsFor(g, cases),
    cases: [],
    typescript: g.project.typescript,
    esm: renderer.esm(g.project),
  });
  // The imports, and the lines that bind names from a module value they import (`const { a } = xModule;`, `const b = xModule;`).
  const lines = skeleton.split('\n');
  const imports = lines.filter((l) => IMPORT_LINE.test(l));
  const modules = new Set(imports.flatMap((l) => /(?:\*\s+as\s+|import\s+|const\s+)([A-Za-z_$][\w$]*)\b/.exec(l)?.[1] ?? []));
  return lines.filter((l) => IMPORT_LINE.test(l) || modules.has(BOUND_FROM.exec(l)?.[1] ?? ''));
}

/** Cases of one target symbol in one test file, with what they need of it: what packs into batches. */
interface TargetCases {
  g: TestFileGroup;
  file: string;
  name: string;
  info: Symbol;
  cases: TestCase[];
}

/**
 * Each target's cases, in plan order, sized by what they carry: the symbol's source once, its file's
 * imports, the cases. A target whose cases do not fit one batch is cut into chunks that each carry
 * its source; a source too large even for one case's batch is reduced by symbolInfo, never cut.
 */
function targetItems(fp: ReturnType<typeof planFiles>, map: CrawlerOutput, budget: Budget, fixed: number) {
  const room = budget.payloadTokens - fixed;
  const items: { value: TargetCases; inTokens: number; outTokens: number }[] = [];
  for (const g of fp.groups) {
    const byTarget = new Map<string, TestCase[]>();
    for (const c of g.cases) byTarget.set(c.target.symbol, [...(byTarget.get(c.target.symbol) ?? []), c]);
    for (const [name, cases] of byTarget) {
      const fileCost = estimateTokens(fileEntry(fp.renderer, g, cases)) + 16;
      const largest = Math.max(...cases.map((c) => estimateTokens(c)));
      const info = symbolInfo(map, g.target, name, room - fileCost - largest - 40);
      const head = estimateTokens(info) + fileCost;
      let chunk: TestCase[] = [];
      let used = head;
      const flush = () => {
        if (chunk.length)
          items.push({ value: { g, file: g.target, name, info, cases: chunk }, inTokens: used, outTokens: OUT_PER_CASE * chunk.length });
        chunk = [];
        used = head;
      };
      for (const c of cases) {
        const cost = estimateTokens(c) + 40;
        if (chunk.length && (used + cost > room || OUT_PER_CASE * (chunk.length + 1) > budget.outputTokens)) flush();
        chunk.push(c);
        used += cost;
      }
      flush();
    }
  }
  return items;
}

function fileEntry(renderer: FrameworkRenderer, g: TestFileGroup, cases: TestCase[]): EngineerInput['files'][number] {
  return { path: g.path, target: g.target, imports: importLines(renderer, g, cases), names: bindingsFor(g, cases).map((b) => b.local) };
}

function conventions(plan: TestCases, framework: EngineerInput['framework']): string {
  const setup = plan.project.test_setup;
  return [
    frameworkConventions(framework),
    projectConventions(framework, plan.project),
    setup.command ? `The project's test command: ${setup.command}.` : '',
    setup.naming_pattern ? `Its test files are named ${setup.naming_pattern}.` : '',
    'Write only the body of each test: AMTP writes the test function (named by the case title, its case id in a comment), the imports listed for its file, and the file itself.',
  ]
    .filter(Boolean)
    .join('\n');
}

export const engineerBatching: AgentBatching<'engineer'> = {
  plan({ plan, map }, ctx): PlannedBatch<'engineer'>[] {
    const framework = resolveFramework(ctx.framework, plan.project);
    const fp = planFiles(plan, framework, ctx.ownTestFile);
    const fixed = estimateTokens({ project: plan.project, conventions: conventions(plan, framework) }) + 128;
    const batches = pack(targetItems(fp, map, ctx.budget, fixed), ctx.budget, fixed);
    return batches.map((chunks, i) => {
      const batch = chunks.flatMap((t) => t.cases.map((c) => ({ g: t.g, c })));
      const groups = [...new Set(batch.map((b) => b.g))];
      const symbols = new Map<string, Symbol>();
      for (const t of chunks) symbols.set(`${t.file}#${t.name}`, t.info);
      const payload: EngineerInput = {
        schema_version: '1',
        framework,
        project: plan.project,
        view: { batch: i + 1, of: batches.length, cases: plan.cases.length, max_tokens: ctx.budget.outputTokens },
        files: groups.map((g) =>
          fileEntry(
            fp.renderer,
            g,
            batch.filter((b) => b.g === g).map((b) => b.c),
          ),
        ),
        cases: batch.map(({ g, c }) => ({ file: g.path, case: c })),
        symbols: [...symbols.values()],
        conventions: conventions(plan, framework),
      };
      return { key: batch.map(({ c }) => c.id).join(','), payload };
    });
  },

  split(payload) {
    if (payload.cases.length < 2) return undefined;
    const mid = Math.ceil(payload.cases.length / 2);
    const half = (cases: EngineerInput['cases']): EngineerInput => {
      const files = new Set(cases.map((c) => c.file));
      const targets = new Set(cases.map((c) => `${c.case.target.file}#${c.case.target.symbol}`));
      return {
        ...payload,
        cases,
        files: payload.files.filter((f) => files.has(f.path)),
        symbols: payload.symbols.filter((x) => targets.has(`${x.file}#${x.name}`)),
      };
    };
    return [half(payload.cases.slice(0, mid)), half(payload.cases.slice(mid))];
  },

  check(payload, output) {
    const ids = new Set(payload.cases.map((c) => c.case.id));
    const stray = [...output.tests.map((t) => t.case_id), ...output.not_written.map((n) => n.caseId)].filter((id) => !ids.has(id));
    return stray.length ? `the reply names case(s) this batch does not hold: ${[...new Set(stray)].join(', ')}` : undefined;
  },

  merge({ plan }, done, ctx) {
    return assemble(
      plan,
      resolveFramework(ctx.framework, plan.project),
      done.map((d) => d.output),
      ctx.ownTestFile,
    );
  },
};
