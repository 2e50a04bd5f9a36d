// The Repo Crawler's batches: views of the static map, a few key files each (with their source
// samples and the usage examples that name them), sized by the token budget. The model answers
// with an RFC 6902 patch against its view; AMTP applies it and folds the view back into the map,
// so the map is never echoed.
import { applyPatch, deepClone, validate as validatePatch, type Operation } from 'fast-json-patch';
import type { CrawlerOutput, CrawlerPatch, KeyFile } from '../../contracts/types';
import type { AgentBatching, PlannedBatch } from '../batching';
import { validate } from '../../contracts/validate';
import { cutToTokens, estimateTokens, pack, type Item } from '../budget';
import { boundNotes, droppedOperation } from './notes';

type Example = CrawlerOutput['usage_examples'][number];
type Sample = NonNullable<CrawlerOutput['samples']>[number];

/** The part of the map every view carries: small, and what a reader needs to make sense of a module. */
export function mapBase(map: CrawlerOutput): CrawlerOutput {
  const { key_files: _k, usage_examples: _u, samples: _s, skipped: _sk, view: _v, ...rest } = map;
  return { ...rest, key_files: [], usage_examples: [], skipped: [] };
}

/**
 * Each usage example goes with a key file that exports a symbol it names. Several files can export
 * the same name (pred.js's function is also called `succ`; every plugin of a package can default-export
 * a function): the package's own entry wins, then a file whose name the example calls (`pred(…)` → pred.js), then map order.
 */
export function modulesWithExamples(map: CrawlerOutput): { modules: (Work & { file: KeyFile })[]; orphans: Example[] } {
  const modules: (Work & { file: KeyFile })[] = map.key_files.map((file) => ({
    file,
    examples: [],
    sample: map.samples?.find((s) => s.path === file.path),
  }));
  const mainEntries = new Set(
    map.entry_points.filter((e) => (e.kind !== 'exports' || e.name === '.') && e.kind !== 'bin').map((e) => e.path),
  );
  const calledByFileName = (m: Work & { file: KeyFile }, code: string) => {
    const base = m.file.path.replace(/^.*\//, '').replace(/\..*$/, '');
    return /^[A-Za-z_$][\w$]*$/.test(base) && new RegExp(`(^|[^\\w$.])${base.replace(/\$/g, '\\$')}\\s*\\(`, 'm').test(code);
  };
  const orphans: Example[] = [];
  for (const ex of map.usage_examples) {
    const named = modules.filter((m) => m.file.symbols.some((s) => ex.symbols.includes(s.name)));
    const owner = named.find((m) => mainEntries.has(m.file.path)) ?? named.find((m) => calledByFileName(m, ex.code)) ?? named[0];
    if (owner) owner.examples.push(ex);
    else orphans.push(ex);
  }
  return { modules, orphans };
}

/** Expected reply tokens: so many per symbol and per usage example of a view (0: not sized by the reply). */
export interface ReplyEstimate {
  perSymbol: number;
  perExample: number;
}

const NO_REPLY: ReplyEstimate = { perSymbol: 0, perExample: 0 };

/** A module with its examples, or usage examples that name no key file's symbol. */
type Work = { file?: KeyFile; examples: Example[]; sample?: Sample };

function cutSample(s: Sample, tokens: number): Sample {
  const { text, cut } = cutToTokens(s.content, tokens);
  return { path: s.path, content: text, truncated: s.truncated || cut };
}

/**
 * Plans views: key files in map order (then any examples no key file claims), packed by the input
 * budget. A module's source sample is cut to at most half the room, so a view always has space for
 * the facts about its module. `out` sizes batches by their expected reply too: so many tokens per
 * symbol and per usage example (each documented example tends to become a case of its own).
 */
export function planViews(
  map: CrawlerOutput,
  payloadTokens: number,
  out: ReplyEstimate = NO_REPLY,
  outputTokens = Infinity,
): CrawlerOutput[] {
  const base = mapBase(map);
  const room = Math.max(256, payloadTokens - estimateTokens(base) - 64);
  const sampleTokens = Math.floor(room / 2);
  const { modules, orphans } = modulesWithExamples(map);
  // A part's expected reply must fit the output bound too: a 270-export index is many parts.
  const work: Work[] = [
    ...modules.flatMap((m) => splitModule(m, room, sampleTokens, out, outputTokens)),
    ...(orphans.length ? [{ examples: orphans }] : []),
  ];
  const items: Item<Work>[] = work.map((w) => ({
    value: w,
    inTokens:
      estimateTokens(w.file ?? '') + estimateTokens(w.examples) + (w.sample ? Math.min(sampleTokens, estimateTokens(w.sample.content)) : 0),
    outTokens: out.perSymbol * Math.max(1, w.file?.symbols.length ?? 0) + out.perExample * w.examples.length,
  }));
  const groups = pack(items, { payloadTokens: room, outputTokens });
  if (!groups.length) groups.push([]);
  return groups.map((g, i) => {
    const samples = g.flatMap((w) => (w.sample ? [cutSample(w.sample, sampleTokens)] : []));
    return {
      ...base,
      key_files: g.flatMap((w) => (w.file ? [w.file] : [])),
      usage_examples: g.flatMap((w) => w.examples),
      ...(samples.length ? { samples } : {}),
      view: { batch: i + 1, of: groups.length, modules: map.key_files.length },
    };
  });
}

/**
 * A module too large for one view (its facts exceed the input room, or its symbols' expected
 * cases the output bound) is shown in parts, each with some of its symbols (and the examples
 * that name them); the source sample goes with the first part. Nothing is dropped.
 */
function splitModule(w: Work & { file: KeyFile }, room: number, sampleTokens: number, out: ReplyEstimate, outputTokens: number): Work[] {
  const sampleCost = w.sample ? Math.min(sampleTokens, estimateTokens(w.sample.content)) : 0;
  const expected = (symbols: number, examples: number) => out.perSymbol * symbols + out.perExample * examples;
  if (
    expected(w.file.symbols.length, w.examples.length) <= outputTokens &&
    estimateTokens(w.file) + estimateTokens(w.examples) + sampleCost <= room
  )
    return [w];
  const header = estimateTokens({ ...w.file, symbols: [] });
  const parts: Work[] = [];
  let symbols: KeyFile['symbols'] = [];
  let used = header + sampleCost;
  let replyUsed = 0;
  const flush = () => {
    if (!symbols.length) return;
    const names = new Set(symbols.map((x) => x.name));
    parts.push({
      file: { ...w.file, symbols },
      examples: w.examples.filter((e) => e.symbols.some((n) => names.has(n))),
      ...(parts.length ? {} : w.sample ? { sample: w.sample } : {}),
    });
    symbols = [];
    used = header;
    replyUsed = 0;
  };
  // A class and its methods stay in one part: an example calling a method on an instance of the
  // class is resolved against both.
  for (const group of classGroups(w.file.symbols)) {
    const named = w.examples.filter((e) => group.some((sym) => e.symbols.includes(sym.name)));
    const cost = estimateTokens(group) + estimateTokens(named);
    const reply = expected(group.length, named.length);
    if (symbols.length && (used + cost > room || replyUsed + reply > outputTokens)) flush();
    symbols.push(...group);
    used += cost;
    replyUsed += reply;
  }
  flush();
  return parts;
}

/** Symbols in order, a class's methods (`Cls.m`) grouped with the class. */
export function classGroups(symbols: KeyFile['symbols']): KeyFile['symbols'][] {
  const groups: KeyFile['symbols'][] = [];
  const byClass = new Map<string, KeyFile['symbols']>();
  for (const sym of symbols) {
    const owner = sym.name.includes('.') ? byClass.get(sym.name.slice(0, sym.name.indexOf('.'))) : undefined;
    if (owner) owner.push(sym);
    else {
      const group = [sym];
      groups.push(group);
      if (sym.kind === 'class') byClass.set(sym.name, group);
    }
  }
  return groups;
}

/**
 * A view in two halves: its key files (or a lone module's symbols, or its loose examples) cut in
 * the middle. Each example goes to the first half that exports a symbol it names (else the first);
 * a module's source sample goes with its first part. Nothing is dropped or shown twice.
 */
export function splitView(v: CrawlerOutput): [CrawlerOutput, CrawlerOutput] | undefined {
  const half = <T>(xs: T[]): [T[], T[]] => [xs.slice(0, Math.ceil(xs.length / 2)), xs.slice(Math.ceil(xs.length / 2))];
  let files: [KeyFile[], KeyFile[]];
  if (v.key_files.length >= 2) files = half(v.key_files);
  else if (v.key_files.length === 1 && v.key_files[0].symbols.length >= 2) {
    const [a, b] = half(v.key_files[0].symbols);
    files = [[{ ...v.key_files[0], symbols: a }], [{ ...v.key_files[0], symbols: b }]];
  } else if (v.key_files.length === 0 && v.usage_examples.length >= 2) {
    const [a, b] = half(v.usage_examples);
    return [
      { ...v, usage_examples: a },
      { ...v, usage_examples: b },
    ];
  } else return undefined;
  const names = files.map((fs) => new Set(fs.flatMap((f) => f.symbols.map((x) => x.name))));
  const examples: [Example[], Example[]] = [[], []];
  for (const ex of v.usage_examples)
    examples[ex.symbols.some((n) => names[0].has(n)) || !ex.symbols.some((n) => names[1].has(n)) ? 0 : 1].push(ex);
  const samplesOf = (i: 0 | 1): Sample[] => {
    const paths = new Set(files[i].map((f) => f.path));
    // A module cut in two keeps its sample in the first part only.
    return (v.samples ?? []).filter((x) => paths.has(x.path) && !(i === 1 && files[0].some((f) => f.path === x.path)));
  };
  const part = (i: 0 | 1): CrawlerOutput => {
    const { samples: _s, ...rest } = v;
    const samples = samplesOf(i);
    return { ...rest, key_files: files[i], usage_examples: examples[i], ...(samples.length ? { samples } : {}) };
  };
  return [part(0), part(1)];
}

function keyOf(v: CrawlerOutput): string {
  const paths = v.key_files.map((f) => (f.symbols.length ? `${f.path}#${f.symbols[0].name}` : f.path));
  return paths.length ? paths.join(',') : `examples:${v.usage_examples.map((e) => `${e.source}:${e.line}`).join(',')}`;
}

/**
 * The patch applied to a copy of its view, one operation at a time. An operation that does not
 * apply (a path the view lacks) or whose result breaks the map's contract (a "throws" entry that is
 * an object, not a string) is dropped, and a note says which and why: one wrong guess by a model
 * costs that correction, never the run. Pure, so checking a reply and merging it agree.
 */
export function applyToView(v: CrawlerOutput, patch: CrawlerPatch['patch']): CrawlerOutput {
  let doc = deepClone(v) as CrawlerOutput;
  const dropped: string[] = [];
  (patch as Operation[]).forEach((op, i) => {
    // fast-json-patch's messages go on to print the operation and the whole document: only their first line is kept.
    const problem = validatePatch([op], doc);
    if (problem) return void dropped.push(droppedOperation(i, op, problem.message));
    let next: CrawlerOutput;
    try {
      next = applyPatch(deepClone(doc), [op], false, false).newDocument as CrawlerOutput;
    } catch (e) {
      return void dropped.push(droppedOperation(i, op, (e as Error).message));
    }
    const r = validate('crawler-output', next);
    if (!r.ok)
      return void dropped.push(
        droppedOperation(
          i,
          op,
          r.errors
            .slice(0, 2)
            .map((x) => `${x.path || '/'} ${x.message}`)
            .join('; '),
        ),
      );
    doc = next;
  });
  const notes = [...(doc.notes ?? []), ...dropped];
  return notes.length ? { ...doc, notes: boundNotes(notes) } : doc;
}

export const crawlerBatching: AgentBatching<'crawler'> = {
  plan(map, ctx): PlannedBatch<'crawler'>[] {
    // Every path the prompt names exists in the view: `/notes/-` appends to a list that is there.
    return planViews(withoutSpans(map), ctx.budget.payloadTokens).map((v) => ({ key: keyOf(v), payload: { ...v, notes: v.notes ?? [] } }));
  },

  split: splitView,

  merge(map, done) {
    const views = done.map((d) => d.payload);
    const outputs = done.map((d) => d.output);
    const merged: CrawlerOutput = deepClone(map);
    const notes = new Set(merged.notes ?? []);
    const seenExamples = new Set(merged.usage_examples.map(exampleKey));
    let setupTaken = false;
    const parts = new Map<string, KeyFile[]>();
    const known = new Set(map.key_files.map((k) => k.path));
    views.forEach((v, i) => {
      const patched = applyToView(v, outputs[i]?.patch ?? []);
      for (const f of patched.key_files) {
        // A view may correct the files it was shown; it cannot invent one.
        if (known.has(f.path)) parts.set(f.path, [...(parts.get(f.path) ?? []), f]);
        else notes.add(`batch ${i + 1} described ${f.path}, which its view did not show; ignored`);
      }
      for (const ex of patched.usage_examples) {
        if (!seenExamples.has(exampleKey(ex))) merged.usage_examples.push(ex);
        seenExamples.add(exampleKey(ex));
      }
      if (!setupTaken && JSON.stringify(patched.test_setup) !== JSON.stringify(v.test_setup)) {
        merged.test_setup = patched.test_setup;
        setupTaken = true;
      }
      for (const n of patched.notes ?? []) notes.add(n);
    });
    // A module shown in parts (a large one) gets its symbols back in order.
    merged.key_files = map.key_files.map((k) => {
      const p = parts.get(k.path);
      return p ? withSpans(k, { ...p[0], symbols: p.flatMap((x) => x.symbols) }) : k;
    });
    if (notes.size) merged.notes = boundNotes(notes);
    return merged;
  },
};

/**
 * The map without what AMTP derives for the later agents (each symbol's `calls`, each file's
 * `helpers`): the crawler's job is the facts a sample can prove, and its views stay small.
 */
function withoutSpans(map: CrawlerOutput): CrawlerOutput {
  return {
    ...map,
    key_files: map.key_files.map(({ helpers: _h, ...k }) => ({ ...k, symbols: k.symbols.map(({ calls: _c, ...sym }) => sym) })),
  };
}

/** A patched key file with the derived fields of the original put back, symbol by symbol. */
function withSpans(original: KeyFile, patched: KeyFile): KeyFile {
  const calls = new Map(original.symbols.map((x) => [x.name, x.calls]));
  return {
    ...patched,
    ...(original.helpers ? { helpers: original.helpers } : {}),
    symbols: patched.symbols.map((x) => {
      const c = calls.get(x.name);
      return c && !x.calls ? { ...x, calls: c } : x;
    }),
  };
}

function exampleKey(e: Example): string {
  return `${e.source}:${e.line}:${e.code}`;
}
