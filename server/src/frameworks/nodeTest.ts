import { ASSERT, jsBody } from './jsBody';
import { defaultExtension, isTypeScript, quoteArgs, usesEsm } from './jsCommon';
import { renderJsFile } from './jsFile';
import type { FrameworkRenderer } from './types';

/** node:test: nothing to install; TypeScript needs a loader on Node 20 (tsx). */
export const nodeTest: FrameworkRenderer = {
  id: 'node-test',
  language: 'javascript',
  detect: (p) => p.test_setup.framework === 'node-test',
  body: (c, plan) => jsBody(c, ASSERT, plan.typescript),
  render: (plan) =>
    renderJsFile(plan, {
      testFn: 'it',
      header: (esm) =>
        esm
          ? ["import { describe, it } from 'node:test';", "import assert from 'node:assert/strict';"]
          : ["const { describe, it } = require('node:test');", "const assert = require('node:assert/strict');"],
    }),
  runCommand: (p, paths) => `node${isTypeScript(p) ? ' --import tsx' : ''} --test ${quoteArgs(paths)}`,
  devDependencies: (p) => (isTypeScript(p) ? ['tsx'] : []),
  extension: defaultExtension,
  esm: usesEsm,
};
