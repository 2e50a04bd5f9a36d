// A characterization as a planned TestCase (server/src/contracts/types.ts), so the framework
// renderers can write it like any case. Its evidence is `source` (what the code did when run), never
// documentation, so server/src/verifier/classify.ts can never call its failure a possible bug:
// a failing characterization is flaky or stale and is dropped. Priority P2 for a pinned value,
// P3 for a pinned error; documented behaviour keeps P0/P1.
import { caseId } from '../agents/generator/caseId';
import type { OracleBinding, TestCase } from '../contracts/types';
import type { CharCase } from './characterize';
import { CHAR_PREFIX, charTitle } from './render';
import { jsLiteral } from './values';

/** How a test reaches the function (characterize/targets.ts CharReach); without it the call is the export path. */
export interface CaseReach {
  target: TestCase['target'];
  access: string;
  bindings: OracleBinding[];
}

export function charToTestCase(c: CharCase, file: string, language: 'javascript' | 'typescript', reach?: CaseReach): TestCase {
  const call = `${reach?.access ?? c.path.join('.')}(${c.args.map(jsLiteral).join(', ')})`;
  const target = reach?.target ?? { file, symbol: c.path.join('.') };
  const bindings = reach ? { bindings: reach.bindings } : {};
  const o = c.oracle;
  const expected = o.kind === 'throws' ? `throws ${o.errorName}: ${o.message}` : jsLiteral(o.value);
  return {
    id: caseId(`${target.file}#${target.symbol}`, `characterize ${call}`),
    title: charTitle(reach ? { ...c, path: reach.access.split('.') } : c),
    target,
    kind: o.kind === 'throws' ? 'error' : 'boundary',
    priority: o.kind === 'throws' ? 'P3' : 'P2',
    preconditions: [],
    steps: [`call ${call}`],
    expected: [o.kind === 'throws' ? expected : `returns ${expected} (observed when AMTP ran it; pins current behaviour)`],
    rationale: 'no documented result: the value pins what the code does today (characterization)',
    evidence: { source: 'source', snippet: 'observed by running the code (characterization)' },
    oracle:
      o.kind === 'throws'
        ? { kind: 'throws', language, call, error: o.errorName, ...bindings }
        : { kind: o.kind, language, call, expected: jsLiteral(o.value), ...bindings },
  };
}

/** A characterization case, as its title says (render.ts CHAR_PREFIX): tree views and summaries tell it from a documented one. */
export function isCharacterizationCase(c: Pick<TestCase, 'title'>): boolean {
  return c.title.startsWith(CHAR_PREFIX);
}
