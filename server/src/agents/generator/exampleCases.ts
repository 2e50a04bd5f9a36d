// Documented examples (README, @example, doctest) → example/boundary/error cases with oracles.
import type { Oracle, TestCase } from '../../contracts/types';
import { isStructured, parseLiteral } from '../../frameworks/literals';
import { caseId } from './caseId';
import type { DocExample } from './examples';
import { targetOf } from './modules';
import { priorityOf } from './priority';
import type { ResolvedExample } from './resolve';

export interface ExampleSource {
  evidence: NonNullable<TestCase['evidence']>['source'];
  location: string;
  readme: boolean;
}

export function exampleCase(ex: DocExample, r: ResolvedExample, src: ExampleSource): TestCase {
  const target = targetOf(r.mod, r.symbol);
  const language = r.mod.language;
  const oracle = oracleFor(ex, language);
  if (r.bindings.length) oracle.bindings = r.bindings;
  const kind = ex.outcome === 'throws' ? 'error' : hasBoundaryInput(ex.call) ? 'boundary' : 'example';
  const shown =
    ex.outcome === 'throws' ? `throws ${ex.error}` : ex.outcome === 'prints' ? `prints ${ex.expected}` : `returns ${ex.expected}`;
  const title = (
    ex.changedBy
      ? `${oneLine(ex.changedBy)} leaves ${ex.call} equal to ${oneLine(ex.expected ?? '')}`
      : `${oneLine(ex.call)} ${oneLine(shown)}`
  ).slice(0, 160);
  const scenario = `example:${ex.setup.join(';')}|${ex.call}|${ex.outcome}|${ex.expected ?? ex.error}`;
  return {
    id: caseId(`${target.file}#${target.symbol}`, scenario),
    title,
    target,
    kind,
    priority: priorityOf({ kind, readme: src.readme, entry: r.mod.entry || importsPackage(ex), documented: true }),
    preconditions: [
      `${target.file} is importable`,
      ...(ex.setup.length ? [`run the example's setup: ${oneLine(ex.setup.join('; '))}`] : []),
    ],
    steps: [`evaluate ${oneLine(ex.call)}`],
    expected: [expectedText(ex)],
    rationale: `${src.readme ? 'The README' : 'The documentation'} shows this call with its result; a user relies on it.`,
    evidence: { source: src.evidence, location: src.location, snippet: [...ex.setup, ex.call].join('\n').slice(0, 400) },
    oracle,
  };
}

function oracleFor(ex: DocExample, language: Oracle['language']): Oracle {
  const oracle: Oracle = { kind: 'equals', language, call: ex.call };
  if (ex.setup.length) oracle.setup = ex.setup.join('\n');
  if (ex.outcome === 'throws') return { ...oracle, kind: 'throws', error: ex.error };
  oracle.expected = ex.expected;
  if (ex.outcome === 'prints') oracle.kind = 'prints';
  else {
    const lit = parseLiteral(ex.expected ?? '', language === 'python' ? 'python' : 'javascript');
    if (lit && isStructured(lit)) oracle.kind = 'deep_equals';
  }
  return oracle;
}

function expectedText(ex: DocExample): string {
  if (ex.outcome === 'throws') return `throws ${ex.error}`;
  if (ex.outcome === 'prints') return `its printed form is ${ex.expected}`;
  return `the result equals ${ex.expected}`;
}

/** Documented inputs at a boundary (zero, negatives, empty values) are labelled so reviewers see them. */
function hasBoundaryInput(call: string): boolean {
  return (
    /\(\s*(?:-\s*\d|0(?:\.0+)?\s*[,)]|''|""|\[\s*\]|\{\s*\}|None\b|null\b|undefined\b)/.test(call) ||
    /,\s*(?:-\s*\d|''|""|\[\s*\])/.test(call)
  );
}

/** A README snippet that imports the package itself exercises its public API, whatever file defines it. */
function importsPackage(ex: DocExample): boolean {
  return ex.imports.length > 0 || ex.setup.some((l) => /^\s*(?:from\s+[\w.]+\s+import|import)\s/.test(l));
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
