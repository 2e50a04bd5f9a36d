// The equivalent-mutant filters (ACH): mutants in logging calls, in code that cannot run and in the
// text of error messages are left out, with the reason, by the real StrykerJS instrumenter
// (server/src/mutation/js/ignorers.ts); every other mutant is placed.
import { strict as assert } from 'node:assert';
import { instrumentJs } from '../../server/src/mutation/js/instrument';

const SOURCE = `'use strict';
const debug = require('debug')('lib');

function area(w, h) {
  console.log('area of', w * h);
  debug('computing %d', w + h);
  if (w < 0) throw new RangeError('width must be >= 0, got ' + w);
  if (h < 0) throw 'height is negative';
  return w * h;
}

function legacy(x) {
  if (false) {
    return x + 1;
  }
  return x - 1;
  x = x * 2;
}

class Box {
  constructor(size) {
    this.logger = { info() {} };
    this.logger.info('box of size ' + size);
    this.size = size > 0 ? size : 1;
  }
}

module.exports = { area, legacy, Box };
`;

describe('equivalent-mutant filters (JavaScript, ACH)', function () {
  this.timeout(60_000);
  let mutants: Awaited<ReturnType<typeof instrumentJs>>['mutants'];
  before(async () => {
    mutants = (await instrumentJs(new Map([['lib/area.js', SOURCE]]))).mutants;
  });
  const at = (line: number) => mutants.filter((m) => m.start.line === line);

  it('leaves out every mutant inside a logging call', () => {
    for (const line of [5, 6, 23]) {
      assert.ok(at(line).length > 0, `line ${line} has mutants`);
      for (const m of at(line)) assert.equal(m.filtered, 'in a logging call', `${line}: ${m.original} → ${m.replacement}`);
    }
  });

  it('leaves out the text of error messages, and keeps the condition that throws', () => {
    const message = at(7).filter((m) => m.mutator === 'StringLiteral');
    assert.ok(message.length >= 1);
    for (const m of message) assert.equal(m.filtered, 'in the text of an error message');
    assert.ok(
      at(7).some((m) => m.mutator === 'EqualityOperator' && !m.filtered),
      'w < 0 is still mutated',
    );
    assert.ok(
      at(8)
        .filter((m) => m.mutator === 'StringLiteral')
        .every((m) => m.filtered === 'in the text of an error message'),
    );
  });

  it('leaves out code that cannot run: the branch of if (false) and statements after a return', () => {
    assert.ok(at(14).length > 0 && at(14).every((m) => m.filtered === 'in code that cannot run'), JSON.stringify(at(14)));
    assert.ok(at(17).length > 0 && at(17).every((m) => m.filtered === 'in code that cannot run'));
    assert.ok(
      at(16).some((m) => m.mutator === 'ArithmeticOperator' && !m.filtered),
      'x - 1 is live code',
    );
  });

  it('places the mutants of ordinary code', () => {
    const live = mutants.filter((m) => !m.filtered);
    assert.ok(live.some((m) => m.start.line === 9 && m.mutator === 'ArithmeticOperator' && m.replacement === 'w / h'));
    assert.ok(live.some((m) => m.start.line === 24 && m.mutator === 'EqualityOperator'));
    // 1-based positions, and the original text is the source's.
    const ret = live.find((m) => m.start.line === 9 && m.mutator === 'ArithmeticOperator')!;
    assert.equal(ret.original, 'w * h');
    assert.deepEqual(ret.start, { line: 9, column: 10 });
  });
});
