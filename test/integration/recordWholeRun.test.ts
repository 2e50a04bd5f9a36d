// The recording of a whole real run replays: three modules against the fake OpenAI server (fenced
// replies, a malformed reply retried, 4 batches at a time), characterization on (its sandbox runs
// recorded as char.run events), a wrong test repaired, the mutation phase at its default (its
// engine runs recorded as mutation.run events, a round test run against the survivors it aims at
// included), coverage rounds adding tests, every test run and file rewrite of the verifier. `amtp replay` consumes every recorded event, and
// `amtp verify-determinism` replays it twice in separate processes, byte for byte.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRecording } from '../../server/src/record/recording';
import { runCli } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest, type ScriptedReply } from '../helpers/fakeOpenAi';

const fence = (v: unknown): ScriptedReply => ({ content: '\n```json\n' + JSON.stringify(v) + '\n```\n' });

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'kit', version: '1.0.0', main: 'lib/index.js', scripts: { test: 'node --test' } }),
  'lib/index.js': "module.exports = { ...require('./math'), ...require('./text'), ...require('./sign') };\n",
  'lib/math.js':
    '/**\n * Adds two numbers.\n * @example add(2, 3) // => 5\n */\nfunction add(a, b) {\n  return a + b;\n}\nmodule.exports = { add };\n',
  'lib/text.js': "function shout(s) {\n  return String(s).toUpperCase() + '!';\n}\nmodule.exports = { shout };\n",
  'lib/sign.js':
    '/**\n * The sign of a number.\n * @example sign(5) // => 1\n */\nfunction sign(n) {\n  if (n === Number.MAX_SAFE_INTEGER - 7) return 7;\n  if (n > 0) return 1;\n  if (n < 0) return -1;\n  return 0;\n}\nmodule.exports = { sign };\n',
};

/** A model that plans the documented examples, writes add's test wrong first (a repair fixes it) and covers sign's odd branch in rounds. */
function model(req: ReceivedRequest): ScriptedReply {
  const env = req.envelope;
  const p = env?.payload as Record<string, unknown> | undefined;
  if (env?.from_agent === 'verifier' && p?.round) {
    const t = (p.targets as { symbol: string; case_ids: string[] }[]).find((x) => x.symbol === 'sign');
    if (!t) return fence({ schema_version: '1', tests: [] });
    const [id] = t.case_ids;
    // The search of call sequences covers sign's other branches itself; this one needs a value it never draws.
    const call = (p.round as { index: number }).index === 1 ? ['sign(Number.MAX_SAFE_INTEGER - 7)', '7'] : ['sign(0)', '0'];
    return fence({
      schema_version: '1',
      tests: [{ case_id: id, test: `it('${id}: ${call[0]} is ${call[1]}', () => {\n  assert.equal(${call[0]}, ${call[1]});\n});` }],
    });
  }
  if (env?.from_agent === 'verifier') {
    const id = (p!.case as { id: string }).id;
    return fence({
      schema_version: '1',
      case_id: id,
      verdict: 'fixed',
      test: `it('${id}: add(2, 3) returns 5', () => {\n  assert.equal(add(2, 3), 5);\n});`,
      reason: 'the doc says 5',
    });
  }
  if (req.agent === 'crawler') return fence({ schema_version: '1', patch: [] });
  if (req.agent === 'generator') {
    const files = (p!.key_files as { path: string; symbols: { name: string; examples?: string[] }[] }[]) ?? [];
    const cases = files.flatMap((f) =>
      f.symbols.map((sym) => {
        const ex = /^(\w+\([^)]*\)) \/\/ => (.+)$/.exec(sym.examples?.[0] ?? '');
        const base = {
          target: { file: f.path, symbol: sym.name, export_style: 'exports.property' },
          preconditions: [],
          steps: [`call ${sym.name}`],
          rationale: 'docs',
        };
        return ex
          ? {
              ...base,
              title: `${ex[1]} returns ${ex[2]}`,
              kind: 'example',
              priority: 'P1',
              expected: [ex[2]],
              oracle: { kind: 'equals', language: 'javascript', call: ex[1], expected: ex[2] },
              evidence: { source: 'jsdoc', location: `${f.path}:3` },
            }
          : { ...base, title: `${sym.name} is a function`, kind: 'smoke', priority: 'P2', expected: ['a function'] };
      }),
    );
    return fence({ schema_version: '1', cases });
  }
  type Sent = { case: { id: string; target: { symbol: string }; oracle?: { call?: string; expected?: string } } };
  const tests = ((p?.cases as Sent[]) ?? []).map(({ case: c }) => ({
    case_id: c.id,
    body:
      c.target.symbol === 'add'
        ? 'assert.equal(add(2, 3), 6);'
        : c.oracle?.call
          ? `assert.deepStrictEqual(${c.oracle.call}, ${c.oracle.expected});`
          : `assert.equal(typeof ${c.target.symbol}, 'function');`,
  }));
  return fence({ schema_version: '1', tests, not_written: [] });
}

describe('recording of a whole run: characterization, repairs and rounds replay byte for byte', function () {
  this.timeout(600_000);
  let fake: FakeOpenAi;
  let dir: string;
  let recording: string;
  let summary: {
    status: string;
    verification: {
      repairs: { outcome: string }[];
      rounds?: { kept: number }[];
      mutation?: { status: string; reason?: string; score?: number; counts: { mutants: number } };
    };
    characterization?: { status: string; planned: number };
  };

  before(async () => {
    fake = await new FakeOpenAi(model).start();
    fake.script('generator', { content: 'Sure! The plan follows.' }); // malformed: retried in a new session
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-whole-'));
    const ws = path.join(dir, 'kit');
    for (const [p, text] of Object.entries(FILES)) {
      await fsp.mkdir(path.dirname(path.join(ws, p)), { recursive: true });
      await fsp.writeFile(path.join(ws, p), text);
    }
    recording = path.join(dir, 'run.jsonl');
    const r = await runCli(
      [
        'generate',
        ws,
        '--provider',
        'openai',
        '--yes',
        '--json',
        '--record',
        recording,
        '--max-input-tokens',
        '2700',
        '--only',
        'lib/math.js',
        '--only',
        'lib/text.js',
        '--only',
        'lib/sign.js',
      ],
      {
        OPENAI_API_KEY: 'sk-test-whole-run',
        OPENAI_BASE_URL: fake.baseURL,
        AMTP_BACKOFF_SCALE: '0.001',
      },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    summary = JSON.parse(r.stdout);
  });
  after(async () => {
    await fake.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('the run characterized, repaired and added round tests, and the recording holds all of it', async () => {
    assert.equal(summary.status, 'completed');
    assert.equal(summary.characterization?.status, 'done');
    assert.ok(summary.characterization!.planned >= 1, 'shout was characterized');
    assert.ok(summary.verification.repairs.some((x) => x.outcome === 'fixed'));
    assert.ok((summary.verification.rounds ?? []).reduce((n, x) => n + x.kept, 0) >= 1);
    const rec = parseRecording(await fsp.readFile(recording, 'utf8'));
    assert.equal(rec.header.run.characterize, true);
    assert.ok(rec.events.some((e) => e.type === 'tool_return' && e.tool === 'char.run'));
    const observed = rec.events.filter((e) => e.tool === 'char.run').map((e) => JSON.stringify(rec.payloads.get(e.payload_ref)));
    // The search's module documents name files relative to the workspace; any absolute path in them
    // (a load error's message) is written as <workspace>.
    assert.ok(observed.length >= 1 && observed.every((t) => !t.includes(dir)), 'what the sandbox saw holds no path of this machine');
    assert.ok(observed.some((t) => t.includes('"module":"lib/text.js"') || t.includes('"module":"lib/math.js"')));
    // Mutation ran although the run was recorded, and every engine run is in the recording: the
    // phase's, and at least one round test's against the survivors of its function.
    const mutation = summary.verification.mutation;
    assert.equal(mutation?.status, 'done', JSON.stringify(mutation));
    assert.ok(mutation!.counts.mutants > 0 && mutation!.score !== undefined);
    const runs = rec.events.filter((e) => e.type === 'tool_return' && e.tool === 'mutation.run');
    const args = rec.events
      .filter((e) => e.type === 'tool_call' && e.tool === 'mutation.run')
      .map((e) => (rec.payloads.get(e.payload_ref) as { args: { only: string[] | null } }).args);
    assert.ok(runs.length >= 2 && args.some((a) => a.only === null) && args.some((a) => Array.isArray(a.only)), JSON.stringify(args));
    const outcomes = runs.map((e) => JSON.stringify(rec.payloads.get(e.payload_ref)));
    assert.ok(
      outcomes.every((t) => !t.includes(dir)),
      'the engine outcomes hold no path of this machine',
    );
    // The repair session gets the function under test (the is-what relay run, F6): add's whole source.
    const repair = fake.requests.find((r) => r.envelope?.from_agent === 'verifier' && !(r.envelope.payload as { round?: unknown }).round)!;
    const symbol = (repair.envelope!.payload as { symbol?: { name: string; source?: string } }).symbol;
    assert.equal(symbol?.name, 'add');
    assert.match(symbol!.source!, /^function add\(a, b\) \{\n {2}return a \+ b;\n\}$/);
    const sessions = rec.events.filter((e) => e.type === 'task_sent').length;
    assert.ok(sessions >= 6, `${sessions} sessions`);
  });

  it('amtp replay consumes every recorded reply and tool return and reaches the recorded final state', async () => {
    const r = await runCli(['replay', recording, '--out', path.join(dir, 'replay'), '--json']);
    const out = JSON.parse(r.stdout) as { error?: string; final: { status: string }; trace: { type: string }[] };
    assert.equal(out.error, undefined, r.stdout.slice(0, 2000));
    assert.equal(out.final.status, 'completed');
    const rec = parseRecording(await fsp.readFile(recording, 'utf8'));
    const inputs = rec.events.filter((e) => e.type === 'response_sent' || e.type === 'tool_return').length;
    assert.equal(out.trace.filter((t) => t.type === 'response_sent' || t.type === 'tool_return').length, inputs);
  });

  it('verify-determinism passes on it', async () => {
    const r = await runCli(['verify-determinism', recording]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^deterministic: \d+ recorded events replayed/);
  });
});
