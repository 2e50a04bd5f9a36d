// jest, all of it: the renderer (render.ts, support.ts for TypeScript), the runner, the failure-text parser.
import type { FrameworkDescriptor } from '../descriptor';
import { hoistSharedSetup } from '../sharedSetup';
import { jsConfigNames } from '../jsCommon';
import { parseJest } from './failure';
import { jest } from './render';
import { jestRunner } from './runner';

export const descriptor: FrameworkDescriptor = {
  id: 'jest',
  renderer: jest,
  conventions: [
    'jest: describe/it/expect. CommonJS projects: `require` the module, jest globals, files *.test.js.',
    'ESM JavaScript: `.mjs` files with `import`, run with NODE_OPTIONS=--experimental-vm-modules.',
    "TypeScript: `.test.ts` files importing { describe, it, expect } from '@jest/globals'.",
    'Deep equality: toEqual; NaN: toBeNaN; errors: capture and compare the error name.',
  ].join('\n'),
  runner: jestRunner,
  parseFailure: parseJest,
  layout: { esmImportsAlways: false },
  mutation: { perTestMs: 3, describe: 'global', serial: false },
  sharedSetup: hoistSharedSetup,
  detection: {
    configFiles: [/(^|\/)jest\.config\.[cm]?[jt]s(on)?$/],
    configHint: /jest/,
    script: /\bjest\b/,
    readConfig: { files: [...jsConfigNames('jest.config'), 'jest.config.json'] },
    defaultPatterns: ['**/__tests__/**/*.?([mc])[jt]s?(x)', '**/?(*.)+(spec|test).?([mc])[jt]s?(x)'],
    packages: ['jest'],
    packageJsonKey: 'jest',
  },
};
