import { strict as assert } from 'node:assert';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SCHEMAS, type SchemaName } from '../../server/src/contracts/schemas';
import { validate } from '../../server/src/contracts/validate';
import { acceptReply } from '../../server/src/pipeline/boundary';
import { buildEnvelope } from '../../server/src/pipeline/envelope';
import { canonicalJson, canonicalJsonWithRaw } from '../../server/src/pipeline/canonical';
import { MalformedLlmOutput, SchemaValidationError } from '../../server/src/llm/errors';
import { goodEngineerOutput, goodGeneratorOutput } from '../helpers/scriptedModel';

describe('contracts (Draft 2020-12, ajv)', () => {
  it('every schema is Draft 2020-12 with an $id', () => {
    for (const [name, s] of Object.entries(SCHEMAS)) {
      assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema', name);
      assert.match(s.$id, new RegExp(`/${name}\\.schema\\.json$`));
    }
  });

  it('every schema is valid against the 2020-12 meta-schema and compiles in strict mode (validate() skips this check at run time)', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    for (const s of Object.values(SCHEMAS)) ajv.addSchema(s); // throws on a schema the meta-schema rejects
    for (const [name, s] of Object.entries(SCHEMAS)) assert.ok(ajv.getSchema(s.$id), name);
  });

  it('the validators precompiled into the bundles judge like the ones compiled at run time', async () => {
    const { precompiledValidatorsSource } = (await import(path.resolve('scripts/precompiledValidators.mjs'))) as { precompiledValidatorsSource(): string };
    const mod = { exports: {} as Record<string, ((v: unknown) => boolean) & { errors?: unknown }> };
    new Function('module', 'exports', 'require', precompiledValidatorsSource())(mod, mod.exports, require);
    assert.deepEqual(Object.keys(mod.exports).sort(), Object.keys(SCHEMAS).sort());
    const map = JSON.parse(readFileSync('test/fixtures/crawler-maps/slugify.json', 'utf8'));
    const samples: [SchemaName, unknown][] = [
      ['crawler-output', map],
      ['crawler-output', { ...map, extra: 1 }],
      ['crawler-output', { ...map, key_files: 'x' }],
      ['test-cases', goodGeneratorOutput()],
      ['engineer-output', goodEngineerOutput()],
      ['engineer-output', { ...goodEngineerOutput(), files: 'test/a.js' }],
    ];
    for (const [name, value] of samples) {
      const fn = mod.exports[name];
      const ok = fn(value);
      const runtime = validate(name, value);
      assert.equal(ok, runtime.ok, name);
      if (!runtime.ok) assert.equal((fn.errors as unknown[]).length, runtime.errors.length, name);
    }
  });

  it('accepts good outputs and rejects extra properties and wrong types', () => {
    assert.deepEqual(validate('test-cases', goodGeneratorOutput()), { ok: true });
    assert.deepEqual(validate('engineer-output', goodEngineerOutput()), { ok: true });
    const extra = { ...goodEngineerOutput(), rm: 'rf' };
    const r = validate('engineer-output', extra);
    assert.equal(r.ok, false);
    const wrong = { ...goodEngineerOutput(), files: 'test/a.js' };
    assert.equal(validate('engineer-output', wrong).ok, false);
  });

  it('acceptReply: fenced → object; prose → MalformedLlmOutput; valid JSON, wrong shape → SchemaValidationError', () => {
    const json = JSON.stringify(goodEngineerOutput());
    assert.deepEqual(acceptReply('engineer', '```json\n' + json + '\n```'), goodEngineerOutput());
    assert.throws(() => acceptReply('engineer', 'Sure: ' + json), MalformedLlmOutput);
    assert.throws(() => acceptReply('engineer', json.slice(0, -5)), MalformedLlmOutput);
    assert.throws(() => acceptReply('engineer', '[1,2]'), SchemaValidationError);
    assert.throws(() => acceptReply('engineer', 'null'), SchemaValidationError);
    assert.throws(() => acceptReply('engineer', '{"schema_version":"1"}'), (e: unknown) => e instanceof SchemaValidationError && e.errors.length > 0);
  });

  it('the envelope is canonical and re-validates the payload against the next agent input schema', () => {
    const env = {
      schema_version: '1' as const, run_id: 'r_1', from_agent: 'generator' as const, to_agent: 'engineer' as const,
      artifact_id: 'a_' + '0'.repeat(32), payload: goodGeneratorOutput(), params: { target_framework: 'auto' as const },
    };
    const text = buildEnvelope(env);
    assert.equal(text, canonicalJson(JSON.parse(text)));
    assert.ok(!/\s"|":\s/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""')), 'no whitespace between tokens');
    assert.ok(text.indexOf('"artifact_id"') < text.indexOf('"from_agent"'), 'keys sorted');
    // A payload that is not a test-cases object cannot reach the engineer.
    assert.throws(() => buildEnvelope({ ...env, payload: { cases: [] } }), SchemaValidationError);
    // The generator needs a depth level.
    assert.throws(() => buildEnvelope({ ...env, to_agent: 'generator', from_agent: 'crawler', params: {} }), SchemaValidationError);
  });

  it('canonical JSON follows RFC 8785 number and key rules', () => {
    assert.equal(canonicalJson({ b: 1e21, a: [1.0, -0, 0.1], é: 'x', A: null }), '{"A":null,"a":[1,0,0.1],"b":1e+21,"é":"x"}');
  });

  it('splicing a canonical payload gives the same bytes as canonicalizing the whole envelope', () => {
    const payload = { z: [1, { b: 'é\u2028', a: null }], a: '"quoted", \\ "kind":', k: 1e-7 };
    const env = { to_agent: 'generator', payload, run_id: 'r', artifact_id: 'a_x', params: { depth_level: 'deep' } };
    assert.equal(canonicalJsonWithRaw(env, 'payload', canonicalJson(payload)), canonicalJson(env));
  });
});
