// node-tap (the `tap` package), all of it: the renderer, the runner, the failure-text parser, the shared setup.
import type { FrameworkDescriptor } from '../descriptor';
import { parseNodeTap } from './failure';
import { nodeTap } from './render';
import { nodeTapRunner } from './runner';
import { tapSharedSetup } from './sharedSetup';

export const descriptor: FrameworkDescriptor = {
  id: 'node-tap',
  renderer: nodeTap,
  conventions:
    "node-tap: import { test } from 'tap' (CommonJS: const { test } = require('tap')); flat test('title', async (t) => { ... }) always async; t.equal (strict), t.strictSame, t.ok, t.throws on the test's t; run `npx tap --disable-coverage FILES`.",
  runner: nodeTapRunner,
  parseFailure: parseNodeTap,
  layout: { esmImportsAlways: false },
  mutation: { perTestMs: 10, describe: 'none', serial: false },
  sharedSetup: tapSharedSetup,
  detection: {
    configFiles: [/(^|\/)\.taprc$/],
    configHint: /taprc/,
    // `tap` the command (not tap-spec, tap-mocha-reporter)
    script: /(^|[;&|(]\s*)(npx\s+)?tap(\s|$)/,
    defaultPatterns: [
      '**/@(test?(s)|__test?(s)__)/**/*.@(js|cjs|mjs|tap|cts|jsx|mts|ts|tsx)',
      '**/*.@(test?(s)|spec).@(js|cjs|mjs|tap|cts|jsx|mts|ts|tsx)',
      '**/test?(s).@(js|cjs|mjs|tap|cts|jsx|mts|ts|tsx)',
    ],
    packages: ['tap'],
    packageJsonKey: 'tap',
    command: 'tap',
  },
};
