import { strict as assert } from 'node:assert';
import { validate } from '../../server/src/contracts/validate';
import { tapResults } from '../../server/src/frameworks/runner';
import { redundant } from '../../server/src/verifier/coverage';
import { acceptAs } from '../../server/src/llm/accept';
import { repairMisfit } from '../../server/src/verifier/repair';
import { findTests, keepOnlyTests, quarantinePath, removeTests, replaceTest, skipTests } from '../../server/src/verifier/testFile';

const A = 'tc_aaaaaaaaaaaa';
const B = 'tc_bbbbbbbbbbbb';
const JS = `const { describe, it } = require('node:test');
const assert = require('node:assert/strict');

describe('x', () => {
  // about a
  it('${A}: a', () => {
    assert.equal(1, 1);
  });

  it('${B}: b', () => {
    assert.equal(2, 2);
  });
});
`;
const PY = `from pkg import f


def test_${A}_a():
    assert f(1) == 1


@something
def test_${B}_b():
    assert f(2) == 2
`;

describe('verifier: editing tests inside a file by case id', () => {
  it('finds JS tests at any depth and Python test functions', () => {
    assert.deepEqual(
      findTests('t/x.test.js', JS).map((b) => b.caseId),
      [A, B],
    );
    assert.deepEqual(
      findTests('t/x.test.ts', JS).map((b) => b.caseId),
      [A, B],
    );
    assert.deepEqual(
      findTests('tests/test_x.py', PY).map((b) => b.caseId),
      [A, B],
    );
  });

  it('removes a test with its comment, keeps the rest parseable', () => {
    const out = removeTests('t/x.test.js', JS, [A]);
    assert.ok(!out.includes(A) && !out.includes('about a') && out.includes(B));
    assert.deepEqual(
      findTests('t/x.test.js', out).map((b) => b.caseId),
      [B],
    );
    assert.doesNotThrow(() => new Function('require', 'describe', 'it', out.replace(/^const .*$/gm, '')));
    const py = removeTests('tests/test_x.py', PY, [B]);
    assert.ok(!py.includes(B) && !py.includes('@something') && py.includes(A));
    assert.deepEqual(
      findTests('t/x.test.js', keepOnlyTests('t/x.test.js', JS, [B])).map((b) => b.caseId),
      [B],
    );
  });

  it('replaces a test, re-indented; skips a test with the reason above it', () => {
    const out = replaceTest('t/x.test.js', JS, B, `it('${B}: b', () => {\n  assert.equal(3, 3);\n});`);
    assert.match(out, new RegExp(`  it\\('${B}: b', \\(\\) => \\{\\n    assert.equal\\(3, 3\\);\\n  \\}\\);`));
    const skipped = skipTests('t/x.test.js', JS, new Map([[A, 'possible bug: documented 1, observed 2']]));
    assert.match(skipped, /\/\/ AMTP quarantine: possible bug: documented 1, observed 2\n {2}it\.skip\('tc_a/);
    assert.match(skipped, new RegExp(`\\n  it\\('${B}`), 'other tests untouched');
    const py = skipTests('tests/test_x.py', PY, new Map([[A, 'why "quoted"']]));
    assert.match(py, /^import pytest\n/);
    assert.match(py, /@pytest\.mark\.skip\(reason="AMTP quarantine: why \\"quoted\\""\)\ndef test_tc_a/);
  });

  it('names quarantine files next to the test file', () => {
    assert.equal(quarantinePath('test/ms.amtp.test.js'), 'test/ms.amtp.quarantine.test.js');
    assert.equal(quarantinePath('src/x.spec.ts'), 'src/x.quarantine.spec.ts');
    assert.equal(quarantinePath('tests/test_x_amtp.py'), 'tests/test_x_amtp_quarantine.py');
  });
});

describe('verifier: coverage contribution (greedy by priority)', () => {
  it('keeps higher-priority tests; drops one whose units are all covered; the union is unchanged', () => {
    const s = (...u: string[]) => new Set(u);
    const dropped = redundant([
      { id: 'p3-all', priority: 'P3', order: 3, units: s('a', 'b', 'c') },
      { id: 'p0-a', priority: 'P0', order: 0, units: s('a', 'b') },
      { id: 'p0-a2', priority: 'P0', order: 1, units: s('a') },
      { id: 'p1-c', priority: 'P1', order: 2, units: s('a', 'c') },
    ]);
    assert.deepEqual([...dropped.keys()].sort(), ['p0-a2', 'p3-all']);
    assert.match(dropped.get('p3-all')!, /adds no coverage: its 3 covered unit\(s\) are all covered by 2 kept test/);
  });
});

describe('verifier: node:test TAP results', () => {
  it('maps leaf tests (suites skipped), failures with their error and a file that did not load', () => {
    const tap = [
      'TAP version 13',
      '# Subtest: /w/test/bad.test.js',
      'not ok 1 - /w/test/bad.test.js',
      '  ---',
      "  error: 'test failed'",
      '  ...',
      '# Subtest: suite',
      `    # Subtest: ${A}: a`,
      `    ok 1 - ${A}: a`,
      '      ---',
      '      duration_ms: 1',
      '      ...',
      `    # Subtest: ${B}: b`,
      `    not ok 2 - ${B}: b`,
      '      ---',
      "      location: '/w/test/x.test.js:3:1'",
      '      error: |-',
      '        Expected values to be strictly equal:',
      '        ',
      '        1 !== 2',
      '      expected: 2',
      '      actual: 1',
      '      ...',
      'ok 2 - suite',
      '# tests 2',
      '# pass 1',
      '# fail 1',
    ].join('\n');
    const r = tapResults(tap, '/w');
    assert.deepEqual(
      r.tests.map((t) => [t.name, t.status]),
      [
        [`suite ${A}: a`, 'passed'],
        [`suite ${B}: b`, 'failed'],
      ],
    );
    assert.equal(r.tests[1].message, 'Expected values to be strictly equal:\n\n1 !== 2');
    assert.deepEqual([r.tests[1].expected, r.tests[1].actual], ['2', '1']);
    assert.deepEqual(
      r.fileErrors.map((e) => e.file),
      ['test/bad.test.js'],
    );
  });
});

describe('verifier: repair-output contract', () => {
  it('validates, demands a test for "fixed", and keeps the case id', () => {
    assert.equal(validate('repair-output', { schema_version: '1', case_id: A, verdict: 'fixed', reason: 'r' }).ok, false);
    assert.equal(validate('repair-output', { schema_version: '1', case_id: A, verdict: 'code_bug', reason: 'r' }).ok, true);
    // The reply's contract is checked at the boundary (llm/accept.ts), then its case id (repairMisfit).
    const ok = acceptAs(
      'repair-output',
      'repair',
      '```json\n' +
        JSON.stringify({ schema_version: '1', case_id: A, verdict: 'fixed', test: `it('${A}: a', () => {});`, reason: 'r' }) +
        '\n```',
    );
    assert.equal(ok.verdict, 'fixed');
    assert.equal(repairMisfit(ok, A), undefined);
    assert.throws(() => acceptAs('repair-output', 'repair', 'not json'), /not JSON/);
    const renamed = { schema_version: '1', case_id: A, verdict: 'fixed', test: "it('renamed', () => {});", reason: 'r' } as const;
    assert.match(repairMisfit(renamed, A)!.message, /lost its case id/);
    const other = { schema_version: '1', case_id: B, verdict: 'cannot_fix', reason: 'r' } as const;
    assert.match(repairMisfit(other, A)!.message, /not tc_a/);
  });
});
