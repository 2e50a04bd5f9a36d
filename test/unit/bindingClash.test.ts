import { strict as assert } from 'node:assert';
import type { TestCase } from '../../server/src/contracts/types';
import { renamed, separateBindings } from '../../server/src/agents/generator/bindingClash';

const jsCase = (id: string, call: string, bindings: NonNullable<TestCase['oracle']>['bindings']): TestCase => ({
  id,
  title: call,
  target: { file: 'index.js', symbol: 'colord' },
  kind: 'example',
  priority: 'P0',
  preconditions: [],
  steps: [],
  expected: [],
  rationale: 'r',
  oracle: { kind: 'equals', language: 'javascript', call, expected: '1', bindings },
});

describe('generator: one local name binds one thing per test file', () => {
  it('renames the module value where a README case imports the export of the same name', () => {
    const smoke = jsCase('tc_1', 'colord.Colord', [{ local: 'colord', import: 'module' }]);
    const readme = jsCase('tc_2', 'colord("#fff").toHex()', [{ local: 'colord', import: 'named', name: 'colord' }]);
    const [s, r] = separateBindings([smoke, readme]);
    assert.equal(s.oracle?.call, 'colordModule.Colord');
    assert.deepEqual(s.oracle?.bindings, [{ local: 'colordModule', import: 'module' }]);
    assert.equal(s.id, 'tc_1');
    assert.deepEqual(r, readme);
    // no clash: left alone
    assert.deepEqual(separateBindings([smoke]), [smoke]);
  });

  it('renames references only, not properties or keys', () => {
    assert.equal(renamed('f(colord, { colord }, x.colord, { colord: 1 })', 'colord', 'm'), 'f(m, { colord: m }, x.colord, { colord: 1 })');
  });
});
