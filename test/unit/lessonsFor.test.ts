// lessonsFor (pipeline/lessons.ts): the lessons one batch gets, same symbol first, then same module,
// then project-wide; none about other modules; as many as fit the token budget, in that order.
import { strict as assert } from 'node:assert';
import { estimateTokens } from '../../server/src/agents/budget';
import { lessonsFor, type Lesson } from '../../server/src/pipeline/lessons';

const at = '2026-11-30T00:00:00.000Z';
const lesson = (n: number, where: { file?: string; symbol?: string }): Lesson => ({
  id: `tc_${String(n).padStart(12, '0')}`,
  source: 'rejected',
  ...where,
  text: `The person rejected test ${n}. It is not written again.`,
  at,
});

// Newest first, as currentLessons gives them: the ranks are mixed so order alone cannot pass.
const project = lesson(1, {});
const otherModule = lesson(2, { file: 'src/b.js', symbol: 'g' });
const sameModule = lesson(3, { file: 'src/a.js', symbol: 'other' });
const sameSymbol = lesson(4, { file: 'src/a.js', symbol: 'f' });
const sameModule2 = lesson(5, { file: 'src/a.js', symbol: 'h' });
const ALL = [project, otherModule, sameModule, sameSymbol, sameModule2];
const ids = (ls: Lesson[]) => ls.map((l) => l.id.slice(-1));

describe('lessonsFor: the lessons a batch is given', () => {
  it('same symbol first, then the same module (in the given order), then project-wide; never another module', () => {
    assert.deepEqual(ids(lessonsFor(ALL, [{ file: 'src/a.js', symbol: 'f' }], 10_000)), ['4', '3', '5', '1']);
  });

  it('a target without a symbol ranks every lesson of its module as the module', () => {
    assert.deepEqual(ids(lessonsFor(ALL, [{ file: 'src/b.js' }], 10_000)), ['2', '1']);
  });

  it('stops at the budget, dropping the lowest-ranked first', () => {
    const cost = (l: Lesson) => estimateTokens(l) + 1;
    const two = 2 + cost(sameSymbol) + cost(sameModule);
    assert.deepEqual(ids(lessonsFor(ALL, [{ file: 'src/a.js', symbol: 'f' }], two)), ['4', '3']);
    assert.deepEqual(ids(lessonsFor(ALL, [{ file: 'src/a.js', symbol: 'f' }], two - 1)), ['4']);
    assert.deepEqual(lessonsFor(ALL, [{ file: 'src/a.js', symbol: 'f' }], 2 + cost(sameSymbol) - 1), []);
  });

  it('at most 24 lessons, whatever the budget', () => {
    const many = Array.from({ length: 30 }, (_, i) => lesson(100 + i, { file: 'src/a.js', symbol: 'f' }));
    assert.equal(lessonsFor(many, [{ file: 'src/a.js', symbol: 'f' }], 1_000_000).length, 24);
  });
});
