import type { CrawlerOutput, TestCase, TestCases } from '../../contracts/types';
import type { Depth } from '../../core/frameworks';
import { exampleCase, type ExampleSource } from './exampleCases';
import { hasDoctest, parseDoctest } from './doctest';
import type { ParsedSnippet } from './examples';
import { namespaceAliases } from '../crawler/namespaceAliases';
import { newSnippetContext, parseJsSnippet, type SnippetContext } from './jsExamples';
import { inPlaceExample } from './inPlace';
import { looksRandom, readsOutside } from './random';
import { keepValidCases } from './schemaGuard';
import { describeModules, targetOf, type ModuleInfo } from './modules';
import { errorCases, propertyCases, smokeCase } from './plannedCases';
import { projectBlock } from './project';
import { resolveExample } from './resolve';

const JS_LANGS = /^(?:js|javascript|jsx|ts|typescript|tsx|mjs|cjs|node|)$/i;
const PY_LANGS = /^(?:py|python|python3|pycon|pytb|)$/i;

/**
 * The offline Test Case Generator: plans cases from what the crawler map documents.
 * smoke: each symbol's first documented example, else its export shape and arity; standard: + documented examples and errors;
 * deep: + determinism and order-independence of the documented calls.
 */
export function generateCases(map: CrawlerOutput, depth: Depth): TestCases {
  const mods = describeModules(map);
  const cases: TestCase[] = [];
  const notPlanned: NonNullable<TestCases['not_planned']> = [];
  const readmeSymbols = new Set(map.usage_examples.flatMap((u) => u.symbols));

  const behaviour: TestCase[] = [];
  // A symbol's own @example that runs through the entry point (`R.add(2, 3)`) covers the symbol too.
  const coveredElsewhere = new Set<string>();
  const examples = collectExamples(map, mods, notPlanned, coveredElsewhere);
  // smoke: one basic call per symbol, its first documented example (an existence check alone is
  // dropped by the verifier's adds-coverage filter: it covers nothing beyond loading).
  if (depth === 'smoke') behaviour.push(...firstPerTarget(examples));
  else {
    behaviour.push(...examples);
    for (const mod of mods) for (const symbol of mod.runtime) behaviour.push(...errorCases(mod, symbol, examples));
    if (depth === 'deep') behaviour.push(...propertyCases(examples));
  }
  // An existence/arity check only where nothing better is planned for the symbol (existence.ts).
  // An entry point re-exports what the files define: a tested `index.js#valid` covers `functions/valid.js#valid`.
  const entryFiles = new Set(mods.filter((m) => m.entry).map((m) => targetOf(m, undefined).file));
  const viaEntry = new Set(behaviour.filter((c) => entryFiles.has(c.target.file)).map((c) => c.target.symbol));
  const covered = new Set([...behaviour.map((c) => `${c.target.file}#${c.target.symbol}`), ...coveredElsewhere]);
  for (const mod of mods) {
    for (const s of mod.file.symbols) {
      if (s.exported && (s.kind === 'type' || s.kind === 'interface'))
        notPlanned.push({ target: `${mod.file.path}#${s.name}`, reason: 'type-only export: nothing to run' });
    }
    for (const symbol of mod.runtime) {
      const smoke = smokeCase(mod, symbol, readmeSymbols.has(symbol.name) || readmeSymbols.has(mod.local));
      if (!(covered.has(`${smoke.target.file}#${smoke.target.symbol}`) || (!mod.entry && viaEntry.has(symbol.name)))) cases.push(smoke);
    }
  }
  cases.push(...behaviour);

  return keepValidCases({
    schema_version: '1',
    depth_level: depth,
    project: projectBlock(map),
    cases: statefulLast(dedupe(cases)),
    ...(notPlanned.length ? { not_planned: notPlanned } : {}),
  });
}

function firstPerTarget(cases: TestCase[]): TestCase[] {
  const seen = new Set<string>();
  return cases.filter((c) => {
    const key = `${c.target.file}#${c.target.symbol}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function collectExamples(
  map: CrawlerOutput,
  mods: ModuleInfo[],
  notPlanned: NonNullable<TestCases['not_planned']>,
  coveredElsewhere: Set<string>,
): TestCase[] {
  const out: TestCase[] = [];
  const take = (parsed: ParsedSnippet, src: ExampleSource, preferred?: ModuleInfo, owner?: string) => {
    for (const s of parsed.skipped) notPlanned.push({ target: `${src.location}+${s.line}`, reason: s.reason });
    for (const ex of parsed.examples) {
      const r = resolveExample(ex, mods, preferred);
      const random = r && (looksRandom(ex, r.symbol) ?? readsOutside(ex, r.symbol));
      if (random) notPlanned.push({ target: `${src.location}+${ex.line}`, reason: random });
      else if (r) {
        if (owner && r.mod !== preferred) coveredElsewhere.add(owner);
        out.push(exampleCase(inPlaceExample(ex, r.symbol), r, { ...src, location: `${src.location}+${ex.line}` }));
      } else
        notPlanned.push({
          target: `${src.location}+${ex.line}`,
          reason: `example '${ex.call.slice(0, 60)}' uses no export of the analysed modules`,
        });
    }
  };
  // Blocks of one document share their bindings in order: `var lib = require('pkg')` in the first
  // block binds `lib` for the calls of the third.
  const contexts = new Map<string, SnippetContext>();
  const docOrder = [...new Set(map.usage_examples.map((u) => u.source))];
  const inOrder = [...map.usage_examples].sort((a, b) => docOrder.indexOf(a.source) - docOrder.indexOf(b.source) || a.line - b.line);
  for (const u of inOrder) {
    const src: ExampleSource = { evidence: 'readme', location: `${u.source}:${u.line}`, readme: /readme/i.test(u.source) };
    if (!contexts.has(u.source)) contexts.set(u.source, { ...newSnippetContext(), namespaces: aliasesOf(map, u.source, mods) });
    const parsed = parseSnippet(u.code, u.lang, mods, map.project.name, contexts.get(u.source));
    if (parsed) take(parsed, src);
  }
  for (const mod of mods) {
    for (const symbol of mod.runtime) {
      const location = `${mod.file.path}:${symbol.line ?? 1}`;
      for (const code of symbol.examples ?? []) {
        const parsed = parseSnippet(code, mod.language === 'python' ? 'python' : 'js', mods, map.project.name);
        if (parsed)
          take(
            parsed,
            { evidence: hasDoctest(code) ? 'doctest' : 'jsdoc', location, readme: false },
            mod,
            `${targetOf(mod, symbol).file}#${targetOf(mod, symbol).symbol}`,
          );
      }
      // Docstrings often carry doctests without the crawler splitting them out as examples.
      if (mod.language === 'python' && symbol.doc && hasDoctest(symbol.doc) && !(symbol.examples ?? []).length) {
        take(parseDoctest(symbol.doc), { evidence: 'doctest', location, readme: false }, mod);
      }
    }
  }
  return out;
}

/**
 * Namespaces a document calls the exports through without binding them (`d3.min(…)`). A batch sees
 * only some blocks of the document, each linked by the crawler to the exports it calls, so one such
 * export called through the name is enough here. Module names (`bytes.format`) are not aliases.
 */
function aliasesOf(map: CrawlerOutput, source: string, mods: ModuleInfo[]): Set<string> {
  const blocks = map.usage_examples.filter((u) => u.source === source && JS_LANGS.test(u.lang));
  const linked = new Set([...mods.flatMap((m) => m.runtime.map((s) => s.name)), ...blocks.flatMap((u) => u.symbols)]);
  const modules = new Set(mods.map((m) => m.local));
  // Members of an analysed entry (`lib.pretty` of a `lib = require('pkg')` this batch may not show)
  // already bind through the entry's module value (resolve.ts): only the other exports count.
  const viaEntry = new Set(mods.filter((m) => m.entry).flatMap((m) => m.runtime.filter((s) => s !== m.main).map((s) => s.name)));
  const aliases = namespaceAliases(
    blocks.map((u) => u.code),
    new Set([...linked].filter((n) => !n.includes('.') && !viaEntry.has(n))),
    1,
  );
  return new Set([...aliases].filter((a) => !modules.has(a)));
}

function parseSnippet(
  code: string,
  lang: string,
  mods: ModuleInfo[],
  projectName: string,
  context?: SnippetContext,
): ParsedSnippet | undefined {
  if (hasDoctest(code) && PY_LANGS.test(lang)) return parseDoctest(code);
  if (!JS_LANGS.test(lang)) return undefined;
  if (!mods.some((m) => m.language !== 'python')) return undefined;
  return parseJsSnippet(code, [projectName, ...mods.flatMap((m) => m.specifiers)], context);
}

/**
 * Examples whose setup does more than declare (e.g. `slugify.extend({…})`) may change module
 * state for every later test in the file, so they run last.
 */
function statefulLast(cases: TestCase[]): TestCase[] {
  const mutates = (c: TestCase) =>
    (c.oracle?.setup ?? '').split('\n').some((l) => l.trim() && !/^(?:const|let|var|import|from)\s|^[A-Za-z_]\w*\s*=[^=]/.test(l.trim()));
  return [...cases.filter((c) => !mutates(c)), ...cases.filter(mutates)];
}

/** The same documented call can appear in a README and a doc comment: keep the first (higher priority). */
function dedupe(cases: TestCase[]): TestCase[] {
  const seen = new Set<string>();
  return cases.filter((c) => !seen.has(c.id) && seen.add(c.id) !== undefined);
}
