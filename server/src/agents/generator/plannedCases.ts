// Smoke, error and property cases: the ones planned from signatures and from other cases.
import type { Oracle, SymbolInfo, TestCase } from '../../contracts/types';
import { caseId } from './caseId';
import { bindingFor, targetOf, type ModuleInfo } from './modules';
import { priorityOf } from './priority';

export function smokeCase(mod: ModuleInfo, symbol: SymbolInfo, inReadme: boolean): TestCase {
  const { binding, access } = bindingFor(mod, symbol);
  const target = targetOf(mod, symbol);
  const callable = symbol.kind === 'function' || symbol.kind === 'class' || symbol.kind === 'method';
  const oracle: Oracle = callable
    ? {
        kind: 'type',
        language: mod.language,
        call: access,
        expected: mod.language === 'python' ? 'callable' : "'function'",
        bindings: [binding],
      }
    : { kind: 'exports', language: mod.language, call: access, bindings: [binding] };
  const documented = inReadme || !!symbol.doc;
  const shape = callable
    ? `is ${mod.language === 'python' ? 'callable' : 'a function'}${target.arity !== undefined ? ` taking ${target.arity} declared parameter(s)` : ''}`
    : 'is defined';
  return {
    id: caseId(`${target.file}#${target.symbol}`, 'smoke:export-shape'),
    title: `${access} ${shape}`,
    target,
    kind: 'smoke',
    priority: priorityOf({ kind: 'smoke', readme: inReadme, entry: mod.entry, documented }),
    preconditions: [`${target.file} loads without error`],
    steps: [`import ${access} from ${target.import_specifier ?? target.file}`],
    expected: [`${access} ${shape}`],
    rationale: 'A consumer first needs the export to exist with the documented shape; a rename or a broken module load fails here.',
    evidence: {
      source: symbol.signature ? 'signature' : 'source',
      location: `${mod.file.path}:${symbol.line ?? 1}`,
      ...(symbol.signature ? { snippet: symbol.signature } : {}),
    },
    oracle,
  };
}

/** Errors the code or docs state. Covered by a documented throwing example → no extra case. */
export function errorCases(mod: ModuleInfo, symbol: SymbolInfo, examples: TestCase[]): TestCase[] {
  const target = targetOf(mod, symbol);
  const covered = examples.some((c) => c.target.file === target.file && c.target.symbol === target.symbol && c.oracle?.kind === 'throws');
  if (covered || !symbol.throws?.length) return [];
  const documented =
    (!!symbol.doc && /\bthrows?\b|\braises?\b|@throws/i.test(symbol.doc)) || symbol.throws.some((t) => /^[\w$.]+:\s+\S/.test(t));
  return [...new Set(symbol.throws)].map((error) => ({
    id: caseId(`${target.file}#${target.symbol}`, `error:${error}`),
    // Crawlers report `@throws {Error} when …` as "Error: when …": the title keeps the name.
    title: `${target.symbol} throws ${/^[A-Za-z_$][\w$.]*(?=:|$)/.exec(error)?.[0] ?? 'an error'} on input it rejects`,
    target,
    kind: 'error' as const,
    priority: priorityOf({ kind: 'error', readme: false, entry: mod.entry, documented }),
    preconditions: [`${target.file} is importable`],
    steps: [`call ${target.symbol} with an input the ${documented ? 'documentation' : 'source'} says is rejected`],
    expected: [`throws ${error}`],
    rationale: `The ${documented ? 'documentation states' : 'source throws'} ${error}; callers depend on invalid input failing loudly.`,
    evidence: {
      source: documented ? ('jsdoc' as const) : ('throws' as const),
      location: `${mod.file.path}:${symbol.line ?? 1}`,
      snippet: error,
    },
  }));
}

/**
 * Deep cases that need no new expected value: a documented call gives the same result twice
 * (determinism), and a symbol's documented calls keep their results when run back to back in
 * reverse order (no hidden state). Examples with setup are left out: setup may mutate state.
 */
export function propertyCases(examples: TestCase[]): TestCase[] {
  const pure = examples.filter(
    (c) => c.oracle && !c.oracle.setup && c.oracle.kind !== 'throws' && c.oracle.expected !== undefined && c.oracle.call,
  );
  const stateful = new Set(examples.filter((c) => c.oracle?.setup).map((c) => c.target.file));
  const bySymbol = new Map<string, TestCase[]>();
  for (const c of pure) {
    if (stateful.has(c.target.file)) continue;
    const key = `${c.target.file}#${c.target.symbol}`;
    bySymbol.set(key, [...(bySymbol.get(key) ?? []), c]);
  }
  const out: TestCase[] = [];
  for (const [key, group] of bySymbol) {
    const first = group[0];
    const o = first.oracle!;
    out.push({
      ...base(first, key, `property:deterministic:${o.call}`),
      title: `${o.call} gives the same result on a second call`,
      kind: 'property',
      priority: 'P3',
      steps: [`evaluate ${o.call} twice`],
      expected: ['both results are deeply equal', `and equal the documented ${o.expected}`],
      rationale: 'A documented pure conversion must be deterministic; caching or shared mutable state breaks this.',
      oracle: { ...o, property: 'deterministic' },
    });
    if (group.length < 2) continue;
    const sequence = [...group]
      .reverse()
      .map((c) => ({ call: c.oracle!.call!, expected: c.oracle!.expected!, kind: c.oracle!.kind as 'equals' | 'deep_equals' | 'prints' }));
    const bindings = uniqueBindings(group.flatMap((c) => c.oracle!.bindings ?? []));
    out.push({
      ...base(first, key, `combinatorial:reverse:${sequence.map((s) => s.call).join('|')}`),
      title: `${group.length} documented calls of ${first.target.symbol} keep their results in reverse order`,
      kind: 'combinatorial',
      priority: 'P3',
      steps: sequence.map((s) => `evaluate ${s.call}`),
      expected: ['each call returns its documented result regardless of the calls before it'],
      rationale: 'Each example is documented in isolation; running them back to back in another order exposes hidden state.',
      oracle: {
        kind: first.oracle!.kind,
        language: o.language,
        property: 'order_independent',
        sequence,
        ...(bindings.length ? { bindings } : {}),
      },
    });
  }
  return out;
}

function base(from: TestCase, key: string, scenario: string): Pick<TestCase, 'id' | 'target' | 'preconditions' | 'evidence'> {
  return {
    id: caseId(key, scenario),
    target: from.target,
    preconditions: from.preconditions,
    ...(from.evidence ? { evidence: from.evidence } : {}),
  };
}

function uniqueBindings<T extends { local: string }>(bs: T[]): T[] {
  const seen = new Map<string, T>();
  for (const b of bs) if (!seen.has(b.local)) seen.set(b.local, b);
  return [...seen.values()];
}
