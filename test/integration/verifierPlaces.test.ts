// Tests where the runner looks, and files that fail only on some of their tests, end to end through
// the CLI against real runners and the fake OpenAI server with fenced replies:
// - jest whose `roots` AMTP cannot read (computed): the file it wrote is not collected; a repair
//   session answers `wrong_place` with a path, AMTP moves the file (imports rebased) and keeps its
//   tests; offline, the tests are dropped with the reason and `layoutNote` says so;
// - jest + ts-jest with roots ['<rootDir>/src'] (type-checked, tsconfig strict): the file goes where
//   jest looks; two tests with type errors sink the file; the good test is kept unrepaired, each
//   culprit gets its own repair session, and one that cannot be fixed costs only itself.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { caseIdOf } from '../../server/src/agents/generator/batches';
import type { PlannedCase } from '../../server/src/contracts/types';
import { runCli } from '../helpers/cli';
import { FakeOpenAi, type ReceivedRequest, type ScriptedReply } from '../helpers/fakeOpenAi';

const REPO = path.resolve(__dirname, '../..');
const WORK = path.join(REPO, 'test-output');
const fence = (v: unknown): ScriptedReply => ({ content: '\n```json\n' + JSON.stringify(v, null, 2) + '\n```\n\n' });

interface Summary {
  status: string;
  layoutNote?: string;
  files: { path: string; action: string }[];
  verification: {
    results: { caseId: string; outcome: string; reason?: string; file?: string }[];
    repairs: { caseId: string; outcome: string }[];
  };
}

type Case = PlannedCase;
const kase = (file: string, symbol: string, title: string, style: 'named' | 'exports.property' = 'named'): Case => ({
  title,
  target: { file, symbol, export_style: style },
  kind: 'boundary',
  priority: 'P2',
  preconditions: [],
  steps: [title],
  expected: ['a number'],
  rationale: 'from the source',
});

/** A model: the crawler corrects nothing, the generator plans `cases`, the engineer writes `bodies[i]` for case i, repairs answer `repair`. */
function model(cases: Case[], bodies: string[], repair: (id: string, payload: Record<string, unknown>) => ScriptedReply) {
  const ids = cases.map(caseIdOf);
  return (req: ReceivedRequest): ScriptedReply => {
    const env = req.envelope;
    if (env?.from_agent === 'verifier') return repair(String((env.payload.case as { id: string }).id), env.payload);
    if (req.agent === 'crawler') return fence({ schema_version: '1', patch: [] });
    if (req.agent === 'generator') return fence({ schema_version: '1', cases });
    const sent = (env?.payload.cases as { case: { id: string } }[]).map((c) => c.case.id);
    return fence({ schema_version: '1', tests: sent.map((id) => ({ case_id: id, body: bodies[ids.indexOf(id)] })), not_written: [] });
  };
}

async function workspace(name: string, files: Record<string, string>): Promise<string> {
  await fsp.mkdir(WORK, { recursive: true });
  const ws = path.join(await fsp.mkdtemp(path.join(WORK, 'places-')), name);
  for (const [p, text] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(ws, p)), { recursive: true });
    await fsp.writeFile(path.join(ws, p), text);
  }
  return ws;
}

describe('verifier: tests where the runner looks, and per-test repair of a file that does not load', function () {
  this.timeout(900_000);
  let fake: FakeOpenAi;
  const dirs: string[] = [];
  before(async () => {
    fake = await new FakeOpenAi(() => ({ status: 500 })).start();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  after(async () => {
    await fake.stop();
    for (const d of dirs) await fsp.rm(path.dirname(d), { recursive: true, force: true });
  });
  const generate = async (ws: string, provider: 'openai' | 'offline', extra: string[] = []) => {
    dirs.push(ws);
    const env =
      provider === 'openai' ? { OPENAI_API_KEY: 'sk-test-places', OPENAI_BASE_URL: fake.baseURL, AMTP_BACKOFF_SCALE: '0.001' } : {};
    // Characterization off: the scripted engineer answers for the planned cases only.
    const r = await runCli(
      ['generate', ws, '--provider', provider, '--yes', '--json', '--rounds', '0', '--no-characterize', ...extra],
      env,
    );
    return { r, s: JSON.parse(r.stdout || '{}') as Summary };
  };

  const JEST_FILES = {
    'package.json': JSON.stringify({
      name: 'adder',
      version: '1.0.0',
      main: 'src/index.js',
      scripts: { test: 'jest' },
      devDependencies: { jest: '*' },
    }),
    // roots computed at run time: AMTP cannot read it, so its defaults put the file in test/, where jest never looks.
    'jest.config.js': "const path = require('path');\nmodule.exports = { roots: [path.join(__dirname, 'src')] };\n",
    'src/index.js':
      '/**\n * Adds two numbers.\n * @example add(2, 3) // => 5\n */\nfunction add(a, b) {\n  return a + b;\n}\nmodule.exports = { add };\n',
  };

  it('jest does not collect the file: a wrong_place repair moves it where jest looks, and its test is kept', async () => {
    const ws = await workspace('adder', JEST_FILES);
    const c = kase('src/index.js', 'add', 'add(2, 3) returns 5', 'exports.property');
    const moved = 'src/__tests__/adder.amtp.test.js';
    fake.setFallback(
      model([c], ['expect(add(2, 3)).toBe(5);'], (id, payload) => {
        const collect = payload.collect as { runner: string; runs?: { unread?: string } };
        assert.equal(collect.runner, 'jest');
        assert.match(collect.runs?.unread ?? '', /roots\[0\] is computed/);
        return fence({ schema_version: '1', case_id: id, verdict: 'wrong_place', path: moved, reason: 'jest roots is <rootDir>/src' });
      }),
    );
    const { r, s } = await generate(ws, 'openai');
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(
      s.verification.results.map((x) => [x.outcome, x.file]),
      [['passing', moved]],
    );
    assert.deepEqual(
      s.verification.repairs.map((x) => x.outcome),
      ['wrong_place'],
    );
    assert.match(s.layoutNote ?? '', /jest does not collect test\/adder\.amtp\.test\.js; moved to src\/__tests__\/adder\.amtp\.test\.js/);
    const text = await fsp.readFile(path.join(ws, moved), 'utf8');
    assert.match(text, /require\('\.\.\/index\.js'\)/, 'the import is rebased from the new folder');
    await assert.rejects(fsp.access(path.join(ws, 'test/adder.amtp.test.js')), 'the old file is gone');
    const listed = spawnSync(process.execPath, [path.join(REPO, 'node_modules/jest/bin/jest.js'), '--listTests'], {
      cwd: ws,
      encoding: 'utf8',
    });
    assert.match(listed.stdout, /src\/__tests__\/adder\.amtp\.test\.js/);
  });

  it('offline, the tests jest does not collect are dropped with the reason, and layoutNote says so', async () => {
    const ws = await workspace('adder', JEST_FILES);
    const { s } = await generate(ws, 'offline');
    assert.ok(s.verification.results.length > 0);
    for (const x of s.verification.results)
      assert.match(x.reason ?? '', /^jest does not collect test\/adder\.amtp\.test\.js \(No tests found/);
    assert.match(s.layoutNote ?? '', /AMTP could not check every setting of the runner's config: jest\.config\.js: roots\[0\] is computed/);
    assert.match(s.layoutNote ?? '', /jest does not collect test\/adder\.amtp\.test\.js/);
  });

  it("jest + ts-jest under strict with roots ['<rootDir>/src'] (the issue's case): the file lands where jest looks; each test with a type error is repaired alone", async () => {
    const ws = await workspace('calc', {
      'package.json': JSON.stringify({
        name: 'calc',
        version: '1.0.0',
        main: 'src/calc.ts',
        scripts: { test: 'jest' },
        devDependencies: { jest: '*', 'ts-jest': '*' },
      }),
      'jest.config.js': "module.exports = { preset: 'ts-jest', testEnvironment: 'node', roots: ['<rootDir>/src'] };\n",
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'es2020', esModuleInterop: true } }),
      'src/calc.ts':
        'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n\nexport function mul(a: number, b: number): number {\n  return a * b;\n}\n',
    });
    const cases = [
      kase('src/calc.ts', 'add', 'add(2, 3) is 5'),
      kase('src/calc.ts', 'sub', 'sub(5, 3) is 2'),
      kase('src/calc.ts', 'mul', 'mul(2, 3) is 6'),
    ];
    const [good, fixable, hopeless] = cases.map(caseIdOf);
    fake.setFallback(
      model(cases, ['expect(add(2, 3)).toBe(5);', "expect(sub('5', 3)).toBe(2);", 'expect(mul(null, 3)).toBe(0);'], (id, payload) => {
        assert.equal((payload.typecheck as { checked: boolean }).checked, true);
        if (id === fixable)
          return fence({
            schema_version: '1',
            case_id: id,
            verdict: 'fixed',
            test: `it('${id}: sub(5, 3) is 2', () => {\n  expect(sub(5, 3)).toBe(2);\n});`,
            reason: 'sub takes numbers',
          });
        return fence({ schema_version: '1', case_id: id, verdict: 'cannot_fix', reason: 'mul takes no null' });
      }),
    );
    // One run per test: ts-jest compiles for seconds, and the runs are not what this checks.
    const { r, s } = await generate(ws, 'openai', ['--runs', '1']);
    assert.ok(r.code === 0 || r.code === 3, r.stderr + r.stdout);
    assert.match(
      s.verification.results.find((x) => x.caseId === hopeless)!.reason!,
      /calc\.amtp\.test\.ts:\d+:\d+ - error TS2345: Argument of type 'null'/,
    );
    assert.deepEqual(
      s.files.filter((f) => /amtp/.test(f.path)).map((f) => f.path),
      ['src/__tests__/calc.amtp.test.ts'],
    );
    const outcome = new Map(s.verification.results.map((x) => [x.caseId, x.outcome]));
    assert.deepEqual([outcome.get(good), outcome.get(fixable), outcome.get(hopeless)], ['passing', 'passing', 'dropped']);
    assert.deepEqual(
      s.verification.repairs.map((x) => [x.caseId, x.outcome]),
      [
        [fixable, 'fixed'],
        [hopeless, 'cannot_fix'],
      ],
    );
    const repairCalls = fake.requests.filter((q) => q.envelope?.from_agent === 'verifier');
    assert.ok(
      repairCalls.every((q) => /TS2345/.test(String(q.envelope!.payload.error))),
      'each session sees the type error',
    );
    const file = await fsp.readFile(path.join(ws, 'src/__tests__/calc.amtp.test.ts'), 'utf8');
    assert.ok(file.includes('expect(sub(5, 3)).toBe(2)') && file.includes('expect(add(2, 3)).toBe(5)') && !file.includes('mul('), file);
    const own = spawnSync(process.execPath, [path.join(REPO, 'node_modules/jest/bin/jest.js'), '--ci'], { cwd: ws, encoding: 'utf8' });
    assert.equal(own.status, 0, `the project's own jest runs the kept tests: ${own.stderr}`);
    assert.match(own.stderr, /Tests:\s+2 passed, 2 total/);
  });
});
