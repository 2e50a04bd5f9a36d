import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { avaResults } from '../../server/src/frameworks/ava/runner';
import { nodeTapResults } from '../../server/src/frameworks/node-tap/runner';
import { parseAssertion } from '../../server/src/verifier/assertions';

// Messages as the runners report them, from reports captured from real ava and tap runs.
const report = (name: string) => readFileSync(join(__dirname, '../fixtures/reports', name), 'utf8');
const failed = (tests: { status: string; message?: string }[]) => tests.filter((t) => t.status === 'failed').map((t) => t.message ?? '');

describe('assertion parsers: ava and node-tap', () => {
  it('ava: the "Difference (- actual, + expected)" block, both sides whole', () => {
    const [deep] = failed(avaResults(report('ava.tap'), '/tmp/cap').tests);
    assert.deepEqual(parseAssertion('ava', deep), {
      actual: '{\n  a: [\n    1,\n    2,\n  ],\n}',
      expected: '{\n  a: [\n    1,\n    3,\n  ],\n}',
    });
  });

  it('node-tap: the unified diff (--- expected, +++ actual), multi-line strings kept', () => {
    const [deep, lines] = failed(nodeTapResults(report('node-tap.tap'), '/tmp/cap/tapcase').tests);
    assert.deepEqual(parseAssertion('node-tap', deep), {
      actual: 'Object {\n  "a": Array [\n    1,\n    2,\n  ],\n}',
      expected: 'Object {\n  "a": Array [\n    1,\n    3,\n  ],\n}',
    });
    assert.deepEqual(parseAssertion('node-tap', lines), { actual: 'line one\nline two', expected: 'line one\nline 2' });
  });

  it('a message with no diff is no parsed assertion (never a possible bug on a guess)', () => {
    assert.equal(parseAssertion('ava', 'Error: boom at import'), undefined);
    assert.equal(parseAssertion('node-tap', 'should be equal'), undefined);
  });
});
