// The VS Code path of per-test review: the language server's `amtp/review` (AmtpService.review, the
// handler the Test Cases tree's Reject calls) removes the test from its file, and the next run the
// client starts does not plan or write it again.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { AmtpService } from '../../server/src/lsp/service';
import type * as P from '../../server/src/protocol';
import { FakeClient } from '../helpers/fakeClient';
import { SAMPLE_LIB, copyWorkspace, removeWorkspace } from '../helpers/workspaces';

const settings: P.ServerSettings = { provider: 'offline', approvalTimeoutSeconds: 30, verify: false };

describe('language server: amtp/review', function () {
  this.timeout(120_000);
  let ws: string;
  before(async () => {
    ws = await copyWorkspace(SAMPLE_LIB);
  });
  after(() => removeWorkspace(ws));

  it('rejects one test with a reason: removed from its file now, and the next run leaves it out', async () => {
    const client = new FakeClient();
    const svc = new AmtpService(ws, client.port, { trusted: true, settings });
    const { runId } = await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    const written = client.views.at(-1)!.cases.filter((c) => c.status === 'written');
    assert.ok(written.length >= 2);
    const [victim, kept] = written;
    const file = path.join(ws, victim.testFile!);

    const r = await svc.review({
      runId,
      decisions: [{ caseId: victim.id, verdict: 'rejected', reason: 'duplicates a hand-written test' }],
    });
    assert.deepEqual(r.decided, [{ caseId: victim.id, verdict: 'rejected', reason: 'duplicates a hand-written test' }]);
    assert.deepEqual(r.removed, [{ file: victim.testFile, caseIds: [victim.id] }]);
    const after = await fsp.readFile(file, 'utf8');
    assert.ok(!after.includes(victim.id) && after.includes(kept.id));

    const { runId: next } = await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    const view = client.views.filter((v) => v.runId === next).at(-1)!;
    assert.equal(view.status, 'completed', view.reason);
    assert.ok(!view.cases.some((c) => c.id === victim.id), 'not planned again');
    assert.ok(!(await fsp.readFile(file, 'utf8')).includes(victim.id), 'not written back');
    await assert.rejects(
      svc.review({ runId: next, decisions: [{ caseId: 'tc_000000000000', verdict: 'accepted' }] }),
      /is not a test case of this run/,
    );
  });
});
