// The client's view of mutation (client/src/model/mutation.ts): each target file's score for the Test
// Cases tree and each surviving mutant as a diagnostic range, from the run view alone.
import { strict as assert } from 'node:assert';
import type * as P from '../../server/src/protocol';
import { describeFileMutation, fileMutationLines, mutantDiagnostics } from '../../client/src/model/mutation';

const counts = (o: Partial<Record<string, number>>) => ({
  mutants: 0,
  killed: 0,
  timeout: 0,
  survived: 0,
  noCoverage: 0,
  error: 0,
  notRun: 0,
  filtered: 0,
  ...o,
});

const run = {
  runId: 'run_1',
  status: 'completed',
  stage: 'done',
  createdAt: '2026-01-01T00:00:00Z',
  params: { depth: 'standard', framework: 'auto', provider: 'offline' },
  activities: [],
  cases: [],
  files: [],
  pendingApprovals: [],
  verification: {
    status: 'done',
    runs: 3,
    filters: [],
    quarantineFiles: [],
    unmet: [],
    mutation: {
      status: 'done',
      score: 77.8,
      seconds: 7.3,
      budgetSeconds: 60,
      files: [{ file: 'src/index.js', score: 77.8, counts: counts({ mutants: 55, killed: 40, timeout: 2, survived: 12, filtered: 1 }) }],
      notRun: [],
      survivors: [
        {
          id: '13',
          file: 'src/index.js',
          mutator: 'Regex',
          original: '/^\\s*(\\d+)$/',
          replacement: '/^\\s*(\\d)$/',
          start: { line: 15, column: 17 },
          end: { line: 15, column: 30 },
          status: 'survived',
          coveredBy: ['tc_0c366574e7be'],
        },
        {
          id: '40',
          file: 'src/index.js',
          mutator: 'BlockStatement',
          original: '{\n  return 1;\n}',
          replacement: '{}',
          start: { line: 50, column: 20 },
          end: { line: 52, column: 2 },
          status: 'no_coverage',
          coveredBy: [],
        },
      ],
    },
  },
} as unknown as P.RunView;

describe('client: mutation in the tree and as diagnostics', () => {
  it("shows a target file's score and counts, and nothing for a file the run did not mutate", () => {
    assert.equal(describeFileMutation(run, 'src/index.js'), ' · mutation 77.8%');
    assert.equal(describeFileMutation(run, 'src/other.js'), '');
    assert.deepEqual(fileMutationLines(run, 'src/index.js'), [
      'mutation score 77.8%: 42 killed, 12 survived, 0 not covered',
      '1 left out as equivalent-mutant noise',
    ]);
  });

  it('turns each surviving mutant into a 0-based range with what it changes', () => {
    const d = mutantDiagnostics(run).get('src/index.js')!;
    assert.deepEqual(
      d.map((x) => [x.startLine, x.startColumn, x.endLine, x.endColumn]),
      [
        [14, 16, 14, 29],
        [49, 19, 51, 1],
      ],
    );
    assert.equal(d[0].message, 'Surviving mutant: no kept test notices (Regex): /^\\s*(\\d+)$/ → /^\\s*(\\d)$/');
    assert.equal(d[1].message, 'Mutant not covered by any kept test (BlockStatement): { return 1; } → {}');
    assert.equal(mutantDiagnostics(undefined).size, 0);
  });
});
