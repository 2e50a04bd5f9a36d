// The pure parts of coverage rounds and placement: uncovered units mapped to the function that holds
// them (verifier/uncovered.ts), a round's targets and batches (roundBatches.ts) — surviving mutants
// from the optional provider included — and a moved test file's imports (placePhase.ts).
import { strict as assert } from 'node:assert';
import { estimateTokens } from '../../server/src/agents/budget';
import type { CrawlerOutput, TestCase } from '../../server/src/contracts/types';
import { rebaseImports } from '../../server/src/verifier/placePhase';
import { packRound, roundTargets } from '../../server/src/verifier/roundBatches';
import type { VerifyState } from '../../server/src/verifier/state';
import { parseUnit, uncoveredFunctions } from '../../server/src/verifier/uncovered';

const SRC =
  'export function sign(n) {\n  if (n > 0) return 1;\n  if (n < 0) return -1;\n  return 0;\n}\n\nexport class Box {\n  put(x) {\n    if (!x) throw new Error("empty");\n    return x;\n  }\n}\n';

const map = {
  key_files: [
    {
      path: 'src/m.js',
      language: 'JavaScript',
      rank: 1,
      symbols: [
        { name: 'sign', kind: 'function', exported: true, line: 1, end_line: 5, signature: 'sign(n)' },
        { name: 'Box', kind: 'class', exported: true, line: 7, end_line: 12 },
        { name: 'Box.put', kind: 'method', exported: true, line: 8, end_line: 11 },
      ],
    },
  ],
  samples: [{ path: 'src/m.js', content: SRC, truncated: false }],
} as unknown as CrawlerOutput;

describe('coverage rounds: what is left uncovered, per function', () => {
  it('reads statement, branch and Python line/arc units', () => {
    assert.deepEqual(parseUnit('src/m.js:s@3:2'), { file: 'src/m.js', kind: 'line', line: 3 });
    assert.deepEqual(parseUnit('src/m.js:b@3:14'), { file: 'src/m.js', kind: 'branch', line: 3 });
    assert.deepEqual(parseUnit('pkg/m.py:l12'), { file: 'pkg/m.py', kind: 'line', line: 12 });
    assert.deepEqual(parseUnit('pkg/m.py:a-12>14'), { file: 'pkg/m.py', kind: 'branch', line: 12 });
  });

  it('maps each uncovered unit to the innermost function holding its line, most uncovered first', () => {
    const universe = new Set([
      'src/m.js:s@2:2',
      'src/m.js:s@3:2',
      'src/m.js:b@3:14',
      'src/m.js:s@4:2',
      'src/m.js:s@9:4',
      'src/m.js:s@10:4',
    ]);
    const covered = new Set(['src/m.js:s@2:2', 'src/m.js:s@10:4']);
    const fns = uncoveredFunctions(map, universe, covered);
    assert.deepEqual(
      fns.map((f) => [f.symbol.name, f.lines, f.branches]),
      [
        ['sign', [3, 4], [3]],
        ['Box.put', [9], []],
      ],
    );
  });

  it("a round's targets carry whole sources, kept tests, fresh case ids and the provider's surviving mutants; batches fit the budget", () => {
    const kept: TestCase = {
      id: 'tc_aaaaaaaaaaaa',
      title: 'sign(5) is 1',
      target: { file: 'src/m.js', symbol: 'sign' },
      kind: 'example',
      priority: 'P1',
      preconditions: [],
      steps: [],
      expected: [],
      rationale: 'doc',
    };
    const file = {
      path: 'test/m.amtp.test.js',
      content:
        "const { sign, Box } = require('../src/m.js');\n\nit('tc_aaaaaaaaaaaa: sign(5) is 1', () => {\n  assert.equal(sign(5), 1);\n});\n",
      ids: [kept.id],
    };
    const s = {
      files: [file],
      caseOf: new Map([[kept.id, kept]]),
      results: new Map([[kept.id, { caseId: kept.id, outcome: 'passing' }]]),
    } as unknown as VerifyState;
    const fns = uncoveredFunctions(map, new Set(['src/m.js:s@3:2', 'src/m.js:s@9:4']), new Set());
    const mutants = new Map([['src/m.js#sign', [{ id: 'm1', diff: '-  if (n > 0) return 1;\n+  if (n >= 0) return 1;' }]]]);
    const items = roundTargets(s, map, fns, mutants, 1, 4000);
    assert.equal(items.length, 2);
    const sign = items.find((i) => i.target.symbol === 'sign')!.target;
    assert.equal(sign.source, SRC.split('\n').slice(0, 5).join('\n'));
    assert.deepEqual(sign.mutants, [{ id: 'm1', diff: '-  if (n > 0) return 1;\n+  if (n >= 0) return 1;' }]);
    assert.match(sign.tests[0], /assert\.equal\(sign\(5\), 1\)/);
    assert.equal(new Set(items.flatMap((i) => i.target.case_ids)).size, 6, 'distinct ids per target and test');
    assert.deepEqual(roundTargets(s, map, fns, mutants, 1, 4000)[0].target.case_ids, sign.case_ids, 'the same state gives the same ids');
    const batches = packRound(items, { payloadTokens: estimateTokens(items[0].target) + 60, outputTokens: 4000 });
    assert.equal(batches.length, 2, 'one target per batch at this budget');
    assert.deepEqual(batches[0].files, [
      { path: 'test/m.amtp.test.js', target: 'src/m.js', imports: "const { sign, Box } = require('../src/m.js');\n" },
    ]);
  });
});

describe('placement: a moved test file keeps reaching its module', () => {
  it('rebases relative imports and requires from the new folder', () => {
    const text = "import { add } from '../src/math';\nconst helper = require('./helper.js');\n\nit('tc_1', () => {});\n";
    assert.equal(
      rebaseImports('test/math.amtp.test.ts', 'src/__tests__/math.amtp.test.ts', text),
      "import { add } from '../math';\nconst helper = require('../../test/helper.js');\n\nit('tc_1', () => {});\n",
    );
    assert.equal(rebaseImports('tests/test_x_amtp.py', 'pkg/tests/test_x_amtp.py', 'from pkg import x\n'), 'from pkg import x\n');
  });
});
