import { strict as assert } from 'node:assert';
import { Gateway, type ApprovalAnswer, type ApprovalRequest } from '../../server/src/gateway/gateway';
import { riskOf } from '../../server/src/gateway/policy';
import { isToolName } from '../../server/src/core/risk';
import type { ApprovalRecord, AuditRow } from '../../server/src/core/run';

function harness(answer: (req: ApprovalRequest) => Promise<ApprovalAnswer>, overrides = {}) {
  const approvals: ApprovalRecord[] = [];
  const audit: AuditRow[] = [];
  const asked: ApprovalRequest[] = [];
  const gw = new Gateway(
    'r_1',
    {
      ask: (req) => {
        asked.push(req);
        return answer(req);
      },
    },
    {
      approval: (a) => {
        approvals.push(a);
      },
      audit: (r) => {
        audit.push(r);
      },
    },
    overrides,
  );
  return { gw, approvals, audit, asked };
}

describe('risk-rated gateway', () => {
  it('default risks: reads low, new test files medium, overwrite/run/branch high; tool names are a closed list', () => {
    assert.equal(riskOf('repo.read_file'), 'low');
    assert.equal(riskOf('fs.create_test'), 'medium');
    for (const t of ['fs.overwrite', 'fs.write_outside_tests', 'tests.run', 'git.branch'] as const) assert.equal(riskOf(t), 'high', t);
    assert.equal(isToolName('shell.exec'), false);
    assert.equal(isToolName('tests.run'), true);
  });

  it("the person's overrides go either way; a repository's only raise a risk", () => {
    assert.equal(riskOf('tests.run', { user: { 'tests.run': 'medium' } }), 'medium', 'the person may lower');
    assert.equal(riskOf('fs.create_test', { user: { 'fs.create_test': 'high' } }), 'high', 'the person may raise');
    assert.equal(riskOf('fs.overwrite', { repository: { 'fs.overwrite': 'low' } }), 'high', 'a repository may not lower');
    assert.equal(riskOf('fs.create_test', { repository: { 'fs.create_test': 'high' } }), 'high', 'a repository may raise');
    assert.equal(
      riskOf('tests.run', { user: { 'tests.run': 'low' }, repository: { 'tests.run': 'medium' } }),
      'medium',
      'the repository raises what the person lowered',
    );
  });

  it('low risk runs without asking or auditing; medium runs and is audited', async () => {
    const h = harness(async () => assert.fail('must not ask'));
    assert.deepEqual(await h.gw.execute('repo.tree', { summary: 'list' }, async () => 1), { ran: true, value: 1, approval: undefined });
    assert.equal(h.audit.length, 0);
    await h.gw.execute('fs.create_test', { summary: 'create', target: 'test/a.test.js' }, async () => 2);
    assert.deepEqual(
      h.audit.map((r) => [r.tool, r.risk, r.outcome]),
      [['fs.create_test', 'medium', 'executed']],
    );
  });

  for (const decision of ['rejected', 'timeout', 'pending'] as const) {
    it(`high risk ${decision}: the body never runs and the decision is recorded`, async () => {
      const h = harness(async () => ({ decision, note: 'not now' }));
      let ran = false;
      const res = await h.gw.execute('fs.overwrite', { summary: 'overwrite x', target: 'x' }, async () => {
        ran = true;
      });
      assert.equal(ran, false);
      assert.equal(res.ran, false);
      assert.equal(h.approvals[0].decision, decision);
      assert.equal(h.approvals[0].note, 'not now');
      assert.deepEqual(
        h.audit.map((r) => r.outcome),
        ['refused'],
      );
    });
  }

  it('high risk approved: runs after the answer, with the approval linked in the audit', async () => {
    const order: string[] = [];
    const h = harness(async () => {
      order.push('asked');
      return { decision: 'approved', by: 'test' };
    });
    await h.gw.execute('tests.run', { summary: 'run tests' }, async () => {
      order.push('ran');
    });
    assert.deepEqual(order, ['asked', 'ran']);
    assert.equal(h.audit[0].approvalId, h.approvals[0].id);
    assert.equal(h.approvals[0].decidedBy, 'test');
  });

  it('an approver that throws counts as a rejection, never a silent yes', async () => {
    const h = harness(async () => {
      throw new Error('ui went away');
    });
    let ran = false;
    const res = await h.gw.execute('git.branch', { summary: 'branch' }, async () => {
      ran = true;
    });
    assert.equal(ran, false);
    assert.equal(res.ran, false);
    assert.match(h.approvals[0].note!, /ui went away/);
  });
});
