// Issue 21, rows 6, 7 and 8: replies a hostile model (or endpoint) sends. A reply that never ends is
// cut past its output bound and handled as truncated; a request that trickles is given up at its
// total deadline; a reply over the byte cap is refused; what one agent said reaches the next only
// within --max-input-tokens; and a reply that echoes the API key or a header value leaves it nowhere.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { LowdbStore } from '../../server/src/store/lowdb';
import { runCli, type CliResult } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest } from '../helpers/fakeOpenAi';
import { ADD_CASE, CASE_ID, goodModel, makeAddWorkspace, makeBigAddWorkspace } from '../helpers/scriptedModel';
import { listAll, rmTemp, tally } from './helpers/common';

const KEY = `sk-hostile-${randomBytes(16).toString('hex')}`;
const HEADER = `gw-${randomBytes(12).toString('hex')}`;
const fence = (v: unknown) => '```json\n' + JSON.stringify(v) + '\n```';

/** Bytes a streamed reply may reach before AMTP cuts it: 1.5 × the bound at 4 bytes a token, plus 4 KiB (llm/replyLimits.ts). */
const cutAt = (maxOutputTokens: number) => Math.ceil(maxOutputTokens * 4 * 1.5) + 4096;

/** The request's two messages, in bytes: what --max-input-tokens bounds (at 4 bytes a token). */
const requestBytes = (r: ReceivedRequest) => r.body.messages.reduce((n, m) => n + Buffer.byteLength(m.content), 0);

async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const rel of await listAll(dir)) {
    const st = await fsp.lstat(path.join(dir, rel));
    if (st.isFile() && (await fsp.readFile(path.join(dir, rel), 'utf8')).includes(needle)) hits.push(rel);
  }
  return hits;
}

describe('hostile 1: replies without end or bound, and replies that echo secrets (issue 21)', function () {
  this.timeout(180_000);
  let fake: FakeOpenAi;
  let ws: string;
  const env = (more: Record<string, string> = {}) => ({
    OPENAI_API_KEY: KEY,
    OPENAI_BASE_URL: fake.baseURL,
    AMTP_MODEL: 'm',
    AMTP_BACKOFF_SCALE: '0.001',
    ...more,
  });
  /** generate, killed after `ms` if it never ends (the bug this suite guards against). */
  const generate = (args: string[], e: Record<string, string>, ms = 120_000): Promise<CliResult> =>
    runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', ...args], e, undefined, { timeout: ms });
  /** The run's status on disk: never left `running` by any of this. */
  const statusOnDisk = async () => (await new LowdbStore(ws).listRuns()).map((r) => r.status);
  beforeEach(async () => {
    fake = await new FakeOpenAi(goodModel).start();
    ws = await makeAddWorkspace('amtp-hostile-replies-');
  });
  afterEach(async () => {
    await fake.stop();
    await rmTemp(path.dirname(ws));
  });

  it('a reply that streams 1 KB every half second forever is cut past its bound and handled as truncated; the run fails, not left running', async () => {
    const endless = { content: '{"schema_version":"1","patch":[{"op":"add","path":"/notes/-","value":"', chunks: 1 };
    fake.setFallback((req) =>
      req.agent === 'crawler' ? { ...endless, endless: { chunk: 'x'.repeat(1024), everyMs: 500 } } : goodModel(req),
    );
    const res = await generate(['--max-output-tokens', '1000'], env());
    assert.equal(res.signal, null, 'the run ended by itself');
    assert.equal(res.code, 4, res.stderr);
    const s = JSON.parse(res.stdout);
    assert.equal(s.status, 'failed');
    const kinds = s.activities[0].errors.map((e: { kind: string }) => e.kind);
    assert.ok(kinds.length > 0 && kinds.every((k: string) => k === 'OutputTruncated'), kinds.join());
    assert.match(s.activities[0].errors[0].message, /cut after \d+ bytes/);
    for (const n of fake.streamedBytes) assert.ok(n <= cutAt(1000) + 2048, `a reply streamed ${n} bytes`);
    assert.deepEqual(await statusOnDisk(), ['failed']);
    tally('1 replies without end or bound', { tried: 1 });
  });

  it('a reply that trickles under the bound is given up at the total deadline (retried, then failed)', async () => {
    fake.setFallback((req) =>
      req.agent === 'crawler' ? { content: '{', chunks: 1, endless: { chunk: ' ', everyMs: 200 } } : goodModel(req),
    );
    const res = await generate([], env({ AMTP_DEADLINE_SECONDS: '1.5' }), 90_000);
    assert.equal(res.signal, null, 'the run ended by itself');
    assert.equal(res.code, 4, res.stderr);
    const s = JSON.parse(res.stdout);
    assert.equal(s.status, 'failed');
    assert.match(s.reason, /gave up after \d+ retries: .*total deadline of 1\.5 s/);
    assert.deepEqual(await statusOnDisk(), ['failed']);
    tally('1 replies without end or bound', { tried: 1 });
  });

  it('a 10 MB reply never reaches the next agent: it is cut at the bound, and every request stays within --max-input-tokens', async () => {
    const huge = fence({ schema_version: '1', patch: [{ op: 'add', path: '/notes/-', value: 'N'.repeat(10 * 1024 * 1024) }] });
    // 5 KB pieces, 2 ms apart: the server stops writing soon after AMTP hangs up.
    fake.setFallback((req) => (req.agent === 'crawler' ? { content: huge, chunks: 2048, chunkDelayMs: 2 } : goodModel(req)));
    const res = await generate([], env());
    assert.equal(res.code, 4, res.stderr);
    const s = JSON.parse(res.stdout);
    assert.equal(s.status, 'failed');
    assert.deepEqual([...new Set(s.activities[0].errors.map((e: { kind: string }) => e.kind))], ['OutputTruncated']);
    assert.equal(fake.callsFor('generator').length, 0, 'nothing of it went on to the generator');
    for (const n of fake.streamedBytes) assert.ok(n <= cutAt(4096) + 64 * 1024, `a reply streamed ${n} bytes`);
    for (const r of fake.requests) assert.ok(requestBytes(r) <= 8000 * 4, `${r.agent} request of ${requestBytes(r)} bytes`);
    const amtp = (await listAll(path.join(ws, '.amtp'))).map((p) => path.join(ws, '.amtp', p));
    let bytes = 0;
    for (const p of amtp) bytes += (await fsp.lstat(p)).isFile() ? (await fsp.stat(p)).size : 0;
    assert.ok(bytes < 1024 * 1024, `.amtp/ holds ${bytes} bytes`);
    assert.deepEqual(await statusOnDisk(), ['failed']);
    tally('1 replies without end or bound', { tried: 1 });
  });

  it('a reply over the byte cap is refused as malformed, even under a bound that would let it through', async () => {
    const huge = fence({ schema_version: '1', patch: [{ op: 'add', path: '/notes/-', value: 'N'.repeat(10 * 1024 * 1024) }] });
    fake.setFallback((req) => (req.agent === 'crawler' ? { content: huge, chunks: 200 } : goodModel(req)));
    const res = await generate(['--max-output-tokens', '2000000'], env());
    assert.equal(res.code, 4, res.stderr);
    const s = JSON.parse(res.stdout);
    const kinds = s.activities[0].errors.map((e: { kind: string }) => e.kind);
    assert.deepEqual(kinds, ['MalformedLlmOutput', 'MalformedLlmOutput', 'MalformedLlmOutput']);
    assert.match(s.activities[0].errors[0].message, /over the 4194304-byte cap/);
    assert.deepEqual(await statusOnDisk(), ['failed']);
    tally('1 replies without end or bound', { tried: 1 });
  });

  it('dropped patch operations are one short note each, never the view; every generator request stays within --max-input-tokens', async () => {
    await rmTemp(path.dirname(ws));
    ws = await makeBigAddWorkspace(30, 'amtp-hostile-replies-');
    const patch = [
      ...Array.from({ length: 12 }, (_, i) => ({ op: 'replace', path: `/key_files/${90 + i}/doc`, value: 'x' })),
      { op: 'add', path: '/notes/-', value: 'M'.repeat(20_000) },
    ];
    fake.setFallback((req) => (req.agent === 'crawler' ? { content: fence({ schema_version: '1', patch }) } : goodModel(req)));
    const res = await generate(['--no-verify'], env());
    assert.equal(res.code, 0, res.stderr);
    const generator = fake.callsFor('generator');
    assert.ok(generator.length > 0);
    for (const r of generator) {
      assert.ok(requestBytes(r) <= 8000 * 4, `a generator request of ${requestBytes(r)} bytes`);
      const notes = (r.envelope?.payload.notes ?? []) as string[];
      assert.ok(notes.length > 0, 'the dropped operations are still reported');
      for (const n of notes) assert.ok(n.length <= 300, `a note of ${n.length} characters: ${n.slice(0, 120)}…`);
    }
    tally('1 replies without end or bound', { tried: 1 });
  });

  it('a model that echoes the API key and a header value leaves them in no file under .amtp/, no recording, no --json output, no test file', async () => {
    const echo = `${KEY} Bearer ${KEY} ${HEADER}`;
    fake.script('crawler', { content: fence({ schema_version: '1', patch: [{ op: 'add', path: '/notes/-', value: echo }] }) });
    fake.script('generator', { content: fence({ schema_version: '1', cases: [{ ...ADD_CASE, rationale: `documented; ${echo}` }] }) });
    fake.script('engineer', {
      content: fence({
        schema_version: '1',
        tests: [{ case_id: CASE_ID, body: `const seen = ${JSON.stringify(echo)};\nassert.equal(add(2, 3), 5);` }],
        not_written: [],
      }),
    });
    const rec = path.join(path.dirname(ws), 'run.jsonl');
    const res = await generate(['--record', rec, '--no-verify'], env({ AMTP_HEADERS: JSON.stringify({ 'X-Gateway-Token': HEADER }) }));
    assert.equal(res.code, 0, res.stderr);
    assert.equal(fake.requests[0].headers['x-gateway-token'], HEADER, 'the header did go to the endpoint');
    const where: string[] = [];
    for (const secret of [KEY, HEADER]) {
      if (res.stdout.includes(secret)) where.push('stdout');
      if (res.stderr.includes(secret)) where.push('stderr');
      if ((await fsp.readFile(rec, 'utf8')).includes(secret)) where.push('recording');
      where.push(...(await filesContaining(path.join(ws, '.amtp'), secret)).map((p) => `.amtp/${p}`));
      where.push(...(await filesContaining(path.join(ws, 'test'), secret)).map((p) => `test/${p}`));
    }
    tally('6 secrets', { tried: 5, failures: where.length });
    assert.deepEqual(where, []);
    assert.match(
      await fsp.readFile(path.join(ws, 'test/adder.amtp.test.js'), 'utf8'),
      /\[REDACTED\]/,
      'the echo became data with the secret cut out',
    );
  });
});
