// A characterization as a planned TestCase (server/src/contracts/types.ts), so the framework
// renderers can write it like any case. Its evidence is `source` (what the code did when run), never
// documentation, so server/src/verifier/classify.ts can never call its failure a possible bug:
// a failing characterization is flaky or stale and is dropped. Priority P2 for a pinned value,
// P3 for a pinned error; documented behaviour keeps P0/P1.
import { caseId } from '../agents/generator/caseId';
import type { TestCase } from '../contracts/types';
import type { CharCase } from './characterize';
import { charTitle } from './render';
import { jsLiteral } from './values';

export function charToTestCase(c: CharCase, file: string, language: 'javascript' | 'typescript'): TestCase {
  const call = `${c.path.join('.')}(${c.args.map(jsLiteral).join(', ')})`;
  const o = c.oracle;
  const expected = o.kind === 'throws' ? `throws ${o.errorName}: ${o.message}` : jsLiteral(o.value);
  return {
    id: caseId(`${file}#${c.path.join('.')}`, `characterize ${call}`),
    title: charTitle(c),
    target: { file, symbol: c.path.join('.') },
    kind: o.kind === 'throws' ? 'error' : 'boundary',
    priority: o.kind === 'throws' ? 'P3' : 'P2',
    preconditions: [],
    steps: [`call ${call}`],
    expected: [o.kind === 'throws' ? expected : `returns ${expected} (observed when AMTP ran it; pins current behaviour)`],
    rationale: 'no documented result: the value pins what the code does today (characterization)',
    evidence: { source: 'source', snippet: 'observed by running the code (characterization)' },
    oracle:
      o.kind === 'throws'
        ? { kind: 'throws', language, call, error: o.errorName }
        : { kind: o.kind, language, call, expected: jsLiteral(o.value) },
  };
}
