// Mutation-guided coverage rounds end to end (server/src/verifier/mutantProvider.ts): the CLI against
// the fake OpenAI server and the real node:test runner. The documented test covers isAdult whole, so
// coverage alone has nothing left to ask; the mutation phase's survivors (`age > 18`, `true`) go to
// the engineer as diffs, a new test that kills one is kept, one that kills none is not, and the run's
// mutation score counts the round's kills.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest, type ScriptedReply } from '../helpers/fakeOpenAi';

const fence = (v: unknown): ScriptedReply => ({ content: '```json\n' + JSON.stringify(v, null, 2) + '\n```' });

const ADULT = `/**
 * Whether a person of this age is an adult.
 * @example isAdult(30) // => true
 */
function isAdult(age) {
  return age >= 18;
}
module.exports = { isAdult };
`;

interface RoundPayload {
  round: { index: number };
  targets: { symbol: string; case_ids: string[]; uncovered_lines: number[]; mutants?: { id: string; diff: string }[] }[];
}

/** Round 1: isAdult(18) kills `age > 18`, isAdult(40) kills nothing; round 2: isAdult(17) kills `true`. */
function roundReply(p: RoundPayload): ScriptedReply {
  const [a, b] = p.targets[0].case_ids;
  const t = (id: string, title: string, body: string) => `it('${id}: ${title}', () => {\n  ${body}\n});`;
  const tests =
    p.round.index === 1
      ? [
          { case_id: a, test: t(a, 'isAdult(18) is true', 'assert.equal(isAdult(18), true);') },
          { case_id: b, test: t(b, 'isAdult(40) is true', 'assert.equal(isAdult(40), true);') },
        ]
      : [{ case_id: a, test: t(a, 'isAdult(17) is false', 'assert.equal(isAdult(17), false);') }];
  return fence({ schema_version: '1', tests });
}

function generatorReply(): ScriptedReply {
  return fence({
    schema_version: '1',
    cases: [
      {
        title: 'isAdult(30) returns true',
        target: { file: 'index.js', symbol: 'isAdult', export_style: 'exports.property' },
        kind: 'example',
        priority: 'P1',
        preconditions: [],
        steps: ['call isAdult(30)'],
        expected: ['true'],
        rationale: 'documented',
        oracle: { kind: 'equals', language: 'javascript', call: 'isAdult(30)', expected: 'true' },
        evidence: { source: 'jsdoc', location: 'index.js:3' },
      },
    ],
  });
}

describe('coverage rounds with mutation: surviving mutants go to the engineer, and a test that kills one stays', function () {
  this.timeout(300_000);
  let fake: FakeOpenAi;
  let dir: string;
  const rounds: RoundPayload[] = [];
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-rounds-mutation-'));
    fake = await new FakeOpenAi((req: ReceivedRequest) => {
      const p = req.envelope?.payload as Record<string, unknown> | undefined;
      if (req.envelope?.from_agent === 'verifier' && p?.round) {
        rounds.push(p as unknown as RoundPayload);
        return roundReply(p as unknown as RoundPayload);
      }
      if (req.agent === 'crawler') return fence({ schema_version: '1', patch: [] });
      if (req.agent === 'generator') return generatorReply();
      const cases = (p?.cases as { case: { id: string } }[]) ?? [];
      return fence({
        schema_version: '1',
        tests: cases.map((c) => ({ case_id: c.case.id, body: 'assert.equal(isAdult(30), true);' })),
        not_written: [],
      });
    }).start();
  });
  after(async () => {
    await fake.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('round 1 keeps isAdult(18) (kills age > 18), not isAdult(40); round 2 keeps isAdult(17); the score rises to 100%', async () => {
    const ws = path.join(dir, 'adult');
    await fsp.mkdir(ws);
    await fsp.writeFile(
      path.join(ws, 'package.json'),
      JSON.stringify({ name: 'adult', version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' } }),
    );
    await fsp.writeFile(path.join(ws, 'index.js'), ADULT);
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', '--no-characterize'], {
      OPENAI_API_KEY: 'sk-test-rounds-mutation',
      OPENAI_BASE_URL: fake.baseURL,
    });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const s = JSON.parse(r.stdout) as {
      files: { path: string }[];
      verification: {
        rounds: { round: number; kept: number; written: number }[];
        results: { caseId: string; outcome: string; reason?: string }[];
        coverage: { statements: number };
        mutation: { score: number; counts: { killed: number; survived: number }; survivors: unknown[] };
      };
    };
    const v = s.verification;
    assert.deepEqual(
      v.rounds.map((x) => [x.round, x.written, x.kept]),
      [
        [1, 2, 1],
        [2, 1, 1],
      ],
    );
    // Fully covered: the function is a target only for its survivors, shown as diffs of its source.
    const first = rounds[0].targets[0];
    assert.equal(first.symbol, 'isAdult');
    assert.deepEqual(first.uncovered_lines, []);
    const diffs = (first.mutants ?? []).map((m) => m.diff);
    assert.ok(
      diffs.some((d) => d.includes('-  return age >= 18;') && d.includes('+  return age > 18;')),
      diffs.join('\n'),
    );
    assert.ok(
      diffs.some((d) => d.includes('+  return true;')),
      diffs.join('\n'),
    );
    assert.equal(rounds[1].targets[0].mutants?.length, 1, 'round 2 sees only the survivor round 1 left');
    const kept = v.results.filter((x) => /^coverage round/.test(x.reason ?? '')).map((x) => x.reason);
    assert.deepEqual(kept, ['coverage round 1: kills 1 surviving mutant(s)', 'coverage round 2: kills 1 surviving mutant(s)']);
    assert.equal(v.mutation.score, 100);
    assert.equal(v.mutation.counts.survived, 0);
    assert.deepEqual(v.mutation.survivors, []);
    assert.equal(s.files.length, 1);
    const file = await fsp.readFile(path.join(ws, s.files[0].path), 'utf8');
    assert.ok(file.includes('isAdult(18)') && file.includes('isAdult(17)') && !file.includes('isAdult(40)'), file);
  });
});
