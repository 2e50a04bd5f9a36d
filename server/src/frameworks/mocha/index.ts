// mocha, all of it: the renderer, the runner, the failure-text parser.
import type { FrameworkDescriptor } from '../descriptor';
import { hoistSharedSetup } from '../sharedSetup';
import { parseMocha } from './failure';
import { mocha } from './render';
import { mochaRunner } from './runner';

export const descriptor: FrameworkDescriptor = {
  id: 'mocha',
  renderer: mocha,
  conventions:
    'mocha: describe/it globals with node:assert/strict (assert.strictEqual, assert.deepStrictEqual); `require` in CommonJS, `import` in ESM (.mjs); TypeScript via `--node-option import=tsx`.',
  runner: mochaRunner,
  parseFailure: parseMocha,
  layout: { esmImportsAlways: false },
  mutation: { perTestMs: 1, describe: 'global', serial: false },
  sharedSetup: hoistSharedSetup,
  detection: {
    // mocha.opts: mocha before 8 (agents/crawler/mochaOpts.ts)
    configFiles: [/(^|\/)\.mocharc(\.[cm]?js|\.json|\.ya?ml|\.jsonc)?$/, /(^|\/)mocha\.opts$/],
    configHint: /mocharc|mocha\.opts/,
    script: /\bmocha\b/,
    readConfig: { files: ['.mocharc.js', '.mocharc.cjs'], filesKey: 'spec' },
    defaultPatterns: ['test/*.{js,cjs,mjs}'],
    packages: ['mocha'],
    packageJsonKey: 'mocha',
  },
};
