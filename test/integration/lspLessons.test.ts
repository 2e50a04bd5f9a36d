// The VS Code path of lessons: the language server's `amtp/lessons` lists what a person's decision
// taught (the Lessons view), and `amtp/forgetLesson` drops the decision behind it, so the lesson is
// gone and a later run may write the test again; a lesson with no decision behind it is refused.
import { strict as assert } from 'node:assert';
import { AmtpService } from '../../server/src/lsp/service';
import type * as P from '../../server/src/protocol';
import { FakeClient } from '../helpers/fakeClient';
import { SAMPLE_LIB, copyWorkspace, removeWorkspace } from '../helpers/workspaces';

const settings: P.ServerSettings = { provider: 'offline', approvalTimeoutSeconds: 30, verify: false };

describe('language server: amtp/lessons and amtp/forgetLesson', function () {
  this.timeout(120_000);
  let ws: string;
  before(async () => {
    ws = await copyWorkspace(SAMPLE_LIB);
  });
  after(() => removeWorkspace(ws));

  it('lists the lesson a rejection left, with its module, symbol and reason, and forgets it', async () => {
    const client = new FakeClient();
    const svc = new AmtpService(ws, client.port, { trusted: true, settings });
    assert.deepEqual(await svc.lessons(), { lessons: [] });
    const { runId } = await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    const victim = client.views.at(-1)!.cases.find((c) => c.status === 'written')!;
    await svc.review({ runId, decisions: [{ caseId: victim.id, verdict: 'rejected', reason: 'tests a private detail' }] });

    const { lessons } = await svc.lessons();
    assert.equal(lessons.length, 1);
    const [l] = lessons;
    assert.equal(l.id, victim.id);
    assert.equal(l.source, 'rejected');
    assert.equal(l.file, victim.target.file);
    assert.equal(l.symbol, victim.target.symbol);
    assert.match(l.text, /tests a private detail/);
    assert.ok(!Number.isNaN(Date.parse(l.at)));

    assert.deepEqual(await svc.forgetLesson({ id: victim.id }), { forgotten: true });
    assert.deepEqual(await svc.lessons(), { lessons: [] });
    await assert.rejects(svc.forgetLesson({ id: victim.id }), /no decision about/);
  });
});
