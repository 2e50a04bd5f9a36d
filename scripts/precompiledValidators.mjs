// esbuild plugin: replaces server/src/contracts/precompiled.ts with ajv's standalone code for every
// schema, generated from schemas/*.json at bundle time (so it cannot drift from them). Compiling
// the schemas at run time cost a fresh process 50-150 ms; the generated functions cost nothing to load.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Standalone CommonJS source exporting one validator per schema name (`crawler-output`, ...). */
export function precompiledValidatorsSource() {
  const Ajv2020 = require('ajv/dist/2020').default;
  const addFormats = require('ajv-formats').default;
  const standaloneCode = require('ajv/dist/standalone').default;
  const { _ } = require('ajv');
  // The same options as server/src/contracts/validate.ts, plus source output.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    allowUnionTypes: true,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  const names = {};
  for (const file of readdirSync(path.join(root, 'schemas'))
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    const schema = JSON.parse(readFileSync(path.join(root, 'schemas', file), 'utf8'));
    ajv.addSchema(schema);
    names[file.replace(/\.schema\.json$/, '')] = schema.$id;
  }
  return standaloneCode(ajv, names);
}

export const precompiledValidators = {
  name: 'amtp-precompiled-validators',
  setup(build) {
    build.onLoad({ filter: /[\\/]contracts[\\/]precompiled\.ts$/ }, () => ({
      contents: `${precompiledValidatorsSource()}\nmodule.exports = { PRECOMPILED: module.exports };`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};
