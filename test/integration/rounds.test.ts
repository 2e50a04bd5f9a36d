// Coverage rounds end to end through the CLI against the fake OpenAI server and the real node:test
// runner: after verification the engineer gets the function's uncovered lines and branches with its
// source and kept tests; a new test stays only if it passes every run and covers something new.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest, type ScriptedReply } from '../helpers/fakeOpenAi';

const fence = (v: unknown): ScriptedReply => ({ content: '```json\n' + JSON.stringify(v, null, 2) + '\n```' });

const SIGN = `/**
 * The sign of a number.
 * @example sign(5) // => 1
 */
function sign(n) {
  if (n > 0) return 1;
  if (n < 0) return -1;
  return 0;
}
module.exports = { sign };
`;

interface RoundPayload {
  round: { index: number };
  targets: {
    symbol: string;
    case_ids: string[];
    source: string;
    uncovered_lines: number[];
    uncovered_branches: number[];
    tests: string[];
  }[];
}

/** Like SIGN, but the model declines to write for it (a ternary it finds unreachable). */
const SIGN_DECLINED = SIGN.replace('  if (n < 0) return -1;\n  return 0;', '  return n < 0 ? -1 : 0;');

/** The round replies: round 1 covers n < 0, repeats n > 0 (adds nothing) and asserts a wrong value; round 2 covers n === 0. */
function roundReply(p: RoundPayload): ScriptedReply {
  if (p.targets[0].source.includes('n < 0 ?'))
    return fence({ schema_version: '1', tests: [], not_written: [{ target: 'index.js sign', reason: 'cannot tell the arms apart' }] });
  const [a, b, c] = p.targets[0].case_ids;
  const t = (id: string, title: string, body: string) => `it('${id}: ${title}', () => {\n  ${body}\n});`;
  const tests =
    p.round.index === 1
      ? [
          { case_id: a, test: t(a, 'sign(-3) is -1', 'assert.equal(sign(-3), -1);'), reaches: 'line 7' },
          { case_id: b, test: t(b, 'sign(7) is 1', 'assert.equal(sign(7), 1);') },
          { case_id: c, test: t(c, 'sign(0) is 5', 'assert.equal(sign(0), 5);') },
        ]
      : [{ case_id: a, test: t(a, 'sign(0) is 0', 'assert.equal(sign(0), 0);') }];
  return fence({ schema_version: '1', tests });
}

describe('coverage rounds: uncovered code goes back to the engineer, and only tests that cover more stay', function () {
  this.timeout(300_000);
  let fake: FakeOpenAi;
  let dir: string;
  const rounds: RoundPayload[] = [];
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-rounds-'));
    fake = await new FakeOpenAi((req: ReceivedRequest) => {
      const p = req.envelope?.payload as Record<string, unknown> | undefined;
      if (req.envelope?.from_agent === 'verifier' && p?.round) {
        rounds.push(p as unknown as RoundPayload);
        return roundReply(p as unknown as RoundPayload);
      }
      if (req.agent === 'crawler') return fence({ schema_version: '1', patch: [] });
      if (req.agent === 'generator')
        return fence({
          schema_version: '1',
          cases: [
            {
              title: 'sign(5) returns 1',
              target: { file: 'index.js', symbol: 'sign', export_style: 'exports.property' },
              kind: 'example',
              priority: 'P1',
              preconditions: [],
              steps: ['call sign(5)'],
              expected: ['1'],
              rationale: 'documented',
              oracle: { kind: 'equals', language: 'javascript', call: 'sign(5)', expected: '1' },
              evidence: { source: 'jsdoc', location: 'index.js:3' },
            },
          ],
        });
      const cases = (p?.cases as { case: { id: string } }[]) ?? [];
      return fence({
        schema_version: '1',
        tests: cases.map((c) => ({ case_id: c.case.id, body: 'assert.equal(sign(5), 1);' })),
        not_written: [],
      });
    }).start();
  });
  after(async () => {
    await fake.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function generate(name: string, source: string, extra: string[] = []) {
    const ws = path.join(dir, name);
    await fsp.mkdir(ws);
    await fsp.writeFile(
      path.join(ws, 'package.json'),
      JSON.stringify({ name, version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' } }),
    );
    await fsp.writeFile(path.join(ws, 'index.js'), source);
    const r = await runCli(['generate', ws, '--provider', 'openai', '--yes', '--json', '--no-characterize', ...extra], {
      OPENAI_API_KEY: 'sk-test-rounds',
      OPENAI_BASE_URL: fake.baseURL,
    });
    return { ws, r };
  }

  it('two rounds add the tests that reach n < 0 and n === 0; a repeat and a wrong test are not kept', async () => {
    const { ws, r } = await generate('sign', SIGN);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const s = JSON.parse(r.stdout) as {
      verification: {
        rounds: { round: number; kept: number; written: number }[];
        results: { caseId: string; outcome: string; reason?: string }[];
        coverage: { statements: number; branches: number };
      };
      usage: { byAgent: Record<string, { requests: number }>; total: { requests: number } };
    };
    assert.deepEqual(
      s.verification.rounds.map((x) => [x.round, x.written, x.kept]),
      [
        [1, 3, 1],
        [2, 1, 1],
      ],
    );
    // Round 1 saw the function whole, its uncovered lines (7, 8) and the kept test.
    const first = rounds[0].targets[0];
    assert.equal(first.symbol, 'sign');
    assert.ok(first.source.startsWith('function sign(n) {') && first.source.endsWith('  return 0;\n}'), first.source);
    assert.deepEqual(first.uncovered_lines, [7, 8]);
    assert.ok(first.uncovered_branches.length > 0);
    assert.match(first.tests[0], /assert\.equal\(sign\(5\), 1\)/);
    assert.deepEqual(rounds[1].targets[0].uncovered_lines, [8], 'round 2 starts from the larger suite');
    const kept = s.verification.results.filter((x) => /^coverage round/.test(x.reason ?? ''));
    assert.equal(kept.length, 2);
    assert.equal(s.verification.coverage.statements, 100);
    assert.equal(s.usage.byAgent.rounds.requests, 2, 'round sessions count in usage');
    const file = await fsp.readFile(path.join(ws, 'test/sign.amtp.test.js'), 'utf8');
    assert.ok(file.includes('sign(-3)') && file.includes('sign(0), 0') && !file.includes('sign(7)') && !file.includes('sign(0), 5'), file);
  });

  it('a function asked once is not asked again while what it leaves uncovered is the same', async () => {
    const before = rounds.length;
    const { r } = await generate('sign-declined', SIGN_DECLINED, ['--rounds', '3']);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const s = JSON.parse(r.stdout) as { verification: { rounds: { round: number; written: number }[]; roundsStopped?: string } };
    assert.equal(rounds.length - before, 1, 'one round request, not one per round');
    assert.deepEqual(
      s.verification.rounds.map((x) => [x.round, x.written]),
      [[1, 0]],
    );
    assert.match(s.verification.roundsStopped ?? '', /round 2: every function left was already asked with the same uncovered code/);
  });
});
