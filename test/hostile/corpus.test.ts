import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { OFFLINE_ENGINES } from '../../server/src/agents/offlineEngines';
import { engineerBatching } from '../../server/src/agents/engineer/batches';
import type { CrawlerOutput, TestCases } from '../../server/src/contracts/types';
import { MalformedLlmOutput } from '../../server/src/llm/errors';
import { SchemaValidationError } from '../../server/src/core/errors';
import { OfflineProvider } from '../../server/src/llm/offlineProvider';
import { OpenAiProvider } from '../../server/src/llm/openaiProvider';
import type { LlmProvider } from '../../server/src/llm/provider';
import { acceptReply } from '../../server/src/llm/accept';
import { streamLimitBytes } from '../../server/src/llm/replyLimits';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../../server/src/core/providers';
import { resolveParams } from '../../server/src/pipeline/config';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { LowdbStore } from '../../server/src/store/lowdb';
import { ARTIFACT_KIND, BATCH_KIND } from '../../server/src/core/agents';
import { caseIdOf } from '../../server/src/agents/generator/batches';
import { FakeOpenAi } from '../helpers/fakeOpenAi';
import { openAiDeps } from '../helpers/pipelineDeps';
import { GOOD_TEST_PATH, goodGeneratorOutput, goodModel, makeAddWorkspace } from '../helpers/scriptedModel';
import { CORPUS, INJECTION, JS_BREAKOUT, TEMPLATE_BREAKOUT, type CorpusEntry } from './corpus/replies';
import { artifactsOf, listAll, rmTemp, tally, tempDir, tempLeftovers } from './helpers/common';

const params = () => resolveParams({ provider: 'openai', model: 'm', seed: 7 });

/**
 * What the pipeline makes of a reply: one that streams on past its output bound's limit is cut there
 * (OutputTruncated) before the boundary sees it (issue 21); the rest is what acceptReply says.
 */
function throughPipeline(entry: CorpusEntry, raw: string): CorpusEntry['expect'] | 'OutputTruncated' {
  return Buffer.byteLength(raw, 'utf8') > streamLimitBytes(DEFAULT_MAX_OUTPUT_TOKENS) ? 'OutputTruncated' : entry.expect;
}

describe('hostile 1: a corpus of bad LLM replies', function () {
  this.timeout(240_000);

  it(`has at least 40 replies covering every category (${CORPUS.length})`, () => {
    assert.ok(CORPUS.length >= 40);
    const cats = new Set(CORPUS.map((c) => c.category));
    for (const c of [
      'fences',
      'prose-around',
      'truncation-bom',
      'numbers',
      'duplicate-keys',
      'deep-nesting',
      'huge',
      'empty',
      'wrong-types',
      'extra-properties',
      'injection',
    ])
      assert.ok(cats.has(c as never), c);
  });

  describe('acceptReply classifies every reply exactly as the spec says', () => {
    for (const entry of CORPUS) {
      it(`${entry.category}: ${entry.name} → ${entry.expect}`, () => {
        const raw = entry.raw();
        let got: string = 'ok';
        let value: object | undefined;
        try {
          value = acceptReply(entry.agent, raw);
        } catch (e) {
          assert.ok(
            e instanceof MalformedLlmOutput || e instanceof SchemaValidationError,
            `only the two typed errors may escape, got ${String(e)}`,
          );
          got = e.kind;
          if (e instanceof MalformedLlmOutput) assert.ok(e.excerpt.length <= 200, 'the excerpt kept in the run record is bounded');
        }
        tally('1 corpus (acceptReply)', { tried: 1, failures: got === entry.expect ? 0 : 1 });
        assert.equal(got, entry.expect);
        assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
        assert.equal(({} as Record<string, unknown>).isAdmin, undefined, 'no prototype pollution');
        for (const s of entry.injected ?? [])
          assert.ok(JSON.stringify(value).includes(JSON.stringify(s)), 'the injected text is kept verbatim, as a JSON string value');
      });
    }
  });

  describe('through the real pipeline (fake OpenAI server on loopback): typed outcome, no artifact for the failing agent, no temp files', () => {
    let fake: FakeOpenAi;
    before(async () => {
      fake = await new FakeOpenAi(goodModel).start();
    });
    after(() => fake.stop());

    // One sample per (category, outcome) pair, so every category and every outcome goes through HTTP.
    const seen = new Set<string>();
    const sample: CorpusEntry[] = CORPUS.filter((c) => {
      const k = `${c.category}/${c.expect}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });

    for (const entry of sample) {
      it(`${entry.category}: ${entry.name}`, async () => {
        const ws = await makeAddWorkspace('amtp-hostile-corpus-');
        try {
          const raw = entry.raw();
          const expect = throughPipeline(entry, raw);
          // Malformed: retried up to maxAttempts; cut: a batch of one case cannot be split, so it is sent once more.
          const tries = expect === 'MalformedLlmOutput' ? 3 : expect === 'OutputTruncated' ? 2 : 1;
          fake.setFallback(goodModel);
          fake.requests.length = 0;
          fake.script(entry.agent, ...Array.from({ length: tries }, () => ({ content: raw })));
          const run = await startRun(openAiDeps(ws, fake.baseURL), params());
          const act = run.activities.find((a) => a.agent === entry.agent)!;
          const kinds = (await artifactsOf(ws)).map((a) => a.kind);
          const leftovers = await tempLeftovers(ws);
          const ok =
            (expect === 'ok' ? kinds.includes(BATCH_KIND[entry.agent]) : !kinds.includes(BATCH_KIND[entry.agent])) &&
            leftovers.length === 0;
          tally('1 corpus (pipeline)', { tried: 1, failures: ok ? 0 : 1 });
          if (expect === 'OutputTruncated') {
            assert.equal(run.status, 'failed');
            assert.deepEqual(
              act.errors.map((x) => x.kind),
              ['OutputTruncated', 'OutputTruncated'],
              'cut past the bound, sent once more, then failed',
            );
          } else if (expect === 'MalformedLlmOutput') {
            assert.equal(run.status, 'failed');
            assert.equal(act.attempts, 3, 'retried in new sessions up to maxAttempts');
            assert.deepEqual(
              act.errors.map((x) => x.kind),
              ['MalformedLlmOutput', 'MalformedLlmOutput', 'MalformedLlmOutput'],
            );
          } else if (expect === 'SchemaValidationError') {
            assert.equal(run.status, 'needs_review');
            assert.equal(act.attempts, 1, 'a schema violation is not retried');
            assert.equal(act.errors[0].kind, 'SchemaValidationError');
          } else {
            // Accepted at the boundary: the batch artifact is exactly the parsed reply. (A reply can still be
            // refused after: an engineer body that does not parse; a crawler patch operation that does not apply is dropped with a note.)
            const art = await new LowdbStore(ws).getArtifact(run.id, act.batches![0].artifactId!);
            assert.deepEqual(art.content, acceptReply(entry.agent, raw), 'the artifact is exactly the parsed reply');
          }
          if (expect !== 'ok') {
            assert.ok(
              !kinds.includes(BATCH_KIND[entry.agent]) && !kinds.includes(ARTIFACT_KIND[entry.agent]),
              `no ${entry.agent} artifact was persisted`,
            );
            assert.equal(act.artifactId, undefined);
          }
          assert.deepEqual(leftovers, [], 'no half-written file');
          // The run record on disk is whole and says the same as the returned record.
          const onDisk = JSON.parse(await fsp.readFile(path.join(ws, '.amtp/runs', `${run.id}.json`), 'utf8'));
          assert.equal(onDisk.status, run.status);
          assert.equal(onDisk.version, run.version);
          if (run.status !== 'completed') assert.ok(!(await listAll(ws)).includes(GOOD_TEST_PATH), 'nothing written to the workspace');
        } finally {
          await rmTemp(path.dirname(ws));
        }
      });
    }
  });

  describe('an accepted reply with injected instructions is only data', () => {
    let fake: FakeOpenAi;
    let ws: string;
    before(async () => {
      fake = await new FakeOpenAi(goodModel).start();
    });
    after(() => fake.stop());
    afterEach(() => rmTemp(path.dirname(ws)));

    for (const title of [JS_BREAKOUT, TEMPLATE_BREAKOUT, INJECTION, "\\'; process.exit(9); //", '\u2028\u2029</script><!--']) {
      it(`a case title ${JSON.stringify(title.slice(0, 40))}… becomes one escaped string literal, runs as a plain test, and changes no policy`, async () => {
        ws = await makeAddWorkspace('amtp-hostile-inject-');
        const marker = path.join(path.dirname(ws), 'pwned');
        const t = title.replace(/\/tmp\/amtp-pwned/g, marker);
        const cases = goodGeneratorOutput();
        cases.cases[0].title = t;
        cases.cases[0].rationale = INJECTION;
        fake.setFallback(goodModel);
        fake.script('generator', { content: JSON.stringify(cases) });
        // crawler and generator are the (obedient) model; the engineer is the built-in renderer.
        const model = new OpenAiProvider({ apiKey: 'sk-test-fake-key-000', baseURL: fake.baseURL, timeoutMs: 5000 });
        const offline = new OfflineProvider(OFFLINE_ENGINES);
        const provider: LlmProvider = {
          name: 'openai',
          openSession: (agent) => (agent === 'engineer' ? offline : model).openSession(agent),
        };
        const run = await startRun({ ...openAiDeps(ws, fake.baseURL), provider }, params());
        assert.equal(run.status, 'completed', run.reason);
        assert.equal(run.files.length, 1);
        const file = run.files[0].path;
        const src = await fsp.readFile(path.join(ws, file), 'utf8');
        // Parse the written test: the test name must be exactly one string literal whose value is the title.
        const sf = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
        const names: string[] = [];
        const visit = (n: ts.Node): void => {
          if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && ['test', 'it'].includes(n.expression.text)) {
            const a = n.arguments[0];
            assert.ok(ts.isStringLiteral(a), `test name is a plain string literal, got ${ts.SyntaxKind[a.kind]}`);
            names.push(a.text);
          }
          ts.forEachChild(n, visit);
        };
        visit(sf);
        assert.deepEqual(names, [t], 'the (hostile) title is the test name, as it is');
        // AMTP computed the id from it, in the comment that ends the test's first line (frameworks/caseMap.ts)
        assert.ok(src.includes(`// ${caseIdOf(cases.cases[0])}\n`), src);
        assert.equal((sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length, 0, 'the file parses');
        // Run it: the title never executes.
        const res = spawnSync(process.execPath, ['--test', file], { cwd: ws, encoding: 'utf8', timeout: 30_000 });
        assert.equal(res.status, 0, res.stdout + res.stderr);
        await assert.rejects(fsp.access(marker), 'the injected command never ran');
        // Policy unchanged: one medium-risk create in the test folder, no approvals asked, no other tool.
        assert.deepEqual(
          run.audit.map((a) => [a.tool, a.risk, a.outcome]),
          [['fs.create_test', 'medium', 'executed']],
        );
        assert.deepEqual(run.approvals, []);
        tally('1 injection-as-data', { tried: 1 });
      });
    }

    it('pytest: an injected title becomes a Python string, never code', async () => {
      const titles = ['"""\nimport os; os.system("touch PWNED")\n"""', "'; import os; os.system('touch PWNED'); '", '\\"; import os #'];
      ws = path.join(await tempDir('hostile-py-'), 'pk');
      await fsp.mkdir(ws);
      const cases = {
        schema_version: '1',
        depth_level: 'standard',
        project: {
          name: 'pk',
          language: 'python',
          module_system: 'python',
          typescript: false,
          test_setup: { framework: 'pytest', test_dirs: ['tests'], config_files: [] },
        },
        cases: titles.map((title, i) => ({
          id: `tc_00000000000${i}`,
          title,
          target: { file: 'pk.py', symbol: 'add' },
          kind: 'example',
          priority: 'P0',
          preconditions: [],
          steps: [],
          expected: [],
          rationale: INJECTION,
          oracle: {
            kind: 'equals',
            language: 'python',
            call: 'add(2, 3)',
            expected: '5',
            bindings: [{ local: 'add', import: 'named', name: 'add' }],
          },
        })),
      };
      // AMTP cuts the plan into an engineer batch; the offline engineer writes the bodies; AMTP assembles the file.
      const map = {
        schema_version: '1',
        project: { name: 'pk', module_system: 'python', typescript: false },
        tree: { files: 1, dirs: 0, bytes: 1, truncated: false },
        languages: [],
        package_managers: [],
        frameworks: [],
        test_setup: cases.project.test_setup,
        entry_points: [],
        key_files: [],
        usage_examples: [],
        skipped: [],
      } as const;
      const plan = cases as unknown as TestCases;
      const [batch] = engineerBatching.plan(
        { plan, map: structuredClone(map) as unknown as CrawlerOutput },
        { budget: { payloadTokens: 100_000, outputTokens: 100_000 }, depth: 'standard', framework: 'pytest' },
      );
      const out = engineerBatching.merge(
        { plan, map: map as unknown as CrawlerOutput },
        [
          {
            payload: batch.payload,
            output: await OFFLINE_ENGINES.engineer({
              schema_version: '1',
              run_id: 'r_x',
              from_agent: 'generator',
              to_agent: 'engineer',
              artifact_id: 'a_x',
              payload: batch.payload,
              params: { target_framework: 'pytest' },
            }),
          },
        ],
        { budget: { payloadTokens: 100_000, outputTokens: 100_000 }, depth: 'standard', framework: 'pytest' },
      );
      assert.equal(out.files.length, 1, JSON.stringify(out));
      await fsp.writeFile(path.join(ws, 'pk.py'), 'def add(a, b):\n    return a + b\n');
      await fsp.mkdir(path.join(ws, 'tests'), { recursive: true });
      await fsp.writeFile(path.join(ws, out.files[0].path), out.files[0].content);
      const res = spawnSync('python3', ['-m', 'pytest', '-q', out.files[0].path], { cwd: ws, encoding: 'utf8', timeout: 60_000 });
      if (res.error || /No module named pytest/.test(res.stderr))
        return void tally('1 injection-as-data', { tried: 0, note: 'pytest unavailable' });
      assert.equal(res.status, 0, res.stdout + res.stderr);
      assert.match(res.stdout, /3 passed/);
      await assert.rejects(fsp.access(path.join(ws, 'PWNED')), 'the injected command never ran');
      tally('1 injection-as-data', { tried: titles.length });
    });
  });
});
