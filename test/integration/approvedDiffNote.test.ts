// What an approved diff showed is what lands (issue 27): when verification takes tests out of a file
// the person approved with a diff, the run says so, file by file, with each test and its verdict, in
// the --json summary (what the MCP tool returns too) and in the text summary.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { padkitWithOwnTest, removeWorkspace } from '../helpers/workspaces';

describe('a note when verification takes tests out of an approved file', function () {
  this.timeout(240_000);
  let ws: string;
  beforeEach(async () => {
    ws = await padkitWithOwnTest();
  });
  afterEach(() => removeWorkspace(ws));

  it('names the file, the test gone and why (an approved overwrite of the person’s file)', async () => {
    const args = ['generate', ws, '--provider', 'offline', '--yes', '--into-existing', '--only', 'index.js#zeroPad'];
    const r = await runCli([...args, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    const approval = s.approvals.find(
      (a: { tool: string; target: string }) => a.tool === 'fs.overwrite' && a.target === 'test/padkit.test.js',
    );
    assert.equal(approval?.decision, 'approved');
    const quarantined = s.verification.results.find((x: { outcome: string }) => x.outcome === 'quarantined');
    assert.deepEqual(s.verification.afterApproval, [
      {
        file: 'test/padkit.test.js',
        approvalId: approval.id,
        shown: 4,
        kept: 3,
        dropped: [
          {
            caseId: quarantined.caseId,
            title: "zeroPad('7', 3) returns '007'",
            outcome: 'quarantined',
            reason: quarantined.reason,
            movedTo: 'test/padkit.amtp.quarantine.test.js',
          },
        ],
      },
    ]);
    const text = await fsp.readFile(path.join(ws, 'test/padkit.test.js'), 'utf8');
    assert.ok(!text.includes(quarantined.caseId), 'the test is gone from the approved file');
  });

  it('says it in the text summary, and not for files written without an approval', async () => {
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--into-existing', '--only', 'index.js#zeroPad']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /NOTE after your approval: test\/padkit\.test\.js: the diff you approved showed 4 test\(s\); verification kept 3 and took out 1: tc_[0-9a-f]+ "zeroPad\('7', 3\) returns '007'" \(quarantined: moved to test\/padkit\.amtp\.quarantine\.test\.js, skipped\)/,
    );
    // A new AMTP file is medium risk (written, audited, no diff approved): its dropped tests are in the results, with no note.
    await fsp.rm(path.join(ws, 'test/padkit.test.js'));
    const plain = JSON.parse((await runCli(['generate', ws, '--provider', 'offline', '--yes', '--full', '--json'])).stdout);
    assert.ok(plain.verification.results.some((x: { outcome: string }) => x.outcome !== 'passing'));
    assert.equal(plain.verification.afterApproval, undefined);
  });
});
