// esbuild settings of the mutation worker's bundle (dist/mutationWorker.js; server/src/mutation/js/instrumentWorker.ts):
// the StrykerJS instrumenter with babel, in a bundle of its own that loads only when mutation runs.
// Two of its files find files next to themselves through `import.meta.url`, which a CommonJS bundle
// does not have: the TypeScript parser resolves babel's preset and plugins by name (this plugin hands
// babel the imported plugin objects instead: babel takes a plugin's module as well as its name), and
// @stryker-mutator/api reads its options schema from disk (this plugin imports the JSON instead). A
// pattern that is no longer in its file fails the build, so a StrykerJS update cannot silently break it.
import { readFileSync } from 'node:fs';

const TS_PARSER = /@stryker-mutator[\\/]instrumenter[\\/]dist[\\/]src[\\/]parsers[\\/]ts-parser\.js$/;
const OPTIONS_SCHEMA = /@stryker-mutator[\\/]api[\\/]dist[\\/]src[\\/]core[\\/]stryker-options-schema\.js$/;

const TS_PARSER_PATCH = [
  [
    "import { createRequire } from 'module';",
    [
      "import presetTypescript from '@babel/preset-typescript';",
      "import pluginDecorators from '@babel/plugin-proposal-decorators';",
      "import pluginResourceManagement from '@babel/plugin-transform-explicit-resource-management';",
    ].join('\n'),
  ],
  ['const require = createRequire(import.meta.url);', ''],
  ["require.resolve('@babel/preset-typescript')", 'presetTypescript'],
  ["require.resolve('@babel/plugin-proposal-decorators')", 'pluginDecorators'],
  ["require.resolve('@babel/plugin-transform-explicit-resource-management')", 'pluginResourceManagement'],
];

const OPTIONS_SCHEMA_PATCH = [
  [
    "const strykerCoreSchema = JSON.parse(readFileSync(new URL('../../schema/stryker-core.json', import.meta.url), 'utf-8'));",
    "import strykerCoreSchema from '../../schema/stryker-core.json';",
  ],
];

function patched(path, replacements) {
  let text = readFileSync(path, 'utf8');
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`strykerBundle.mjs: "${from}" is no longer in ${path}; update the patch`);
    text = text.replace(from, to);
  }
  return { contents: text, loader: 'js' };
}

export const strykerBundlePlugin = {
  name: 'stryker-bundle',
  setup(build) {
    build.onLoad({ filter: TS_PARSER }, (args) => patched(args.path, TS_PARSER_PATCH));
    build.onLoad({ filter: OPTIONS_SCHEMA }, (args) => patched(args.path, OPTIONS_SCHEMA_PATCH));
  },
};

/** Never loaded: the instrumenter asks for svelte only for .svelte files, which AMTP never mutates. */
export const MUTATION_WORKER_EXTERNALS = ['svelte/compiler'];
