// The verify stage's progress line has a scale: how many tests in how many files it verifies, then
// how many runner runs so far (before: "verifying tests · 57 runs", with no total).
import { strict as assert } from 'node:assert';
import type { RunRecord } from '../../server/src/core/run';
import { verifyingMessage } from '../../server/src/lsp/runView';

const record = (files: { path: string; action: string; caseIds: string[] }[], executions?: number) =>
  ({ files, ...(executions === undefined ? {} : { verification: { executions } }) }) as unknown as RunRecord;

describe('verify progress', () => {
  it('counts the tests of the written files only, and the runner runs so far', () => {
    const files = [
      { path: 'test/a.amtp.test.js', action: 'created', caseIds: ['tc_000000000001', 'tc_000000000002'] },
      { path: 'test/b.amtp.test.js', action: 'merged', caseIds: ['tc_000000000003'] },
      { path: 'test/c.amtp.test.js', action: 'rejected', caseIds: ['tc_000000000004'] },
    ];
    assert.equal(verifyingMessage(record(files, 57)), 'verifying 3 tests in 2 files · 0 of 3 settled · 57 runner runs');
    assert.equal(verifyingMessage(record(files.slice(1, 2))), 'verifying 1 test in 1 file · 0 of 1 settled · 0 runner runs');
  });
});
