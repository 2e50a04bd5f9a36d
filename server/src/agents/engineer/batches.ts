// The Test Engineer's batches: a few planned cases each, with what their tests need — the test file
// AMTP will assemble and the import lines it will put there, each target symbol's signature, doc
// and an excerpt of its source, and the framework's conventions — sized so the request and the
// expected test bodies fit the budget. The reply is the body of each test; AMTP assembles the files.
import type { CrawlerOutput, EngineerInput, TestCase, TestCases } from '../../contracts/types';
import { frameworkConventions, resolveFramework } from '../../frameworks';
import type { FrameworkRenderer } from '../../frameworks/types';
import type { AgentBatching, PlannedBatch } from '../batching';
import { cutToTokens, estimateTokens, pack } from '../budget';
import { assemble } from './assemble';
import { bindingsFor, planFiles, type TestFileGroup } from './filePlan';

/** Expected reply tokens per case: one test body with its assertions. */
const OUT_PER_CASE = 350;
const SOURCE_TOKENS = 600;
const DOC_TOKENS = 400;

type Symbol = EngineerInput['symbols'][number];

/** Signature, doc and a source excerpt of the symbol a case targets, from the crawler's map. */
export function symbolInfo(map: CrawlerOutput, file: string, name: string): Symbol {
  const key = map.key_files.find((k) => k.path === file);
  const sym = key?.symbols.find((s) => s.name === name);
  const out: Symbol = { file, name };
  if (!sym) return out;
  out.kind = sym.kind;
  if (sym.signature) out.signature = sym.signature;
  if (sym.doc) out.doc = cutToTokens(sym.doc, DOC_TOKENS).text;
  const sample = map.samples?.find((s) => s.path === file);
  if (sample && sym.line) {
    // From the symbol's line to the next symbol's: one function each, not a window over its neighbours.
    const next = Math.min(...key!.symbols.map((s) => s.line ?? 0).filter((l) => l > sym.line!), Infinity);
    const lines = sample.content.split('\n').slice(sym.line - 1, Number.isFinite(next) ? next - 1 : undefined);
    if (lines.length > 1) {
      const { text, cut } = cutToTokens(lines.slice(0, 80).join('\n'), SOURCE_TOKENS);
      out.source = text;
      if (cut || lines.length > 80 || sample.truncated) out.source_truncated = true;
    }
  }
  return out;
}

/** The import statements AMTP will write at the top of the file for these bindings. */
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
  return skeleton.split('\n').filter((l) => /^(?:import\s|from\s\S+\simport\s|const\s.+=\s*require\()/.test(l));
}

function conventions(plan: TestCases, framework: EngineerInput['framework']): string {
  const setup = plan.project.test_setup;
  return [
    frameworkConventions(framework),
    setup.command ? `The project's test command: ${setup.command}.` : '',
    setup.naming_pattern ? `Its test files are named ${setup.naming_pattern}.` : '',
    'Write only the body of each test: AMTP writes the test function (named with the case id), the imports listed for its file, and the file itself.',
  ]
    .filter(Boolean)
    .join('\n');
}

export const engineerBatching: AgentBatching<'engineer'> = {
  plan({ plan, map }, ctx): PlannedBatch<'engineer'>[] {
    const framework = resolveFramework(ctx.framework, plan.project);
    const fp = planFiles(plan, framework, ctx.ownTestFile);
    const fixed = estimateTokens({ project: plan.project, conventions: conventions(plan, framework) }) + 128;
    const items = fp.groups.flatMap((g) =>
      g.cases.map((c) => ({
        value: { g, c },
        inTokens: estimateTokens(c) + estimateTokens(symbolInfo(map, c.target.file, c.target.symbol)) + 40,
        outTokens: OUT_PER_CASE,
      })),
    );
    const batches = pack(items, ctx.budget, fixed);
    return batches.map((batch, i) => {
      const groups = [...new Set(batch.map((b) => b.g))];
      const symbols = new Map<string, Symbol>();
      for (const { c } of batch) symbols.set(`${c.target.file}#${c.target.symbol}`, symbolInfo(map, c.target.file, c.target.symbol));
      const payload: EngineerInput = {
        schema_version: '1',
        framework,
        project: plan.project,
        view: { batch: i + 1, of: batches.length, cases: plan.cases.length },
        files: groups.map((g) => {
          const cases = batch.filter((b) => b.g === g).map((b) => b.c);
          return {
            path: g.path,
            target: g.target,
            imports: importLines(fp.renderer, g, cases),
            names: bindingsFor(g, cases).map((b) => b.local),
          };
        }),
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
