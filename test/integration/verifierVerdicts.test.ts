// Verdicts end to end through the CLI against the fake OpenAI server with messy (fenced) replies:
// a test that does not load is repaired; a run where nothing loads needs review; a wrong test that
// repeats the documented literal, or fails on its own binding, is never a possible bug; a real
// contradiction with the README is, with observed vs documented verbatim.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { caseIdOf } from '../../server/src/agents/generator/batches';
import { runCli } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest } from '../helpers/fakeOpenAi';
import { ADD_CASE, goodModel } from '../helpers/scriptedModel';
import { requirePytest } from '../helpers/python';

const REPO = path.resolve(__dirname, '../..');
const WORK = path.join(REPO, 'test-output');
const fence = (v: unknown) => ({ content: '```json\n' + JSON.stringify(v, null, 2) + '\n```\n' });

interface Verification {
  results: { caseId: string; outcome: string; reason?: string; file?: string }[];
  repairs: { caseId: string; attempt: number; outcome: string }[];
  unmet: { caseId: string; priority: string; reason?: string }[];
  quarantineFiles: string[];
}

describe('verdicts: load errors, unmet goals and possible bugs (fake OpenAI)', function () {
  this.timeout(180_000);
  let fake: FakeOpenAi;
  const dirs: string[] = [];
  before(async () => {
    fake = await new FakeOpenAi(goodModel).start();
  });
  after(async () => {
    await fake.stop();
    for (const d of dirs) await fsp.rm(path.dirname(d), { recursive: true, force: true });
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  async function workspace(files: Record<string, string>, pkg: Record<string, unknown> = {}): Promise<string> {
    await fsp.mkdir(WORK, { recursive: true });
    const ws = path.join(await fsp.mkdtemp(path.join(WORK, 'verdicts-')), 'adder');
    await fsp.mkdir(ws);
    await fsp.writeFile(
      path.join(ws, 'package.json'),
      JSON.stringify({ name: 'adder', version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' }, ...pkg }),
    );
    for (const [p, text] of Object.entries(files)) await fsp.writeFile(path.join(ws, p), text);
    dirs.push(ws);
    return ws;
  }
  const ADDER = '/**\n * Adds two numbers.\n * @example add(2, 3) // => 5\n */\nexport function add(a, b) {\n  return a + b;\n}\n';
  const README = '# adder\n\n```js\nimport { add } from "adder";\nadd(2, 3); // => 5\n```\n';
  const env = () => ({ OPENAI_API_KEY: 'sk-test-verdicts', OPENAI_BASE_URL: fake.baseURL, AMTP_BACKOFF_SCALE: '0.001' });
  const generate = async (ws: string) => {
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json'], env());
    const s = JSON.parse(r.stdout || '{}') as { status: string; reason?: string; verification: Verification };
    return { r, s, v: s.verification };
  };
  // Repair sessions (coverage rounds come from the verifier too, with a `round` payload).
  const repairCalls = () =>
    fake.requests.filter((q: ReceivedRequest) => q.envelope?.from_agent === 'verifier' && 'case' in q.envelope.payload);
  const repairPayload = (i: number) =>
    (repairCalls()[i].envelope as unknown as { payload: { error: string; imports?: string; test: string } }).payload;
  /** The engineer writes `body` for case `id`; its one repair session gives up. */
  const scriptBodyThenGiveUp = (id: string, body: string) => {
    fake.script('engineer', fence({ schema_version: '1', tests: [{ case_id: id, body }], not_written: [] }));
    fake.script('engineer', fence({ schema_version: '1', case_id: id, verdict: 'cannot_fix', reason: 'gave up' }));
  };
  /** The add case, its oracle binding `local` (a wrong export name makes the ESM file fail to load). */
  const caseWith = (local: string) => ({
    ...structuredClone(ADD_CASE),
    oracle: { ...ADD_CASE.oracle, call: `${local}(2, 3)`, bindings: [{ local, import: 'named' as const, name: local }] },
  });

  it('a test file that does not load (a wrong import) goes to a fresh repair session and is fixed', async () => {
    const ws = await workspace({ 'index.js': ADDER, 'README.md': README }, { type: 'module' });
    const c = caseWith('sum');
    const id = caseIdOf(c);
    const test = `it('${id}: add(2, 3) returns 5', () => {\n  assert.equal(add(2, 3), 5);\n});`;
    fake.script('generator', fence({ schema_version: '1', cases: [c] }));
    fake.script('engineer', fence({ schema_version: '1', tests: [{ case_id: id, body: 'assert.equal(sum(2, 3), 5);' }], not_written: [] }));
    fake.script(
      'engineer',
      fence({
        schema_version: '1',
        case_id: id,
        verdict: 'fixed',
        imports:
          "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../index.js';\n",
        test,
        reason: 'index.js exports add, not sum',
      }),
    );
    const { r, s, v } = await generate(ws);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(s.status, 'completed');
    assert.deepEqual(
      v.results.map((x) => [x.caseId, x.outcome]),
      [[id, 'passing']],
    );
    assert.match(
      v.results[0].reason!,
      /^does not load: SyntaxError: The requested module '\.\.\/index\.js' does not provide an export named 'sum'; repaired in 1 attempt/,
    );
    assert.deepEqual(
      v.repairs.map((x) => [x.attempt, x.outcome]),
      [[1, 'fixed']],
    );
    assert.equal(repairCalls().length, 1);
    const p = repairPayload(0);
    assert.match(p.error, /does not provide an export named 'sum'/);
    assert.match(p.imports!, /import \{ sum \} from '\.\.\/index\.js';/);
    const file = await fsp.readFile(path.join(ws, 'test/adder.amtp.test.mjs'), 'utf8');
    assert.ok(file.includes("import { add } from '../index.js';") && !file.includes('sum'), file);
  });

  it('every test fails to load and cannot be fixed: needs_review (exit 3), the P0 case listed unmet with the load error', async () => {
    const ws = await workspace({ 'index.js': ADDER, 'README.md': README }, { type: 'module' });
    const c = caseWith('sum');
    const id = caseIdOf(c);
    fake.script('generator', fence({ schema_version: '1', cases: [c] }));
    fake.script('engineer', fence({ schema_version: '1', tests: [{ case_id: id, body: 'assert.equal(sum(2, 3), 5);' }], not_written: [] }));
    fake.script('engineer', {
      content: '{"schema_version": "1", "case_id": "' + id + '", "verdict": "cannot_fix", "reason": "no such export"}',
    });
    const { r, s, v } = await generate(ws);
    assert.equal(r.code, 3, r.stderr + r.stdout);
    assert.equal(s.status, 'needs_review');
    assert.deepEqual(
      v.unmet.map((u) => [u.caseId, u.priority]),
      [[id, 'P0']],
    );
    assert.equal(
      v.unmet[0].reason,
      "dropped: does not load: SyntaxError: The requested module '../index.js' does not provide an export named 'sum'; the repair session could not fix it: no such export",
    );
    assert.ok(s.reason!.includes(id), s.reason);
  });

  it('a wrong test whose body repeats the documented literal is not a possible bug: it goes to repair', async () => {
    const ws = await workspace({ 'index.js': ADDER, 'README.md': README }, { type: 'module' });
    const id = caseIdOf(ADD_CASE);
    scriptBodyThenGiveUp(id, '// the README says add(2, 3) is 5\nassert.equal(add(2, 3), 6);');
    const { v } = await generate(ws);
    assert.deepEqual(
      v.results.map((x) => [x.caseId, x.outcome]),
      [[id, 'dropped']],
    );
    assert.deepEqual(v.quarantineFiles, []);
    assert.equal(repairCalls().length, 1, 'the repair session saw it');
    assert.match(repairPayload(0).error, /5 !== 6|6 !== 5/);
  });

  it("a failure on the test's own binding (a bad import alias) is not a possible bug", async () => {
    const ws = await workspace({
      'index.js': ADDER.replace('export function', 'function') + 'module.exports = { add };\n',
      'README.md': README,
    });
    const c = { ...structuredClone(ADD_CASE), oracle: { ...ADD_CASE.oracle, bindings: [{ local: 'add', import: 'default' as const }] } };
    const id = caseIdOf(c);
    fake.script('generator', fence({ schema_version: '1', cases: [c] }));
    scriptBodyThenGiveUp(id, 'assert.equal(add(2, 3), 5);');
    const { v } = await generate(ws);
    assert.deepEqual(
      v.results.map((x) => x.outcome),
      ['dropped'],
    );
    assert.deepEqual(v.quarantineFiles, []);
    assert.match(repairPayload(0).error, /add is not a function/);
  });

  it("pytest: a NameError raised by the test's own code (an import it did not make) is not a possible bug", async function () {
    requirePytest();
    await fsp.mkdir(WORK, { recursive: true });
    const ws = path.join(await fsp.mkdtemp(path.join(WORK, 'verdicts-py-')), 'py-textkit');
    await fsp.cp(path.join(REPO, 'test/fixtures/py-textkit'), ws, { recursive: true });
    dirs.push(ws);
    const c = {
      title: 'slug("Hello World") returns hello-world',
      target: { file: 'textkit/core.py', symbol: 'slug' },
      kind: 'example' as const,
      priority: 'P0' as const,
      preconditions: ['textkit imports'],
      steps: ['call slug'],
      expected: ["'hello-world'"],
      rationale: 'doctest',
      evidence: { source: 'doctest' as const, location: 'textkit/core.py:8' },
      oracle: {
        kind: 'equals' as const,
        language: 'python' as const,
        call: 'slug("Hello World")',
        expected: "'hello-world'",
        bindings: [{ local: 'slug', import: 'named' as const }],
      },
    };
    const id = caseIdOf(c);
    fake.script('generator', fence({ schema_version: '1', cases: [c] }));
    // The body reaches for `textkit.core`, a name the file never imported: NameError in the test itself.
    scriptBodyThenGiveUp(id, 'assert textkit.core.slug("Hello World") == "hello-world"');
    const { v } = await generate(ws);
    assert.deepEqual(
      v.results.map((x) => [x.caseId, x.outcome]),
      [[id, 'dropped']],
    );
    assert.deepEqual(v.quarantineFiles, []);
    assert.equal(repairCalls().length, 1, 'sent to repair, not quarantined');
    assert.match(repairPayload(0).error, /NameError: name 'textkit' is not defined/);
  });

  it('code that contradicts its README is a possible bug, observed vs documented verbatim across lines', async () => {
    const lib =
      '/**\n * The origin.\n * @example origin() // => { x: 0, y: 0 }\n */\nexport function origin() {\n  return { x: 0, y: 1 };\n}\n';
    const ws = await workspace(
      { 'index.js': lib, 'README.md': '# origin\n\n```js\norigin(); // => { x: 0, y: 0 }\n```\n' },
      { type: 'module' },
    );
    const c = {
      ...structuredClone(ADD_CASE),
      title: 'origin() returns { x: 0, y: 0 }',
      target: { ...ADD_CASE.target, symbol: 'origin' },
      evidence: { source: 'readme' as const, location: 'README.md:4' },
      oracle: {
        kind: 'equals' as const,
        language: 'javascript' as const,
        call: 'origin()',
        expected: '{ x: 0, y: 0 }',
        bindings: [{ local: 'origin', import: 'named' as const, name: 'origin' }],
      },
    };
    const id = caseIdOf(c);
    fake.script('generator', fence({ schema_version: '1', cases: [c] }));
    fake.script(
      'engineer',
      fence({ schema_version: '1', tests: [{ case_id: id, body: 'assert.deepEqual(origin(), { x: 0, y: 0 });' }], not_written: [] }),
    );
    const { r, s, v } = await generate(ws);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(s.status, 'completed', 'a quarantined P0 test meets the goal');
    assert.equal(repairCalls().length, 0, 'a possible bug is not sent to repair');
    assert.deepEqual(
      v.results.map((x) => x.outcome),
      ['quarantined'],
    );
    assert.equal(
      v.results[0].reason,
      `possible bug in origin (index.js): documented origin() → "{ x: 0, y: 0 }" (readme README.md:4); observed: ${JSON.stringify('{\n  x: 0,\n  y: 1\n}')}`,
    );
  });
});
