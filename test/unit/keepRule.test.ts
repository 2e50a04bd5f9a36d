// The keep rule with mutation (server/src/verifier/keepRule.ts): a test the coverage filter would drop
// stays when it kills a mutant no kept test kills; the others keep their drop reason, with what they kill.
import { strict as assert } from 'node:assert';
import { keepKillers, ruleOf, type KeepUnit } from '../../server/src/verifier/keepRule';

const unit = (key: string, priority: string, order: number): KeepUnit => ({ key, priority, order, tests: [key] });
const kills = (o: Record<string, string[]>) => new Map(Object.entries(o).map(([k, v]) => [k, new Set(v)]));

describe('keep rule: unique coverage or a unique kill', () => {
  it('keeps a test that adds no coverage but kills a mutant the kept tests do not', () => {
    const units = [unit('tc_a', 'P1', 0), unit('tc_b', 'P1', 1), unit('tc_c', 'P2', 2)];
    const dropping = new Map([
      ['tc_b', 'adds no coverage: its 7 covered unit(s) are all covered by 1 kept test(s) of higher or equal priority (tc_a)'],
      ['tc_c', 'adds no coverage: its 3 covered unit(s) are all covered by 1 kept test(s) of higher or equal priority (tc_a)'],
    ]);
    const kept = keepKillers(units, dropping, kills({ tc_a: ['1', '2'], tc_b: ['2', '3'], tc_c: ['1'] }));
    assert.deepEqual(kept, ['tc_b']);
    assert.deepEqual([...dropping.keys()], ['tc_c']);
    assert.match(
      dropping.get('tc_c')!,
      /^adds no coverage: .*; and kills no mutant the kept tests do not kill: its 1 killed mutant\(s\) are all killed by 1 kept test\(s\) \(tc_a\)$/,
    );
  });

  it('visits the most important first: of two tests that kill the same mutant only the first stays', () => {
    const units = [unit('tc_p3', 'P3', 0), unit('tc_p1', 'P1', 1)];
    const dropping = new Map([
      ['tc_p3', 'adds no coverage: x'],
      ['tc_p1', 'adds no coverage: y'],
    ]);
    assert.deepEqual(keepKillers(units, dropping, kills({ tc_p3: ['9'], tc_p1: ['9'] })), ['tc_p1']);
    assert.match(dropping.get('tc_p3')!, /all killed by 1 kept test\(s\) \(tc_p1\)/);
  });

  it('says when a dropped test kills nothing at all', () => {
    const dropping = new Map([
      ['tc_x', 'adds no coverage: it covers nothing beyond what loading its file covers (an existence-only test)'],
    ]);
    assert.deepEqual(keepKillers([unit('tc_x', 'P3', 0)], dropping, kills({})), []);
    assert.match(dropping.get('tc_x')!, /; and kills no mutant the kept tests do not kill: it kills no mutant$/);
    assert.equal(ruleOf(dropping.get('tc_x')!, true), 'existence_only');
  });

  it('judges a file as a whole when coverage was measured per file', () => {
    const files: KeepUnit[] = [
      { key: 'test/a.test.js', priority: 'P1', order: 0, tests: ['tc_1', 'tc_2'] },
      { key: 'test/b.test.js', priority: 'P2', order: 1, tests: ['tc_3'] },
    ];
    const dropping = new Map([['test/b.test.js', 'adds no coverage: z']]);
    assert.deepEqual(keepKillers(files, dropping, kills({ tc_1: ['1'], tc_3: ['4'] })), ['test/b.test.js']);
    assert.equal(dropping.size, 0);
  });

  it('names the rule of a drop: existence only, unique coverage (mutation off), or unique coverage or kill', () => {
    assert.equal(ruleOf('adds no coverage: its 2 covered unit(s) are all covered by 1 kept test(s)', false), 'unique_coverage');
    assert.equal(
      ruleOf('adds no coverage: its 2 covered unit(s) are all covered by 1 kept test(s); and kills no mutant …', true),
      'unique_coverage_or_kill',
    );
    assert.equal(
      ruleOf(
        "adds no coverage: its file's 3 other test(s) cover everything beyond import without its 1 existence-only test(s) (measured together)",
        false,
      ),
      'existence_only',
    );
  });
});
