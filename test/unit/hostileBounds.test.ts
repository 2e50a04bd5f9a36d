// The pure pieces behind issue 21's hostile-data fixes: how far a reply may stream, the two clocks
// of a request, what a note may carry, what the read tools redact, which records a listing skips,
// and the seal of an approval. The end-to-end attacks are in test/hostile/.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { closeSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { boundNotes, droppedOperation, MAX_NOTE_CHARS, MAX_NOTES } from '../../server/src/agents/crawler/notes';
import { applyToView } from '../../server/src/agents/crawler/batches';
import type { CrawlerOutput } from '../../server/src/contracts/types';
import { MalformedLlmOutput } from '../../server/src/llm/errors';
import { acceptReply } from '../../server/src/llm/accept';
import { defaultDeadlineSeconds, REPLY_BYTE_CAP, streamLimitBytes } from '../../server/src/llm/replyLimits';
import { readStream, RequestWatch } from '../../server/src/llm/stream';
import { walkTree } from '../../server/src/mcp/walk';
import { isSealedApproval, sealApproval, sealedRisks, sealRisks } from '../../server/src/store/ownership';
import { ignoredRunsNote, runRecordProblem } from '../../server/src/store/runRecords';
import { isSecretEnvFile, REDACTED, redactKnown, redactText } from '../../server/src/util/redact';
import { NotRegularFileError, openRegularFileSync } from '../../server/src/util/regularFile';

const chunk = (content: string) => ({ choices: [{ delta: { content }, finish_reason: null }] });

describe('hostile bounds: replies', () => {
  it('a streamed reply may reach 1.5 × its bound at 4 bytes a token plus 4 KiB, never past the 4 MiB cap', () => {
    assert.equal(streamLimitBytes(4096), 28_672);
    assert.equal(streamLimitBytes(1000), 10_096);
    assert.equal(streamLimitBytes(10_000_000), REPLY_BYTE_CAP + 1);
    assert.equal(defaultDeadlineSeconds(600, 4096), 1624);
  });

  it('readStream stops past the limit and says the reply was cut; a reply under it is read whole', async () => {
    async function* endless() {
      for (;;) yield chunk('x'.repeat(1000));
    }
    const watch = new RequestWatch(60_000, 60_000);
    try {
      const cut = await readStream(endless(), watch, 5000);
      assert.deepEqual([cut.cut, cut.bytes, cut.content.length], [true, 6000, 6000]);
      async function* short() {
        yield chunk('{"a":');
        yield { choices: [{ delta: { content: '1}' }, finish_reason: 'stop' }] };
      }
      const whole = await readStream(short(), watch, 5000);
      assert.deepEqual([whole.cut, whole.content, whole.finishReason], [undefined, '{"a":1}', 'stop']);
    } finally {
      watch.stop();
    }
  });

  it('the total deadline fires even while chunks keep the idle clock alive', async () => {
    const watch = new RequestWatch(10_000, 150);
    const fired = new Promise<void>((resolve) => watch.signal.addEventListener('abort', () => resolve()));
    const ticker = setInterval(() => watch.touch(), 20);
    await fired;
    clearInterval(ticker);
    assert.equal(watch.fired, 'deadline');
  });

  it('a whole reply over the byte cap is refused as malformed before it is parsed', () => {
    assert.throws(
      () => acceptReply('crawler', `{"schema_version":"1","patch":[],"x":"${'y'.repeat(REPLY_BYTE_CAP)}"}`),
      (e: unknown) => e instanceof MalformedLlmOutput && /over the 4194304-byte cap/.test(e.message),
    );
  });
});

describe('hostile bounds: notes', () => {
  it('a note is one line of at most 240 characters; at most 40 are kept, the last saying how many more there were', () => {
    const notes = boundNotes(['a\nb', 'z'.repeat(10_000), ...Array.from({ length: 60 }, (_, i) => `n${i}`)]);
    assert.equal(notes.length, MAX_NOTES);
    assert.equal(notes[0], 'a b');
    assert.equal(notes[1].length, MAX_NOTE_CHARS);
    assert.equal(notes[MAX_NOTES - 1], '23 more notes left out (at most 40 are kept)');
  });

  it('a dropped patch operation is one short line, never the document it was applied to', () => {
    const view = {
      schema_version: '1',
      key_files: [],
      usage_examples: [],
      notes: [],
      secret: 'S'.repeat(5000),
    } as unknown as CrawlerOutput;
    const out = applyToView(view, [{ op: 'replace', path: '/key_files/7/doc', value: 'v'.repeat(5000) }] as never);
    assert.equal(out.notes?.length, 1);
    assert.match(out.notes![0], /^patch operation 0 \(replace \/key_files\/7\/doc\) was dropped: /);
    assert.ok(out.notes![0].length <= MAX_NOTE_CHARS && !out.notes![0].includes('SSSS'), out.notes![0]);
    assert.equal(
      droppedOperation(3, { op: 'add', path: '/notes/-', value: 1 }, 'first\nsecond'),
      'patch operation 3 (add /notes/-) was dropped: first',
    );
  });
});

describe('hostile bounds: redaction', () => {
  it('URL credentials and Authorization values with a scheme are redacted; host, scheme and ports stay', () => {
    assert.equal(redactText('url = https://bot:t0ken@github.com/o/r.git'), `url = https://${REDACTED}@github.com/o/r.git`);
    assert.equal(redactText('AUTHORIZATION: basic Ym90OnB3MTIz'), `AUTHORIZATION: basic ${REDACTED}`);
    assert.equal(redactText('see https://example.com:8080/a@b'), 'see https://example.com:8080/a@b');
    assert.equal(redactText('API_KEY=\nHOST=localhost:5432'), 'API_KEY=\nHOST=localhost:5432', 'an empty value never takes the next line');
  });

  it('known secrets are cut out exactly, and so is a secret cut in two at the end of a text', () => {
    const key = 'sk-hostile-0123456789';
    assert.equal(redactKnown(`a ${key} b ${key.slice(0, 12)}`, [key]), `a ${REDACTED} b ${REDACTED}`);
    assert.equal(redactKnown("password: 'hunter2hunter2'", [key]), "password: 'hunter2hunter2'", 'a reply keeps its own fixture values');
  });

  it('.env files are secret files; committed templates are not', () => {
    const files = ['.env', 'app/.env.local', '.env.production', '.envrc', '.env.example', '.env.sample', 'env.js', '.environment'];
    assert.deepEqual(
      files.filter((f) => isSecretEnvFile(f)),
      ['.env', 'app/.env.local', '.env.production', '.envrc'],
    );
  });
});

describe('hostile bounds: files a repository controls', () => {
  let dir: string;
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-hostile-bounds-'));
  });
  after(() => fsp.rm(dir, { recursive: true, force: true }));

  it('a named pipe is refused without waiting for a writer; a regular file opens', async () => {
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    assert.throws(
      () => openRegularFileSync(path.join(dir, 'pipe')),
      (e: unknown) => e instanceof NotRegularFileError && e.fileType === 'named pipe',
    );
    await fsp.writeFile(path.join(dir, 'f.txt'), 'x');
    const { fd, st } = openRegularFileSync(path.join(dir, 'f.txt'));
    await fsp.rm(path.join(dir, 'pipe'));
    closeSync(fd);
    assert.equal(st.size, 1);
  });

  it('the walk reports folders past its depth limit; a depth the caller chose is not a cut', async () => {
    const deep = path.join(dir, 'deep');
    let p = deep;
    for (let i = 0; i < 258; i++) p = path.join(p, 'd');
    await fsp.mkdir(p, { recursive: true });
    await fsp.writeFile(path.join(p, 'leaf.txt'), 'x');
    const cut = walkTree(deep, { sizes: false });
    assert.deepEqual([cut.truncated, cut.depthCut], [true, 1]);
    assert.match(cut.skipped[0].reason, /^deeper than 256 levels/);
    const chosen = walkTree(deep, { depth: 3, sizes: false });
    assert.deepEqual([chosen.truncated, chosen.depthCut, chosen.entries.length], [false, 0, 3]);
  });

  it('run records: what is not one is named; the note counts what was ignored and why', () => {
    assert.equal(runRecordProblem(null), 'not a run record (not a JSON object)');
    assert.match(runRecordProblem({ x: 1 })!, /^not a run record \(no valid id, status/);
    assert.equal(ignoredRunsNote({ foreign: [], unreadable: [] }), undefined);
    assert.match(
      ignoredRunsNote({ foreign: ['r_1'], unreadable: [{ file: 'x.json', reason: 'not valid JSON' }] })!,
      /^ignoring 2 run record\(s\) in \.amtp\/runs: 1 not created by you here \(r_1\), 1 unreadable \(x\.json: not valid JSON\)\./,
    );
  });

  it('an approval seal covers the decision: changing it, or the run or workspace, breaks the seal', () => {
    const a = { id: 'ap_1', tool: 'tests.run' as const, risk: 'high' as const, summary: 'run tests', decision: 'pending' as const };
    const sealed = sealApproval('r_1', dir, { ...a, decision: 'approved' as const });
    assert.equal(isSealedApproval('r_1', dir, sealed), true);
    assert.equal(isSealedApproval('r_1', dir, { ...sealed, decision: 'rejected' }), false);
    assert.equal(isSealedApproval('r_2', dir, sealed), false);
    assert.equal(isSealedApproval('r_1', os.tmpdir(), sealed), false);
    assert.equal(isSealedApproval('r_1', dir, { ...a, decision: 'approved' }), false, 'no seal, no trust');
  });

  it("a run's recorded risk overrides count only under their seal: a lowered risk typed in, or another run's, counts for nothing", () => {
    const risks = sealRisks('r_1', dir, { 'tests.run': 'medium' });
    assert.deepEqual(sealedRisks('r_1', dir, risks), { 'tests.run': 'medium' });
    assert.deepEqual(sealedRisks('r_1', dir, { ...risks, overrides: { 'tests.run': 'medium', 'fs.overwrite': 'low' } }), {});
    assert.deepEqual(sealedRisks('r_2', dir, risks), {});
    assert.deepEqual(sealedRisks('r_1', os.tmpdir(), risks), {});
    assert.deepEqual(sealedRisks('r_1', dir, { overrides: { 'tests.run': 'low' }, seal: '' }), {});
    assert.deepEqual(sealedRisks('r_1', dir, undefined), {});
  });
});
