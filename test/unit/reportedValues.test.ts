// What a report's expected/actual values are taken as (server/src/frameworks/run/reportedValues.ts):
// literals that keep their type, and nothing where the report's format lost what a value was.
import { strict as assert } from 'node:assert';
import { fromJson, fromPrinted, fromYaml } from '../../server/src/frameworks/run/reportedValues';

describe('reported values: literals that keep their type, none where the report lost it', () => {
  it('a string quoted, a number bare, an object as a literal', () => {
    assert.deepEqual(fromJson('9', 9), { expected: "'9'", actual: '9' });
    assert.deepEqual(fromJson({ a: [1, 3] }, { a: [1, 2] }), { expected: '{ a: [ 1, 3 ] }', actual: '{ a: [ 1, 2 ] }' });
    assert.deepEqual(fromYaml('a\nb', 'a\nc'), { expected: "'a\\nb'", actual: "'a\\nc'" });
  });
  it('JSON: a null may have been NaN, ±Infinity or an undefined item, and an absent side was undefined', () => {
    assert.equal(fromJson(null, 1), undefined);
    assert.equal(fromJson([1, 2], [1, null]), undefined);
    assert.equal(fromJson(1, undefined), undefined);
  });
  it('YAML: scalars only, and no word a non-string was spelled as', () => {
    assert.equal(fromYaml({ 0: 1, 1: 2 }, { 0: 1 }), undefined);
    assert.equal(fromYaml('NaN', 1), undefined);
    assert.equal(fromYaml('12n', 12), undefined);
    assert.equal(fromYaml(null, 1), undefined);
  });
  it('two sides printed the same lost what differs; printed values must both be text', () => {
    assert.equal(fromJson({ first: 'A' }, { first: 'A' }), undefined);
    assert.deepEqual(fromPrinted({ expected: '8', actual: '9' }), { expected: '8', actual: '9' });
    assert.equal(fromPrinted({ expected: '8' }), undefined);
    assert.equal(fromPrinted('8'), undefined);
  });
});
