// A coverage round's batches (rounds.ts): each function the kept suite leaves partly uncovered (or
// whose mutants survive), with its whole source and helpers (agents/engineer/batches.ts symbolInfo),
// its uncovered lines and branch arms, its kept tests and the ids its new tests take; packed by
// measured size into batches that fit the input budget. Pure: the same state, the same batches.
import { estimateTokens, pack, type Budget } from '../agents/budget';
import { symbolInfo } from '../agents/engineer/batches';
import { caseId } from '../agents/generator/caseId';
import type { CrawlerOutput, RoundInput } from '../contracts/types';
import { importHeader } from './importHeader';
import type { SurvivingMutant } from '../core/mutants';
import type { TestFileState, VerifyState } from './state';
import { testSource } from './testFile';
import type { UncoveredFunction } from './uncovered';

export type RoundTargetDoc = RoundInput['targets'][number];

export interface RoundBatch {
  key: string;
  files: RoundInput['files'];
  targets: RoundTargetDoc[];
}

/** New tests asked per function and round. */
const TESTS_PER_TARGET = 3;
const OUT_PER_TEST = 400;
/** Kept tests shown per function: enough to see how they call it. */
const MAX_SHOWN_TESTS = 3;

/** The round's targets, in the order uncoveredFunctions gives (most uncovered first); functions whose tests live in no AMTP file are left out. */
export function roundTargets(
  s: VerifyState,
  map: CrawlerOutput,
  fns: UncoveredFunction[],
  mutants: Map<string, SurvivingMutant[]>,
  round: number,
  room: number,
): { target: RoundTargetDoc; file: TestFileState }[] {
  const out: { target: RoundTargetDoc; file: TestFileState }[] = [];
  for (const fn of fns) {
    const file = testFileFor(s, fn.file);
    if (!file) continue;
    const name = fn.symbol.name;
    const info = symbolInfo(map, fn.file, name, Math.floor(room / 2));
    if (!info.source || !info.line) continue;
    const tests = file.ids
      .filter((id) => s.caseOf.get(id)?.target.symbol === name && s.results.get(id)?.outcome === 'passing')
      .slice(0, MAX_SHOWN_TESTS)
      .flatMap((id) => testSource(file.path, file.content, id) ?? []);
    const survivors = mutants.get(`${fn.file}#${name}`) ?? [];
    out.push({
      file,
      target: {
        file: fn.file,
        symbol: name,
        test_file: file.path,
        case_ids: Array.from({ length: TESTS_PER_TARGET }, (_, k) =>
          caseId(`${fn.file}#${name}`, `coverage round ${round}, test ${k + 1}`),
        ),
        ...(info.signature ? { signature: info.signature } : {}),
        ...(info.doc ? { doc: info.doc } : {}),
        line: info.line,
        source: info.source,
        ...(info.helpers?.length ? { helpers: info.helpers } : {}),
        uncovered_lines: fn.lines,
        uncovered_branches: fn.branches,
        ...(survivors.length ? { mutants: survivors.map((m) => ({ id: m.id, diff: m.diff })) } : {}),
        tests,
      },
    });
  }
  return out;
}

/** AMTP's own test file of a module (never the person's), by the targets of the cases it holds. */
function testFileFor(s: VerifyState, module: string): TestFileState | undefined {
  return s.files.find((f) => !f.personal && f.ids.some((id) => s.caseOf.get(id)?.target.file === module));
}

export function packRound(items: { target: RoundTargetDoc; file: TestFileState }[], budget: Budget): RoundBatch[] {
  const entry = (f: TestFileState, module: string) => ({ path: f.path, target: module, imports: importHeader(f.path, f.content).text });
  const packed = pack(
    items.map((it) => ({
      value: it,
      // measured: the target and its file's entry (counted again for each target: an upper bound)
      inTokens: estimateTokens(it.target) + estimateTokens(entry(it.file, it.target.file)) + 16,
      outTokens: OUT_PER_TEST * it.target.case_ids.length,
    })),
    budget,
  );
  return packed.map((group) => {
    const files = [...new Set(group.map((g) => g.file))].map((f) => entry(f, group.find((g) => g.file === f)!.target.file));
    return { key: group.map((g) => `${g.target.file}#${g.target.symbol}`).join(','), files, targets: group.map((g) => g.target) };
  });
}
