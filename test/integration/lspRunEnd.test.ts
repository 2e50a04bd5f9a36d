// The client takes a run's first terminal status (completed, needs_review, …) as its end: the
// Generate command returns and "AMTP run completed" is shown. So the language server must never
// send one while the run goes on (the write stage records `completed` before verification starts),
// and its views must arrive in the order of the run's states.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { AmtpService } from '../../server/src/lsp/service';
import { FakeClient } from '../helpers/fakeClient';
import { copyWorkspace, SAMPLE_LIB } from '../helpers/workspaces';

const REPO = path.resolve(__dirname, '../..');

describe('language server: a run is shown as ended only when it has ended', function () {
  this.timeout(120_000);
  let root: string;
  before(async () => {
    await fsp.mkdir(path.join(REPO, 'test-output'), { recursive: true });
    root = await fsp.mkdtemp(path.join(REPO, 'test-output', 'lsp-run-end-'));
  });
  after(() => fsp.rm(root, { recursive: true, force: true }));

  it('sends no terminal status before verification has run, and the last view is the final one', async () => {
    const ws = await copyWorkspace(SAMPLE_LIB, 'sample-lib', root);
    const c = new FakeClient();
    const { views } = c;
    const svc = new AmtpService(ws, c.port, { trusted: true, settings: { provider: 'offline', approvalTimeoutSeconds: 30 } });
    const { runId } = await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    assert.deepEqual(
      c.approvals.map((a) => a.tool),
      ['tests.run'],
      'the run went through verification',
    );
    const statuses = views.filter((v) => v.runId === runId).map((v) => `${v.status}/${v.stage}`);
    assert.deepEqual(
      statuses.slice(0, -1).filter((s) => !s.startsWith('running/')),
      [],
      `views before the last: ${statuses.join(', ')}`,
    );
    const last = views.at(-1)!;
    assert.equal(last.status, 'completed', last.reason);
    assert.equal(last.verification?.status, 'done');
  });
});
