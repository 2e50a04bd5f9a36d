import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { AmtpService, RestrictedModeError } from '../../server/src/lsp/service';
import { FakeClient } from '../helpers/fakeClient';
import { copyWorkspace, SAMPLE_LIB } from '../helpers/workspaces';
import * as P from '../../server/src/protocol';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { CASE_ID, goodModel, makeAddWorkspace } from '../helpers/scriptedModel';

const copySample = () => copyWorkspace(SAMPLE_LIB);

// These tests are about writes and approvals; the verify stage has its own tests below. Characterization
// (it asks its own run-wide tests.run approval before running workspace code) is off for the same reason.
const settings: P.ServerSettings = { provider: 'offline', approvalTimeoutSeconds: 30, verify: false, characterize: false };

describe('language server handlers (in-process)', function () {
  this.timeout(60_000);
  let ws: string;
  beforeEach(async () => {
    ws = await copySample();
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  /** The file a run at `depth` writes, learnt on a copy of the workspace so that `ws` has no earlier run. */
  async function writtenFile(depth: 'smoke' | 'standard'): Promise<string> {
    const copy = await copySample();
    try {
      const probe = new FakeClient();
      const svc = new AmtpService(copy, probe.port, { trusted: true, settings });
      await svc.generate({ depth, framework: 'auto' });
      await svc.idle();
      return probe.views.at(-1)!.files[0].path;
    } finally {
      await fsp.rm(path.dirname(copy), { recursive: true, force: true });
    }
  }

  it("a repository's .vscode/settings.json cannot lower a risk: the overwrite still asks, and the attempt is logged and audited", async () => {
    await fsp.mkdir(path.join(ws, '.vscode'), { recursive: true });
    await fsp.writeFile(
      path.join(ws, '.vscode/settings.json'),
      JSON.stringify({ 'amtp.baseURL': 'http://127.0.0.1:9/v1', 'amtp.riskOverrides': { 'fs.overwrite': 'low' } }),
    );
    const target = path.join(ws, 'test/sample-lib.amtp.test.js');
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.writeFile(target, 'mine');
    const client = new FakeClient(async () => ({ decision: 'rejected', note: 'keep it' }));
    const svc = new AmtpService(ws, client.port, { trusted: true, settings });
    const { runId } = await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    assert.deepEqual(
      client.approvals.map((a) => [a.tool, a.risk]),
      [['fs.overwrite', 'high']],
    );
    assert.equal(await fsp.readFile(target, 'utf8'), 'mine');
    assert.ok(
      client.logs.some((l) => /warn: .*asks to lower fs\.overwrite from high to low; AMTP ignores it/.test(l)),
      client.logs.join('\n'),
    );
    const run = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${runId}.json`), 'utf8'));
    assert.deepEqual(run.audit.filter((a: { tool: string }) => a.tool === 'settings.ignored').length, 2);
  });

  it("Run Tests runs the written files with the project's runner and reports results by case, with the runner's whole message", async () => {
    const fake = await new FakeOpenAi(goodModel).start();
    const add = await makeAddWorkspace('amtp-lsp-runtests-');
    try {
      const client = new FakeClient();
      const svc = new AmtpService(add, client.port, {
        trusted: true,
        settings: { ...settings, provider: 'openai', baseURL: fake.baseURL },
      });
      svc.setCredentials({ apiKey: 'sk-test-runtests-000' });
      const { runId } = await svc.generate({ depth: 'standard', framework: 'auto' });
      await svc.idle();
      assert.equal(client.views.at(-1)!.status, 'completed', client.views.at(-1)!.reason);
      const r = await svc.runTests({ runId });
      assert.deepEqual(
        r.results.map((x) => [x.caseId, x.outcome]),
        [[CASE_ID, 'passing']],
      );
      assert.equal(r.framework, 'node-test');
      assert.equal(r.coverage, undefined, 'no coverage unless asked');
      // The Coverage profile: the same run, measured with nothing installed in the project.
      const cov = await svc.runTests({ runId, coverage: true });
      assert.deepEqual(
        cov.results.map((x) => x.outcome),
        ['passing'],
      );
      const index = cov.coverage!.find((f) => f.path === 'index.js')!;
      assert.ok(index, JSON.stringify(cov.coverage));
      assert.ok(index.statements.length > 0 && index.statements.every((st) => st.count > 0), 'add() runs every statement of index.js');
      await fsp.writeFile(path.join(add, 'index.js'), 'function add(a, b) { return a - b; }\nmodule.exports = { add };\n');
      const failing = await svc.runTests({ caseIds: [CASE_ID] });
      assert.equal(failing.results[0].outcome, 'failing');
      assert.match(failing.results[0].message!, /-1[\s\S]*5|5[\s\S]*-1/, 'the whole assertion message comes back');
      // Each run went through the run's gateway: an approval (the person's click) and an audit row tied to it.
      const record = JSON.parse(await fsp.readFile(path.join(add, '.amtp/runs', `${runId}.json`), 'utf8'));
      const approvals = record.approvals.filter((a: { tool: string }) => a.tool === 'tests.run');
      assert.deepEqual(
        approvals.map((a: { risk: string; decision: string; decidedBy: string }) => [a.risk, a.decision, a.decidedBy]),
        [
          ['high', 'approved', 'person (command)'],
          ['high', 'approved', 'person (command)'],
          ['high', 'approved', 'person (command)'],
        ],
      );
      assert.match(approvals[1].summary, /^Run Generated Tests in VS Code \(every written case, with coverage\)/);
      assert.match(approvals[2].summary, /^Run Generated Tests in VS Code \(1 case\(s\)\)/);
      const audit = record.audit.filter((a: { tool: string }) => a.tool === 'tests.run');
      assert.deepEqual(
        audit.map((a: { outcome: string; approvalId: string }) => [a.outcome, a.approvalId]),
        approvals.map((a: { id: string }) => ['executed', a.id]),
      );
    } finally {
      await fake.stop();
      await fsp.rm(path.dirname(add), { recursive: true, force: true });
    }
  });

  it('generate runs the offline pipeline, publishes the run and its cases, and reports progress on the client token', async () => {
    const client = new FakeClient();
    const svc = new AmtpService(ws, client.port, { trusted: true, settings });
    const { runId } = await svc.generate({ depth: 'standard', framework: 'auto', workDoneToken: 'tok-1' });
    await svc.idle();
    const last = client.views.at(-1)!;
    assert.equal(last.runId, runId);
    assert.equal(last.status, 'completed', last.reason);
    assert.ok(last.cases.length > 0);
    const written = last.cases.filter((c) => c.status === 'written');
    for (const c of written) {
      assert.ok(c.testFile && c.testLine !== undefined, c.id);
      const lines = (await fsp.readFile(path.join(ws, c.testFile!), 'utf8')).split('\n');
      assert.ok(lines[c.testLine!].includes(c.id), 'the test line carries the case id');
    }
    for (const c of last.cases.filter((x) => x.status === 'not_written')) assert.ok(c.reason, `${c.id} has a reason`);
    const kinds = client.progressEvents.filter((p) => p.token === 'tok-1').map((p) => p.value.kind);
    assert.equal(kinds[0], 'begin');
    assert.equal(kinds.at(-1), 'end');
    assert.ok(client.progressEvents.some((p) => p.value.kind === 'report' && /generator/.test(p.value.message ?? '')));
    assert.equal(client.approvals.length, 0, 'new test files are medium risk: no prompt');
    const runs = await svc.runs();
    assert.equal(runs.runs.length, 1);
  });

  it('an overwrite asks the client with a diff; reject leaves the file byte-identical; approve writes it', async () => {
    // Learn which file the engineer writes (in a copy of the workspace: replacing the tests an earlier
    // run wrote would be deleting them by hand, and they would not be planned again), then put a
    // hand-written file there.
    const target = await writtenFile('standard');
    const original = '// mine\n';
    await fsp.mkdir(path.dirname(path.join(ws, target)), { recursive: true });
    await fsp.writeFile(path.join(ws, target), original);

    const rejecting = new FakeClient(async () => ({ decision: 'rejected', note: 'keep mine' }));
    const svc = new AmtpService(ws, rejecting.port, { trusted: true, settings });
    await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    assert.equal(rejecting.approvals.length, 1);
    const req = rejecting.approvals[0];
    assert.equal(req.tool, 'fs.overwrite');
    assert.equal(req.risk, 'high');
    assert.equal(req.diff!.before, original);
    assert.notEqual(req.diff!.after, original);
    assert.equal(await fsp.readFile(path.join(ws, target), 'utf8'), original);
    const run = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${rejecting.views.at(-1)!.runId}.json`), 'utf8'));
    assert.equal(run.approvals[0].decision, 'rejected');
    assert.equal(run.approvals[0].note, 'keep mine');
    assert.ok(run.approvals[0].decidedAt);

    const approving = new FakeClient();
    const svc2 = new AmtpService(ws, approving.port, { trusted: true, settings });
    await svc2.generate({ depth: 'standard', framework: 'auto' });
    await svc2.idle();
    assert.equal(await fsp.readFile(path.join(ws, target), 'utf8'), approving.approvals[0].diff!.after);
  });

  it("amtp.intoExistingTestFile (or the request's intoExisting) adds the cases to the person's file: an overwrite asked with the diff, their text kept", async () => {
    const mine =
      "const test = require('node:test');\nconst assert = require('node:assert');\n\ntest('mine', () => {\n  assert.ok(true);\n});\n";
    const theirs = path.join(ws, 'test/sample-lib.test.js');
    await fsp.mkdir(path.dirname(theirs), { recursive: true });
    await fsp.writeFile(theirs, mine);

    // The setting, a rejection: the person's file stays as it was, no AMTP file appears.
    const rejecting = new FakeClient(async () => ({ decision: 'rejected' }));
    const svc = new AmtpService(ws, rejecting.port, { trusted: true, settings: { ...settings, intoExistingTestFile: true } });
    await svc.generate({ depth: 'standard', framework: 'auto' });
    await svc.idle();
    assert.deepEqual(
      rejecting.approvals.map((a) => [a.tool, a.risk, a.diff?.path, a.diff?.before]),
      [['fs.overwrite', 'high', 'test/sample-lib.test.js', mine]],
    );
    const after = rejecting.approvals[0].diff!.after;
    assert.ok(after.includes("\ntest('mine', () => {\n  assert.ok(true);\n});\n\ndescribe('src/index.js (AMTP)', () => {\n"), after);
    assert.deepEqual(
      rejecting.views.at(-1)!.files.map((f) => [f.path, f.action]),
      [['test/sample-lib.test.js', 'rejected']],
    );
    assert.equal(await fsp.readFile(theirs, 'utf8'), mine);
    await assert.rejects(fsp.access(path.join(ws, 'test/sample-lib.amtp.test.js')));

    // The request's parameter wins over the setting: false writes AMTP's own file.
    const own = new AmtpService(ws, new FakeClient().port, { trusted: true, settings: { ...settings, intoExistingTestFile: true } });
    await own.generate({ depth: 'standard', framework: 'auto', intoExisting: false });
    await own.idle();
    await fsp.access(path.join(ws, 'test/sample-lib.amtp.test.js'));

    // Approved: the file is the diff's `after`.
    const approving = new FakeClient();
    const svc2 = new AmtpService(ws, approving.port, { trusted: true, settings });
    await svc2.generate({ depth: 'standard', framework: 'auto', intoExisting: true });
    await svc2.idle();
    const ask = approving.approvals.find((a) => a.diff?.path === 'test/sample-lib.test.js')!;
    assert.equal(ask.tool, 'fs.overwrite');
    assert.equal(await fsp.readFile(theirs, 'utf8'), ask.diff!.after);
  });

  it('no answer within the approval timeout is recorded as timeout and nothing is written', async () => {
    const target = await writtenFile('smoke');
    await fsp.mkdir(path.dirname(path.join(ws, target)), { recursive: true });
    await fsp.writeFile(path.join(ws, target), 'x');
    const silent = new FakeClient(() => new Promise(() => undefined));
    const svc = new AmtpService(ws, silent.port, { trusted: true, settings: { ...settings, approvalTimeoutSeconds: 0.2 } });
    await svc.generate({ depth: 'smoke', framework: 'auto' });
    await svc.idle();
    const run = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${silent.views.at(-1)!.runId}.json`), 'utf8'));
    assert.equal(run.approvals[0].decision, 'timeout');
    assert.equal(await fsp.readFile(path.join(ws, target), 'utf8'), 'x');
  });

  it('Restricted Mode: crawl works, generate and resume are refused, nothing is written', async () => {
    const client = new FakeClient();
    const svc = new AmtpService(ws, client.port, { trusted: false, settings });
    const crawl = await svc.crawl();
    assert.equal(crawl.project, 'sample-lib');
    assert.ok(crawl.keyFiles >= 1);
    await assert.rejects(svc.generate({ depth: 'smoke', framework: 'auto' }), RestrictedModeError);
    await assert.rejects(svc.resume({ runId: 'r_x' }), RestrictedModeError);
    await assert.rejects(fsp.access(path.join(ws, '.amtp')));
    svc.setTrusted(true);
    await svc.generate({ depth: 'smoke', framework: 'auto' });
    await svc.idle();
    assert.equal(client.views.at(-1)!.status, 'completed');
  });

  it('the API key is used but never logged', async () => {
    const client = new FakeClient();
    const svc = new AmtpService(ws, client.port, { trusted: true, settings });
    svc.setCredentials({ apiKey: 'sk-test-never-logged-123456' });
    assert.ok(client.logs.every((l) => !l.includes('sk-test-never-logged')));
    assert.deepEqual(await svc.detect(), { framework: 'node-test', language: 'javascript' });
  });
});

describe('language server over stdio', function () {
  this.timeout(60_000);
  it('initializes, answers amtp/detect and amtp/generate, and notifies amtp/runChanged (the shared message types)', async () => {
    const ws = await copySample();
    const child = spawn(process.execPath, [path.resolve(__dirname, '../../dist/server.js'), '--stdio'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const views: P.RunView[] = [];
    // protocol.ts's message objects, as the VS Code client uses them: client and server share one
    // vscode-languageserver-protocol, so the library's typed overloads take them on both sides.
    P.onNotification(conn, P.RunChanged, (p) => {
      views.push(p.run);
    });
    conn.listen();
    try {
      await conn.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(ws).href,
        workspaceFolders: [{ uri: pathToFileURL(ws).href, name: 'sample-lib' }],
        capabilities: {},
        initializationOptions: { trusted: true, settings } satisfies P.InitOptions,
      });
      await conn.sendNotification('initialized', {});
      assert.deepEqual(await P.sendRequest(conn, P.Detect, null), { framework: 'node-test', language: 'javascript' });
      // The wire names stay plain strings, for any other client.
      assert.deepEqual(await conn.sendRequest('amtp/detect', null), { framework: 'node-test', language: 'javascript' });
      const { runId } = await P.sendRequest(conn, P.Generate, { depth: 'smoke', framework: 'auto' });
      const deadline = Date.now() + 30_000;
      while (!views.some((v) => v.runId === runId && v.status === 'completed') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.ok(views.some((v) => v.runId === runId && v.status === 'completed'));
      await conn.sendRequest('shutdown');
      await conn.sendNotification('exit');
    } finally {
      conn.dispose();
      child.kill();
      await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    }
  });
});
