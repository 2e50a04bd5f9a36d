// The branch stage (server/src/git) on real temporary git repositories: one commit of exactly the
// kept files on a new branch, the person's HEAD, index and working tree untouched, high risk
// through the gateway, re-entrant on resume.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_VERIFY, type RunRecord } from '../../server/src/core/run';
import { approveAll, deferAll, rejectAll } from '../../server/src/gateway/approvers';
import { branchNameFor, cleanBranchName, checkedBranchName } from '../../server/src/git/branchName';
import { commitMessage } from '../../server/src/git/stage';
import { resolveParams } from '../../server/src/pipeline/config';
import { resumeRun, startRun } from '../../server/src/pipeline/orchestrator';
import { makeAddWorkspace } from '../helpers/scriptedModel';
import { offlineDeps } from '../helpers/pipelineDeps';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Person',
  GIT_AUTHOR_EMAIL: 'person@example.com',
  GIT_COMMITTER_NAME: 'Person',
  GIT_COMMITTER_EMAIL: 'person@example.com',
};
const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...IDENTITY } }).trim();

/** The adder workspace as a git repository with one commit, a staged change and an unstaged one of the person's own. */
async function gitWorkspace(): Promise<string> {
  const ws = await makeAddWorkspace('amtp-git-');
  sh(ws, 'init', '-q', '-b', 'main');
  sh(ws, 'add', '-A');
  sh(ws, 'commit', '-q', '-m', 'initial');
  await fsp.writeFile(path.join(ws, 'NOTES.md'), 'staged by the person\n');
  sh(ws, 'add', 'NOTES.md');
  await fsp.appendFile(path.join(ws, 'README.md'), '\nunstaged edit\n');
  return ws;
}

const deps = offlineDeps;

function params(commit: boolean) {
  return { ...resolveParams({ provider: 'offline' }), verify: { ...DEFAULT_VERIFY, runs: 1 }, commit };
}

/** What the person sees: HEAD, the staged paths, the short status. */
const personView = (ws: string) => ({
  head: sh(ws, 'rev-parse', 'HEAD'),
  branch: sh(ws, 'branch', '--show-current'),
  staged: sh(ws, 'diff', '--cached', '--name-only'),
  status: sh(ws, 'status', '--porcelain'),
});

describe('git.branch: a branch with one commit of the kept files', function () {
  this.timeout(120_000);
  const prev: Record<string, string | undefined> = {};
  before(() => {
    for (const [k, v] of Object.entries(IDENTITY)) {
      prev[k] = process.env[k];
      process.env[k] = v;
    }
  });
  after(() => {
    for (const [k, v] of Object.entries(prev))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });
  const cleanups: string[] = [];
  afterEach(async () => {
    for (const d of cleanups.splice(0)) await fsp.rm(path.dirname(d), { recursive: true, force: true });
  });
  const fresh = async () => {
    const ws = await gitWorkspace();
    cleanups.push(ws);
    return ws;
  };

  it('commits exactly the kept files on a new branch named from the PR metadata; HEAD, index and working tree are untouched', async () => {
    const ws = await fresh();
    const before = personView(ws);
    const run = await startRun(deps(ws, approveAll), params(true));
    assert.equal(run.status, 'completed', run.reason);
    const b = run.branch!;
    assert.equal(b.status, 'created', b.reason);
    assert.equal(b.name, 'amtp/tests-adder-node-test'); // the offline engineer's pr.branch
    assert.deepEqual(b.files, ['test/adder.amtp.test.js']);
    assert.equal(b.base, before.head);
    // The commit: parent HEAD, and the only difference from HEAD is the kept file, byte for byte.
    assert.equal(sh(ws, 'rev-parse', `refs/heads/${b.name}`), b.commit);
    assert.equal(sh(ws, 'rev-parse', `${b.commit}^`), before.head);
    assert.equal(sh(ws, 'diff-tree', '--no-commit-id', '--name-status', '-r', before.head, b.commit!), 'A\ttest/adder.amtp.test.js');
    assert.equal(
      sh(ws, 'show', `${b.commit}:test/adder.amtp.test.js`) + '\n',
      await fsp.readFile(path.join(ws, 'test/adder.amtp.test.js'), 'utf8'),
    );
    const message = sh(ws, 'log', '-1', '--format=%B', b.commit!);
    assert.match(message, /^test: add \d+ generated node-test tests? for adder\n/);
    assert.match(message, new RegExp(`\\nAMTP-Run: ${run.id}\\nAMTP-Labels: tests, amtp, node-test$`));
    assert.equal(sh(ws, 'log', '-1', '--format=%an <%ae>', b.commit!), 'Person <person@example.com>');
    // The person's view: same HEAD and branch, their staged file still staged, the rest as it was plus the new untracked test.
    const after = personView(ws);
    assert.deepEqual(
      { head: after.head, branch: after.branch, staged: after.staged },
      { head: before.head, branch: 'main', staged: 'NOTES.md' },
    );
    assert.equal(after.status, [before.status, '?? test/'].join('\n'));
    const approval = run.approvals.find((a) => a.tool === 'git.branch')!;
    assert.deepEqual([approval.risk, approval.decision, approval.target], ['high', 'approved', b.name]);
    assert.equal(
      run.audit
        .filter((a) => a.tool === 'git.branch')
        .map((a) => a.outcome)
        .join(),
      'executed',
    );
  });

  it('never moves an existing branch: the run id is appended to the name', async () => {
    const ws = await fresh();
    sh(ws, 'branch', 'amtp/tests-adder-node-test');
    const theirs = sh(ws, 'rev-parse', 'amtp/tests-adder-node-test');
    const run = await startRun(deps(ws, approveAll), params(true));
    assert.equal(run.branch!.name, `amtp/tests-adder-node-test-${run.id.slice(2)}`);
    assert.equal(sh(ws, 'rev-parse', 'amtp/tests-adder-node-test'), theirs);
  });

  it('a resumed run adopts the branch it made instead of making a second one', async () => {
    const ws = await fresh();
    const d = deps(ws, approveAll);
    const first = await startRun(d, params(true));
    const tip = first.branch!.commit;
    // As if killed right after `update-ref`, before the run record said so.
    await d.store.saveRun({ ...first, status: 'failed', branch: undefined });
    const resumed = await resumeRun(d, first.id);
    assert.equal(resumed.branch!.status, 'created');
    assert.equal(resumed.branch!.commit, tip);
    assert.equal(resumed.audit.filter((a) => a.tool === 'git.branch' && a.outcome === 'executed').length, 1, 'committed once');
    assert.deepEqual(sh(ws, 'for-each-ref', '--format=%(refname)', 'refs/heads/amtp').split('\n'), [
      'refs/heads/amtp/tests-adder-node-test',
    ]);
  });

  it('without a decision the run waits (awaiting_approval); a rejection commits nothing and the run stays completed', async () => {
    const ws = await fresh();
    const pending: RunRecord = await startRun(
      deps(ws, { ask: async (r) => (r.tool === 'git.branch' ? deferAll.ask(r) : approveAll.ask(r)) }),
      params(true),
    );
    assert.equal(pending.status, 'awaiting_approval');
    assert.match(pending.reason!, /the branch waits for approval: amtp approve r_/);
    assert.equal(pending.branch!.status, 'awaiting_approval');
    assert.equal(sh(ws, 'for-each-ref', 'refs/heads/amtp'), '');

    const ws2 = await fresh();
    const rejected = await startRun(
      deps(ws2, { ask: async (r) => (r.tool === 'git.branch' ? rejectAll.ask(r) : approveAll.ask(r)) }),
      params(true),
    );
    assert.equal(rejected.status, 'completed');
    assert.equal(rejected.branch!.status, 'rejected');
    assert.match(rejected.branch!.reason!, /rejected: nothing was committed/);
    assert.equal(sh(ws2, 'for-each-ref', 'refs/heads/amtp'), '');
  });

  it('a branch git cannot create fails the run with the reason; nothing half-made is left', async () => {
    const ws = await fresh();
    sh(ws, 'branch', 'amtp'); // refs/heads/amtp is a file, so refs/heads/amtp/… cannot exist
    const run = await startRun(deps(ws, approveAll), params(true));
    assert.equal(run.status, 'failed');
    assert.match(run.reason!, /^the tests are written, but the branch could not be created: git update-ref failed: .*refs\/heads\/amtp/);
    assert.equal(run.branch!.status, 'failed');
    assert.deepEqual(sh(ws, 'for-each-ref', '--format=%(refname)', 'refs/heads').split('\n'), ['refs/heads/amtp', 'refs/heads/main']);
    assert.equal(
      run.audit
        .filter((a) => a.tool === 'git.branch')
        .map((a) => a.outcome)
        .join(),
      'failed',
    );
  });

  it('asks for nothing without --commit, and skips with the reason outside a git repository or when git ignores every kept file', async () => {
    const ws = await fresh();
    const asked: string[] = [];
    const plain = await startRun(deps(ws, { ask: async (r) => (asked.push(r.tool), approveAll.ask(r)) }), params(false));
    assert.equal(plain.branch, undefined);
    assert.deepEqual(asked, ['tests.run']);

    const bare = await makeAddWorkspace('amtp-nogit-');
    cleanups.push(bare);
    const outside = await startRun(deps(bare, approveAll), params(true));
    assert.equal(outside.status, 'completed');
    assert.deepEqual([outside.branch!.status, outside.branch!.reason], ['skipped', 'the workspace is not inside a git repository']);

    const ignoring = await fresh();
    await fsp.writeFile(path.join(ignoring, '.gitignore'), 'test/\n');
    const ignored = await startRun(deps(ignoring, approveAll), params(true));
    assert.equal(ignored.branch!.status, 'skipped');
    assert.match(ignored.branch!.reason!, /git ignores them: test\/adder\.amtp\.test\.js/);
    assert.ok(!ignored.approvals.some((a) => a.tool === 'git.branch'), 'nothing to approve');
  });
});

describe('branch names', () => {
  it('cleans what git would refuse, and git has the last word', async () => {
    assert.equal(cleanBranchName('amtp/tests-adder'), 'amtp/tests-adder');
    assert.equal(cleanBranchName('../.hidden/a..b/x.lock/'), 'hidden/a.b/x');
    assert.equal(cleanBranchName('-lead/ends.'), 'lead/ends');
    assert.equal(cleanBranchName('spaces and ~^:?*[ chars'), 'spaces-and-chars');
    assert.equal(cleanBranchName('..//.'), 'amtp/tests');
    const cwd = process.cwd();
    assert.equal(await checkedBranchName(cwd, 'a..b'), undefined);
    assert.equal(await checkedBranchName(cwd, 'amtp/tests-x'), 'amtp/tests-x');
    for (const raw of ['a..b', '.x/y.lock', 'x//y', '@', 'a/.b', 'end.'])
      assert.ok(await checkedBranchName(cwd, cleanBranchName(raw)), raw);
    await assert.rejects(
      branchNameFor(cwd, 'x', 'r_1', async () => 'other'),
      /both exist already/,
    );
  });

  it('the commit message: title, body, then the run and the labels as trailers', () => {
    assert.equal(
      commitMessage({ branch: 'b', title: ' t ', body: 'line\n', labels: ['a', 'b'] }, 'r_1'),
      't\n\nline\n\nAMTP-Run: r_1\nAMTP-Labels: a, b\n',
    );
    assert.equal(commitMessage({ branch: 'b', title: 't', body: '', labels: [] }, 'r_1'), 't\n\nAMTP-Run: r_1\n');
    assert.equal(
      commitMessage({ branch: 'b', title: 'a\nAMTP-Run: r_2', body: '', labels: ['x\nAMTP-Run: r_3', ' '] }, 'r_1'),
      'a AMTP-Run: r_2\n\nAMTP-Run: r_1\nAMTP-Labels: x AMTP-Run: r_3\n',
    );
  });
});
