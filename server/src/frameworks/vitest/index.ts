// vitest, all of it: the renderer, the runner, the failure-text parser (chai's messages; its expect() prints jest's).
import type { FrameworkDescriptor } from '../descriptor';
import { hoistSharedSetup } from '../sharedSetup';
import { jsConfigNames } from '../jsCommon';
import { parseJest } from '../jest/failure';
import { parseVitest } from './failure';
import { vitest } from './render';
import { vitestRunner } from './runner';

export const descriptor: FrameworkDescriptor = {
  id: 'vitest',
  renderer: vitest,
  conventions:
    "vitest: import { describe, it, expect } from 'vitest' (globals are off by default); ESM `import` syntax in every project; files *.test.ts|js; run `npx vitest run FILES`.",
  runner: vitestRunner,
  parseFailure: (m) => parseVitest(m) ?? parseJest(m),
  layout: { esmImportsAlways: true },
  mutation: { perTestMs: 2, describe: { from: 'vitest' }, serial: false },
  sharedSetup: hoistSharedSetup,
  detection: {
    configFiles: [/(^|\/)vitest\.(config|workspace)\.[cm]?[jt]s$/],
    configHint: /vitest/,
    script: /\bvitest\b/,
    readConfig: { files: [...jsConfigNames('vitest.config'), ...jsConfigNames('vite.config')] },
    defaultPatterns: ['**/*.{test,spec}.?(c|m)[jt]s?(x)'],
    packages: ['vitest'],
  },
};
