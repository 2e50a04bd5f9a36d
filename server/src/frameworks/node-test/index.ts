// node:test, all of it: the renderer, the runner, the failure-text parser (node:assert's messages).
import type { FrameworkDescriptor } from '../descriptor';
import { hoistSharedSetup } from '../sharedSetup';
import { parseNodeAssert } from './failure';
import { nodeTest } from './render';
import { nodeTestRunner } from './runner';

export const descriptor: FrameworkDescriptor = {
  id: 'node-test',
  renderer: nodeTest,
  conventions:
    "node:test: import { describe, it } from 'node:test' and assert from 'node:assert/strict'; CommonJS uses require; run `node --test FILES` (TypeScript on Node 20: `node --import tsx --test`).",
  runner: nodeTestRunner,
  parseFailure: parseNodeAssert,
  layout: { esmImportsAlways: false },
  mutation: { perTestMs: 3, describe: { from: 'node:test' }, serial: false },
  sharedSetup: hoistSharedSetup,
  detection: {
    configFiles: [],
    script: /node\s+(--[\w-]+\s+)*--test\b/,
    defaultPatterns: [
      '**/*.test.{js,cjs,mjs}',
      '**/*-test.{js,cjs,mjs}',
      '**/*_test.{js,cjs,mjs}',
      '**/test-*.{js,cjs,mjs}',
      '**/test.{js,cjs,mjs}',
      '**/test/**/*.{js,cjs,mjs}',
    ],
    packages: [],
  },
};
