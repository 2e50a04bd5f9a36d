import { strict as assert } from 'node:assert';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEMAS, type SchemaName } from '../../server/src/contracts/schemas';
import { validate } from '../../server/src/contracts/validate';
import { acceptReply } from '../../server/src/llm/accept';
import { buildEnvelope } from '../../server/src/contracts/envelope';
import { canonicalJson, canonicalJsonWithRaw } from '../../server/src/core/canonical';
import { MalformedLlmOutput } from '../../server/src/llm/errors';
import { SchemaValidationError } from '../../server/src/core/errors';
import { goodEngineerOutput, goodGeneratorOutput } from '../helpers/scriptedModel';

describe('contracts (Draft 2020-12, ajv)', () => {
  it('the TypeScript types are generated from the schemas and up to date (npm run gen:types)', async function () {
    this.timeout(30_000);
    // A real dynamic import: the generator is an ES module script, not part of the bundles.
    const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<{ generate(): Promise<string>; OUT: string }>;
    const gen = await importEsm(pathToFileURL(path.resolve(__dirname, '../../scripts/gen-contract-types.mjs')).href);
    assert.equal(
      fs.readFileSync(gen.OUT, 'utf8'),
      await gen.generate(),
      'server/src/contracts/generated.ts is stale: run npm run gen:types',
    );
  });

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
    const { precompiledValidatorsSource } = (await import(path.resolve('scripts/precompiledValidators.mjs'))) as {
      precompiledValidatorsSource(): string;
    };
    const mod = { exports: {} as Record<string, ((v: unknown) => boolean) & { errors?: unknown }> };
    new Function('module', 'exports', 'require', precompiledValidatorsSource())(mod, mod.exports, require);
    assert.deepEqual(Object.keys(mod.exports).sort(), Object.keys(SCHEMAS).sort());
    const map = JSON.parse(fs.readFileSync('test/fixtures/crawler-maps/slugify.json', 'utf8'));
    const samples: [SchemaName, unknown][] = [
      ['crawler-output', map],
      ['crawler-output', { ...map, extra: 1 }],
      ['crawler-output', { ...map, key_files: 'x' }],
      ['case-plan', goodGeneratorOutput()],
      ['test-bodies', goodEngineerOutput()],
      ['test-bodies', { ...goodEngineerOutput(), tests: 'test/a.js' }],
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
    assert.deepEqual(validate('case-plan', goodGeneratorOutput()), { ok: true });
    assert.deepEqual(validate('test-bodies', goodEngineerOutput()), { ok: true });
    assert.deepEqual(validate('crawler-patch', { schema_version: '1', patch: [{ op: 'add', path: '/notes/-', value: 'x' }] }), {
      ok: true,
    });
    const extra = { ...goodEngineerOutput(), rm: 'rf' };
    const r = validate('test-bodies', extra);
    assert.equal(r.ok, false);
    const wrong = { ...goodEngineerOutput(), tests: 'test/a.js' };
    assert.equal(validate('test-bodies', wrong).ok, false);
    // A crawler patch may only touch the parts of its view a model may correct.
    assert.equal(
      validate('crawler-patch', { schema_version: '1', patch: [{ op: 'replace', path: '/project/name', value: 'x' }] }).ok,
      false,
    );
    assert.equal(validate('crawler-patch', { schema_version: '1', patch: [{ op: 'copy', from: '/a', path: '/notes/0' }] }).ok, false);
    // A planned case may leave its id to AMTP; the plan the engineer gets may not.
    assert.deepEqual(
      validate('test-cases', {
        schema_version: '1',
        depth_level: 'smoke',
        project: {
          name: 'p',
          language: 'javascript',
          module_system: 'cjs',
          typescript: false,
          test_setup: { framework: 'none', test_dirs: [], config_files: [] },
        },
        cases: goodGeneratorOutput().cases,
      }).ok,
      false,
    );
  });

  it('acceptReply: fenced → object; prose → MalformedLlmOutput; valid JSON, wrong shape → SchemaValidationError', () => {
    const json = JSON.stringify(goodEngineerOutput());
    assert.deepEqual(acceptReply('engineer', '```json\n' + json + '\n```'), goodEngineerOutput());
    assert.throws(() => acceptReply('engineer', 'Sure: ' + json), MalformedLlmOutput);
    assert.throws(() => acceptReply('engineer', json.slice(0, -5)), MalformedLlmOutput);
    assert.throws(() => acceptReply('engineer', '[1,2]'), SchemaValidationError);
    assert.throws(() => acceptReply('engineer', 'null'), SchemaValidationError);
    assert.throws(
      () => acceptReply('engineer', '{"schema_version":"1"}'),
      (e: unknown) => e instanceof SchemaValidationError && e.errors.length > 0,
    );
  });

  it('the envelope is canonical and re-validates the payload against the next agent input schema', () => {
    const payload = {
      schema_version: '1',
      framework: 'node-test',
      view: { batch: 1, of: 1, cases: 1 },
      project: {
        name: 'adder',
        language: 'javascript',
        module_system: 'cjs',
        typescript: false,
        test_setup: { framework: 'node-test', test_dirs: [], config_files: [] },
      },
      files: [
        { path: 'test/adder.amtp.test.js', target: 'index.js', imports: ["const { add } = require('../index.js');"], names: ['add'] },
      ],
      cases: [{ file: 'test/adder.amtp.test.js', case: { ...goodGeneratorOutput().cases[0], id: 'tc_0123456789ab' } }],
      symbols: [{ file: 'index.js', name: 'add', signature: 'add(a, b)' }],
    };
    const env = {
      schema_version: '1' as const,
      run_id: 'r_1',
      from_agent: 'generator' as const,
      to_agent: 'engineer' as const,
      artifact_id: 'a_' + '0'.repeat(32),
      payload,
      batch: { index: 1, count: 1 },
      params: { target_framework: 'auto' as const },
    };
    const text = buildEnvelope(env);
    assert.equal(text, canonicalJson(JSON.parse(text)));
    assert.ok(!/\s"|":\s/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""')), 'no whitespace between tokens');
    assert.ok(text.indexOf('"artifact_id"') < text.indexOf('"from_agent"'), 'keys sorted');
    // A payload that is not an engineer batch cannot reach the engineer.
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
