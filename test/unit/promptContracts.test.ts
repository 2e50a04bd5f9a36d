// Prompts promise only what the envelope carries: every field a system prompt names ("quoted", or
// as payload.X / params.X) is a key of the envelope it is sent with (built by the real batch
// planners from a crawled workspace) or a word of the reply's schema; every JSON Pointer the
// crawler's prompt offers starts at a field its view has, and "/notes/-" appends to a list there.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCHINGS } from '../../server/src/agents/batchings';
import { CRAWLER_ROLE } from '../../server/src/agents/crawler/prompt';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { ENGINEER_ROLE } from '../../server/src/agents/engineer/prompt';
import { GENERATOR_ROLE } from '../../server/src/agents/generator/prompt';
import { projectBlock } from '../../server/src/agents/generator/project';
import { caseIdOf } from '../../server/src/agents/generator/batches';
import { INPUT_SCHEMA, OUTPUT_SCHEMA } from '../../server/src/contracts/agentSchemas';
import { SCHEMAS } from '../../server/src/contracts/schemas';
import { selfContained } from '../../server/src/contracts/selfContained';
import type { CrawlerOutput, TestCase } from '../../server/src/contracts/types';
import { REPAIR_ROLE } from '../../server/src/verifier/repair';

/** Every object key anywhere in a value. */
function keysOf(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keysOf(x, out));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      keysOf(x, out);
    }
  return out;
}

/** Property names, enum values and string consts of a schema: what a reply may say. */
function schemaWords(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((x) => schemaWords(x, out));
  else if (schema && typeof schema === 'object') {
    const s = schema as Record<string, unknown>;
    if (s.properties && typeof s.properties === 'object') for (const k of Object.keys(s.properties)) out.add(k);
    if (Array.isArray(s.enum)) for (const e of s.enum) if (typeof e === 'string') out.add(e);
    if (typeof s.const === 'string') out.add(s.const);
    for (const x of Object.values(s)) schemaWords(x, out);
  }
  return out;
}

/** The fields a prompt names: "quoted" identifiers (each dotted part), payload.X and params.X. */
function namedFields(prompt: string): string[] {
  const quoted = [...prompt.matchAll(/"([a-z_][a-z0-9_.]*)"/g)].flatMap((m) => m[1].split('.'));
  const dotted = [...prompt.matchAll(/\b(?:payload|params)\.([a-z_][a-z0-9_]*)/g)].map((m) => m[1]);
  return [...new Set([...quoted, ...dotted])];
}

/** Fields neither in the envelope, nor in its payload's contract (optional fields a sample may lack), nor in the reply's schema. */
function unknownFields(prompt: string, envelope: unknown, outputSchema: unknown, inputSchema: unknown = {}): string[] {
  const known = new Set([...keysOf(envelope), ...schemaWords(inputSchema), ...schemaWords(outputSchema)]);
  return namedFields(prompt).filter((f) => !known.has(f));
}

const envelope = (to: string, payload: unknown, params: Record<string, unknown>) => ({
  schema_version: '1',
  run_id: 'r_1',
  from_agent: 'orchestrator',
  to_agent: to,
  artifact_id: null,
  payload,
  batch: { index: 1, count: 1 },
  params,
});

describe('prompts and the envelopes they are sent with agree', () => {
  let dir: string;
  let map: CrawlerOutput;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-prompts-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mini', main: 'src/index.js', scripts: { test: 'jest' } }));
    writeFileSync(
      join(dir, 'src/index.js'),
      'const LIMIT = 3;\n/**\n * Clamps to the limit.\n * @example clamp(5) // => 3\n * @throws {TypeError} when x is no number\n */\nfunction clamp(x) {\n  if (typeof x !== "number") throw new TypeError("x");\n  return Math.min(x, LIMIT);\n}\nmodule.exports = { clamp };\n',
    );
    map = (await crawlWorkspace(dir)).map;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const ctx = { budget: { payloadTokens: 6000, outputTokens: 4000 }, depth: 'standard' as const, framework: 'auto' as const };

  it('the Repo Crawler: its view has every field and path the prompt names', () => {
    const [view] = BATCHINGS.crawler.plan(map, ctx);
    const env = envelope('crawler', view.payload, {});
    assert.deepEqual(unknownFields(CRAWLER_ROLE, env, selfContained(OUTPUT_SCHEMA.crawler), selfContained(INPUT_SCHEMA.crawler)), []);
    const pointers = [...CRAWLER_ROLE.matchAll(/(?:^|[\s(])(\/[a-z_]+(?:\/[^\s,)]*)?)/g)].map((m) => m[1]);
    assert.ok(pointers.includes('/notes/-') && pointers.includes('/key_files'), pointers.join(' '));
    for (const p of pointers) {
      const top = p.split('/')[1];
      assert.ok(top in view.payload, `${p}: the view has no /${top}`);
      if (p.endsWith('/-') && p.split('/').length === 3)
        assert.ok(Array.isArray((view.payload as unknown as Record<string, unknown>)[top]), `${p} appends to a list the view must have`);
    }
  });

  it('the Test Case Generator: "sources" and every other field it names are in its view', () => {
    const [view] = BATCHINGS.generator.plan(map, ctx);
    assert.ok(view.payload.sources?.some((s) => s.name === 'clamp'));
    const env = envelope('generator', view.payload, { depth_level: 'standard' });
    assert.deepEqual(unknownFields(GENERATOR_ROLE, env, selfContained(OUTPUT_SCHEMA.generator), selfContained(INPUT_SCHEMA.generator)), []);
  });

  it('the Test Engineer: "source", "line", "helpers", "files", "conventions" and the rest are in its batch', () => {
    const c = {
      title: 'clamp(5) returns 3',
      target: { file: 'src/index.js', symbol: 'clamp', export_style: 'exports.property' as const },
      kind: 'example' as const,
      priority: 'P1' as const,
      preconditions: [],
      steps: ['call clamp(5)'],
      expected: ['3'],
      rationale: 'documented',
    };
    const cases: TestCase[] = [{ ...c, id: caseIdOf(c) }];
    const plan = { schema_version: '1' as const, depth_level: 'standard' as const, project: projectBlock(map), cases };
    const [batch] = BATCHINGS.engineer.plan({ plan, map }, ctx);
    const env = envelope('engineer', batch.payload, { target_framework: 'auto' });
    assert.ok(batch.payload.symbols[0].source?.includes('return Math.min(x, LIMIT);'));
    assert.deepEqual(
      batch.payload.symbols[0].helpers?.map((h) => h.source),
      ['const LIMIT = 3;'],
    );
    assert.deepEqual(unknownFields(ENGINEER_ROLE, env, selfContained(OUTPUT_SCHEMA.engineer), selfContained(INPUT_SCHEMA.engineer)), []);
  });

  it('the repair session: every payload field it names is in the repair-input contract', () => {
    const inputWords = schemaWords(SCHEMAS['repair-input']);
    const outputWords = schemaWords(SCHEMAS['repair-output']);
    const missing = namedFields(REPAIR_ROLE).filter((f) => !inputWords.has(f) && !outputWords.has(f));
    assert.deepEqual(missing, []);
  });

  it('a prompt naming a field its envelope lacks is caught', () => {
    const [view] = BATCHINGS.generator.plan(map, ctx);
    const env = envelope('generator', view.payload, {});
    assert.deepEqual(unknownFields('Read "digest" and payload.samples_cut.', env, selfContained(OUTPUT_SCHEMA.generator)), [
      'digest',
      'samples_cut',
    ]);
  });
});
