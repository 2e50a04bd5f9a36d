// The verify stage through the language server's handlers (in-process): the tests.run approval goes
// to the client, case statuses come from the verifier, and trust is checked before anything runs.
import { strict as assert } from 'node:assert';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { AmtpService } from '../../server/src/lsp/service';
import { FakeClient } from '../helpers/fakeClient';
import { copyWorkspace, REPO } from '../helpers/workspaces';
import type * as P from '../../server/src/protocol';

// Under test-output (not the OS temp folder): the runners must find this repository's node_modules above it.
const copy = (src: string, name: string) => copyWorkspace(src, name, path.join(REPO, 'test-output'));
const client = (answer: (p: P.ApprovalParams) => Promise<P.ApprovalResult>) => new FakeClient(answer);

describe('verifier through the language server', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await fsp.rm(path.dirname(d), { recursive: true, force: true });
  });

  it('asks the client for tests.run (high risk), then shows passing/dropped cases pointing at their lines', async () => {
    const ws = await copy(path.join(REPO, 'examples/sample-lib'), 'sample-lib');
    dirs.push(ws);
    const c = client(async () => ({ decision: 'approved' }));
    const svc = new AmtpService(ws, c.port, { trusted: true, settings: { provider: 'offline', approvalTimeoutSeconds: 30 } });
    await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    assert.deepEqual(
      c.approvals.map((a) => [a.tool, a.risk]),
      [['tests.run', 'high']],
    );
    const last = c.views.at(-1)!;
    assert.equal(last.status, 'completed', last.reason);
    assert.equal(last.verification?.status, 'done');
    const passing = last.cases.filter((x) => x.status === 'passing');
    assert.ok(passing.length >= 4, JSON.stringify(last.cases.map((x) => x.status)));
    for (const x of passing) {
      const lines = (await fsp.readFile(path.join(ws, x.testFile!), 'utf8')).split('\n');
      assert.ok(lines[x.testLine!].includes(x.id), `${x.id} at ${x.testFile}:${x.testLine}`);
    }
    for (const x of last.cases.filter((y) => y.status === 'dropped' || y.status === 'flaky' || y.status === 'quarantined'))
      assert.ok(x.reason, x.id);
    assert.ok(!last.cases.some((x) => x.status === 'written'), 'every written case has a verified status');
  });

  it('trust revoked while the approval is pending: nothing executes and the stage is skipped with the reason', async () => {
    const ws = await copy(path.join(REPO, 'test/fixtures/verifier-marker'), 'marker');
    dirs.push(ws);
    const marker = path.join(path.dirname(ws), 'ran.marker'); // written by the fixture when it loads
    // eslint-disable-next-line prefer-const -- assigned once the client can reach it
    let svc: AmtpService | undefined;
    const c = client(async (p) => {
      if (p.tool === 'tests.run') svc!.setTrusted(false);
      return { decision: 'approved' };
    });
    svc = new AmtpService(ws, c.port, { trusted: true, settings: { provider: 'offline', approvalTimeoutSeconds: 30 } });
    await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    const last = c.views.at(-1)!;
    assert.equal(last.verification?.status, 'skipped');
    assert.match(last.verification!.reason!, /not trusted/);
    assert.equal(existsSync(marker), false);
  });
});
