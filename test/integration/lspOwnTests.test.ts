// The Testing view's own test files (issue 27): the server lists the files the project's test
// command runs (amtp/workspaceTestFiles), reads every test in them (amtp/fileTests: names, describe
// names and lines, no case id), and runs them with the project's runner through the same gate as
// AMTP's tests (amtp/runTests with `files`): the person's click, recorded on the newest run.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { AmtpService } from '../../server/src/lsp/service';
import type * as P from '../../server/src/protocol';
import { FakeClient } from '../helpers/fakeClient';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { goodModel, makeAddWorkspace } from '../helpers/scriptedModel';

const settings: P.ServerSettings = { provider: 'openai', approvalTimeoutSeconds: 30, verify: false, characterize: false };
const OWN = 'test/own.test.js';
const OWN_TEXT = [
  "const { describe, it } = require('node:test');",
  "const assert = require('node:assert');",
  "const { add } = require('../index');",
  '',
  "describe('add', () => {",
  "  it('adds two numbers', () => {",
  '    assert.strictEqual(add(1, 2), 3);',
  '  });',
  '});',
  '',
  "it('fails on purpose', () => {",
  '  assert.strictEqual(add(1, 1), 3);',
  '});',
  '',
].join('\n');

describe("the person's own test files in the Testing view (in-process)", function () {
  this.timeout(120_000);
  let ws: string;
  beforeEach(async () => {
    ws = await makeAddWorkspace('amtp-lsp-own-');
    await fsp.mkdir(path.join(ws, 'test'), { recursive: true });
    await fsp.writeFile(path.join(ws, OWN), OWN_TEXT);
    // Not run by `node --test`: a dependency's tests and a source file.
    await fsp.mkdir(path.join(ws, 'node_modules/dep'), { recursive: true });
    await fsp.writeFile(path.join(ws, 'node_modules/dep/dep.test.js'), "require('node:test')('x', () => {});\n");
    await fsp.writeFile(path.join(ws, 'helper.js'), 'module.exports = {};\n');
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  it('lists the test files the test command runs, and every test in them with its line (read-only, Restricted Mode too)', async () => {
    const svc = new AmtpService(ws, new FakeClient().port, { trusted: false, settings });
    const listed = await svc.workspaceTestFiles();
    assert.deepEqual(listed.files, [OWN]);
    assert.equal(listed.truncated, false);
    assert.match(listed.source, /^node-test \(/);
    const { files } = await svc.fileTests({ files: [OWN] });
    assert.deepEqual(files, [
      {
        file: OWN,
        tests: [
          { name: 'adds two numbers', suites: ['add'], line: 5 },
          { name: 'fails on purpose', suites: [], line: 10 },
        ],
      },
    ]);
  });

  it("runs them with the project's runner, by name or whole, each run approved and audited on the newest run", async () => {
    const client = new FakeClient();
    const fake = await new FakeOpenAi(goodModel).start();
    try {
      const svc = new AmtpService(ws, client.port, { trusted: true, settings: { ...settings, baseURL: fake.baseURL } });
      svc.setCredentials({ apiKey: 'sk-test-own-000' });
      await assert.rejects(svc.runTests({ files: [OWN] }), /recorded in an AMTP run .* none yet/);
      const { runId } = await svc.generate({ depth: 'standard', framework: 'auto' });
      await svc.idle();
      const one = await svc.runTests({ files: [OWN], ownTests: [{ file: OWN, name: 'adds two numbers', suites: ['add'] }] });
      assert.deepEqual(
        one.ownResults?.filter((t) => t.outcome !== 'skipped').map((t) => [t.name, t.outcome]),
        [['adds two numbers', 'passing']],
        'only the asked test ran (node --test reports the others skipped)',
      );
      assert.deepEqual(one.results, [], 'none of AMTP cases ran');
      const whole = await svc.runTests({ files: [OWN] });
      const outcomes = new Map(whole.ownResults?.map((t) => [t.name, t]));
      assert.equal(outcomes.get('adds two numbers')?.outcome, 'passing');
      assert.equal(outcomes.get('fails on purpose')?.outcome, 'failing');
      assert.match(outcomes.get('fails on purpose')?.message ?? '', /2[\s\S]*3|3[\s\S]*2/);
      await assert.rejects(svc.runTests({ files: ['../outside.test.js'] }), /outside|escape/i);
      const record = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${runId}.json`), 'utf8'));
      const approvals = record.approvals.filter((a: { tool: string }) => a.tool === 'tests.run');
      assert.equal(approvals.length, 2, 'the escaping path was refused before any approval');
      for (const a of approvals) assert.match(a.summary, /^Run Generated Tests in VS Code \(1 of your own test file\(s\)\)/);
    } finally {
      await fake.stop();
    }
  });
});
