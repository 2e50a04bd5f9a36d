// The Test Case Generator's views: a few modules' symbols each, with their documented examples and
// the whole source of every symbol of the view and of the helpers it calls (../sources.ts).
// Batches are packed by the measured size of what they carry, so a batch is split before a source
// is ever cut; only a declaration too large for a batch on its own is shown as an outline.
import type { CrawlerOutput, KeyFile, SymbolInfo, SymbolSource } from '../../contracts/types';
import { estimateTokens, pack, type Item } from '../budget';
import { classGroups, mapBase, modulesWithExamples, splitView, type ReplyEstimate } from '../crawler/batches';
import { dedupeSources, helperSources, outlineSource, symbolSource } from '../sources';
import { excerptFor, viewExamples } from './exampleExcerpts';

type Example = CrawlerOutput['usage_examples'][number];

/** What packs: a class with its methods (or one symbol) of a module, the examples that name them and their sources. */
interface Unit {
  file?: KeyFile;
  symbols: SymbolInfo[];
  examples: Example[];
  sources: SymbolSource[];
}

/** Room the envelope's own JSON (view, arrays, separators) takes beside the parts measured. */
const SLACK_TOKENS = 64;

export function generatorViews(map: CrawlerOutput, payloadTokens: number, out: ReplyEstimate, outputTokens: number): CrawlerOutput[] {
  const base = mapBase(map);
  const room = Math.max(256, payloadTokens - estimateTokens(base) - SLACK_TOKENS);
  const { modules, orphans } = modulesWithExamples(map);
  // Every unit gets the examples that name its symbols (./exampleExcerpts.ts), not only the module an example was assigned to.
  const claimed = new Set(map.usage_examples.filter((e) => !orphans.includes(e)));
  const units: Unit[] = modules.flatMap(({ file }) =>
    classGroups(file.symbols).map((symbols) => fitUnit(map, file, symbols, [...claimed], room)),
  );
  if (orphans.length) units.push({ symbols: [], examples: orphans, sources: [] });
  const items: Item<Unit>[] = units.map((u) => ({
    value: u,
    inTokens: costOf(u),
    outTokens: out.perSymbol * Math.max(1, u.symbols.length) + out.perExample * u.examples.length,
  }));
  const groups = pack(items, { payloadTokens: room, outputTokens });
  if (!groups.length) groups.push([]);
  const reply = replyRoom(outputTokens);
  return groups.map((g, i) => ({
    ...viewOf(base, g),
    view: { batch: i + 1, of: groups.length, modules: map.key_files.length, ...(reply ? { reply } : {}) },
  }));
}

/** What one planned case takes in a reply, all its required fields written (the relay runs: 51 cases ≈ 5.6k tokens). */
const TOKENS_PER_PLANNED_CASE = 120;

/** The reply's room as the envelope states it (view.reply): its bound, and how many cases fit in it. */
function replyRoom(outputTokens: number): { max_tokens: number; cases: number } | undefined {
  if (!Number.isFinite(outputTokens) || outputTokens < 1) return undefined;
  return { max_tokens: outputTokens, cases: Math.max(1, Math.floor(outputTokens / TOKENS_PER_PLANNED_CASE)) };
}

/** One unit, its sources whole when they fit the room; else outlines (largest first) until they do. */
function fitUnit(map: CrawlerOutput, file: KeyFile, symbols: SymbolInfo[], all: Example[], room: number): Unit {
  const names = new Set(symbols.map((s) => s.name));
  const examples = all.flatMap((e) => excerptFor(e, names) ?? []);
  const own = symbols.flatMap((s) => {
    const src = symbolSource(map, file.path, s);
    return src ? [src] : [];
  });
  const helpers = symbols.flatMap((s) => helperSources(map, file.path, s));
  const unit: Unit = { file: { ...file, symbols }, symbols, examples, sources: dedupeSources([...own, ...helpers]) };
  // Too large alone: helpers go first (the targets' own code matters most), then the largest targets become outlines.
  if (costOf(unit) > room) unit.sources = dedupeSources(own);
  const bySize = [...symbols].sort((a, b) => (b.end_line ?? 0) - (b.line ?? 0) - ((a.end_line ?? 0) - (a.line ?? 0)));
  for (const s of bySize) {
    if (costOf(unit) <= room) break;
    const outline = outlineSource(map, file.path, s);
    if (!outline) continue;
    unit.sources = dedupeSources([...unit.sources.filter((x) => x.name !== s.name), outline]);
  }
  return unit;
}

function costOf(u: Unit): number {
  const header = u.file ? estimateTokens({ ...u.file, symbols: [] }) : 0;
  return header + estimateTokens(u.symbols) + estimateTokens(u.examples) + estimateTokens(u.sources) + 8;
}

/** A batch's units as a view: each module once (its symbols in order), the examples and sources once each. */
function viewOf(base: CrawlerOutput, units: Unit[]): CrawlerOutput {
  const files: KeyFile[] = [];
  for (const u of units) {
    if (!u.file) continue;
    const had = files.find((f) => f.path === u.file!.path);
    if (had) had.symbols = [...had.symbols, ...u.symbols];
    else files.push({ ...u.file, symbols: [...u.symbols] });
  }
  const names = new Set(units.flatMap((u) => u.symbols.map((s) => s.name)));
  const examples = viewExamples(
    units.flatMap((u) => u.examples),
    names,
  );
  const sources = dedupeSources(units.flatMap((u) => u.sources));
  return { ...base, key_files: files, usage_examples: examples, ...(sources.length ? { sources } : {}) };
}

/** A view in two halves (a reply cut at the output bound): splitView's halves, each with the sources its own symbols need. */
export function splitGeneratorView(v: CrawlerOutput): [CrawlerOutput, CrawlerOutput] | undefined {
  const halves = splitView(v);
  if (!halves) return undefined;
  return halves.map((h) => {
    const { sources, ...rest } = h;
    const kept = (sources ?? []).filter((s) => needed(h.key_files, s));
    return { ...rest, ...(kept.length ? { sources: kept } : {}) };
  }) as [CrawlerOutput, CrawlerOutput];
}

function needed(files: KeyFile[], s: SymbolSource): boolean {
  // A helper may be another module's declaration (../sources.ts helperSources): any symbol of the half that calls it needs it.
  if (s.helper === true && files.some((f) => f.symbols.some((sym) => (sym.calls ?? []).includes(s.name)))) return true;
  const file = files.find((f) => f.path === s.path);
  return !!file?.symbols.some((sym) => sym.name === s.name || sym.name.startsWith(`${s.name}.`));
}
