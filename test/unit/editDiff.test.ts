import { strict as assert } from 'node:assert';
import type { TestCase } from '../../server/src/contracts/types';
import { correctionOf, editSummary, sameTest } from '../../server/src/pipeline/editDiff';
import { corrected } from '../../server/src/pipeline/testPlan';

const WROTE = `it('parseDuration(\\'1.5 d\\') returns 129600000', () => { // tc_056405acf9fb
    const actual = parseDuration('1.5 d');
    assert.strictEqual(actual, 129600000);
  });`;
const oracle = (expected: string, more: Partial<NonNullable<TestCase['oracle']>> = {}) =>
  ({ oracle: { kind: 'equals', language: 'javascript', call: "parseDuration('1.5 d')", expected, ...more } }) as Pick<TestCase, 'oracle'>;

describe('tests a person changed by hand (pipeline/editDiff.ts)', () => {
  it('layout is no change: spacing, semicolons and quotes a formatter rewrites', () => {
    assert.ok(
      sameTest(
        WROTE,
        WROTE.replace(/'/g, '"')
          .replace(/;/g, '')
          .replace(/\n {4}/g, '\n\t'),
      ),
    );
    assert.ok(sameTest('list.map((x) => f(x, 1));', 'list.map(x => f(\n  x,\n  1,\n));'));
    assert.ok(!sameTest(WROTE, WROTE.replace('129600000', '129600001')));
  });

  it('summarises the changed lines, and reads a replaced expected value as a correction of the call', () => {
    const edited = WROTE.replace('129600000);', '36 * 3600000);').replace('129600000);', '129600001);');
    assert.equal(
      editSummary(WROTE, edited),
      'changed by hand: `assert.strictEqual(actual, 129600000);` → `assert.strictEqual(actual, 36 * 3600000);`',
    );
    const fixed = WROTE.replace('assert.strictEqual(actual, 129600000)', 'assert.strictEqual(actual, 129600001)');
    assert.deepEqual(correctionOf(WROTE, fixed, oracle('129600000')), { call: "parseDuration('1.5 d')", expected: '129600001' });
    // An expression is no literal; nor is a value the case did not plan; nor a second changed line.
    assert.equal(correctionOf(WROTE, edited, oracle('129600000')), undefined);
    assert.equal(correctionOf(WROTE, fixed, oracle('5')), undefined);
    assert.equal(correctionOf(WROTE, fixed.replace("parseDuration('1.5 d')", "parseDuration('2 d')"), oracle('129600000')), undefined);
    assert.equal(correctionOf(WROTE, fixed, oracle('129600000', { kind: 'throws' })), undefined);
  });

  it('a string with spaces and a structure are whole literals', () => {
    const wrote = "    assert.strictEqual(formatBytes(1048576), '1 MB');";
    assert.deepEqual(correctionOf(wrote, wrote.replace("'1 MB'", "'1.0 MiB'"), oracle("'1 MB'", { call: 'formatBytes(1048576)' })), {
      call: 'formatBytes(1048576)',
      expected: "'1.0 MiB'",
    });
    const deep = '    assert.deepStrictEqual(range(3), [0, 1, 2]);';
    assert.deepEqual(
      correctionOf(deep, deep.replace('[0, 1, 2]', '[1, 2, 3]'), oracle('[0, 1, 2]', { kind: 'deep_equals', call: 'range(3)' })),
      {
        call: 'range(3)',
        expected: '[1, 2, 3]',
      },
    );
  });

  it("a later case of the corrected call expects the person's value; other calls and targets keep theirs", () => {
    const planned = (id: string, call: string, symbol = 'parseDuration') =>
      ({
        id,
        target: { file: 'src/index.js', symbol },
        rationale: 'from the README',
        oracle: { kind: 'equals', language: 'javascript', call, expected: '129600000' },
      }) as unknown as TestCase;
    const cases = [
      planned('tc_1', "parseDuration('1.5 d')"),
      planned('tc_2', "parseDuration('2 d')"),
      planned('tc_3', "parseDuration('1.5 d')", 'other'),
    ];
    const out = corrected(cases, [
      { file: 'src/index.js', symbol: 'parseDuration', call: "parseDuration('1.5 d')", expected: '129600001' },
    ]);
    assert.deepEqual(
      out.map((c) => c.oracle?.expected),
      ['129600001', '129600000', '129600000'],
    );
    assert.match(out[0].rationale, /corrected the expected value of this call by hand/);
    assert.equal(out[1], cases[1]);
  });
});
