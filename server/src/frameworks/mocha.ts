import { ASSERT, jsBody } from './jsBody';
import { declared, defaultExtension, isTypeScript, quoteArgs, usesEsm } from './jsCommon';
import { renderJsFile } from './jsFile';
import type { FrameworkRenderer } from './types';

/** mocha: describe/it globals with node:assert/strict; TypeScript runs through tsx's loader. */
export const mocha: FrameworkRenderer = {
  id: 'mocha',
  language: 'javascript',
  detect: (p) => declared(p, 'mocha'),
  body: (c, plan) => jsBody(c, ASSERT, plan.typescript),
  render: (plan) =>
    renderJsFile(plan, {
      testFn: 'it',
      header: (esm, ts) => [esm ? "import assert from 'node:assert/strict';" : "const assert = require('node:assert/strict');", ...(ts ? ["import { describe, it } from 'mocha';"] : [])],
    }),
  runCommand: (p, paths) => `npx mocha${isTypeScript(p) ? ' --node-option import=tsx' : ''} ${quoteArgs(paths)}`,
  devDependencies: (p) => [...(declared(p, 'mocha') ? [] : ['mocha']), ...(isTypeScript(p) ? ['tsx', '@types/mocha'] : [])],
  extension: defaultExtension,
  esm: usesEsm,
};
