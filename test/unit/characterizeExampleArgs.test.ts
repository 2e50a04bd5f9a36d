import { strict as assert } from 'node:assert';
import { exampleArgs } from '../../server/src/characterize/exampleArgs';

describe('characterization seeds: documented call arguments', () => {
  it('takes the literal arguments of calls to the function, through a namespace too, and skips calls with variables', () => {
    const examples = ["v.pad('dog', 5, '-') // => '--dog'", 'pad(x, 2)', "pad([1, {a: 'b'}], -0.5, null, undefined, 10n)"];
    assert.deepEqual(exampleArgs('pad', examples, 'javascript'), [
      ['dog', 5, '-'],
      [[1, { a: 'b' }], -0.5, null, undefined, 10n],
    ]);
  });

  it('reads a doctest with its prompts, and Python literal words as Python gives them', () => {
    assert.deepEqual(exampleArgs('mod.grade', ['>>> grade(91, strict=True)\n', '>>> grade(None, True)\n...', '>>> other(1)'], 'python'), [
      [null, true],
    ]);
  });
});
