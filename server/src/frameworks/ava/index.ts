// ava, all of it: the renderer, the runner, the failure-text parser, the shared setup.
import type { FrameworkDescriptor } from '../descriptor';
import { parseAva } from './failure';
import { ava } from './render';
import { avaRunner } from './runner';
import { avaSharedSetup } from './sharedSetup';

export const descriptor: FrameworkDescriptor = {
  id: 'ava',
  renderer: ava,
  conventions:
    "ava: import test from 'ava' (CommonJS: const test = require('ava')); flat test('title', (t) => { ... }) with no describe; t.is, t.deepEqual, t.true, t.throws on the test's t; run `npx ava FILES`.",
  runner: avaRunner,
  parseFailure: parseAva,
  layout: { esmImportsAlways: false },
  mutation: { perTestMs: 3, describe: 'none', serial: true },
  sharedSetup: avaSharedSetup,
  detection: {
    configFiles: [/(^|\/)ava\.config\.[cm]?js$/],
    configHint: /ava\.config/,
    script: /(^|[;&|(]\s*)(npx\s+)?ava(\s|$)/,
    readConfig: { files: ['ava.config.js', 'ava.config.cjs', 'ava.config.mjs'], filesKey: 'files' },
    defaultPatterns: [
      'test.js',
      'src/test.js',
      'source/test.js',
      '**/test-*.js',
      '**/*.spec.js',
      '**/*.test.js',
      '**/test/**/*.js',
      '**/tests/**/*.js',
      '**/__tests__/**/*.js',
    ],
    packages: ['ava'],
    packageJsonKey: 'ava',
  },
};
