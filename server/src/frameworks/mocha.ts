import { ASSERT, jsBody } from './jsBody';
import { parseJsBody, printJsBody } from './jsBodyText';
import { declared, defaultExtension, isTypeScript, quoteArgs, usesEsm } from './jsCommon';
import { defaultImport, frameworkImport, renderJsFile } from './jsFile';
import type { FrameworkRenderer } from './types';

/** mocha: describe/it globals with node:assert/strict; TypeScript runs through tsx's loader. */
export const mocha: FrameworkRenderer = {
  id: 'mocha',
  language: 'javascript',
  detect: (p) => declared(p, 'mocha'),
  body: (c, plan) => jsBody(c, ASSERT, plan, plan.bindings),
  parseBody: (_c, text, plan, async) => parseJsBody(text, plan, async),
  printBody: (body, plan) => printJsBody(body, plan.typescript),
  render: (plan) =>
    renderJsFile(plan, {
      testFn: 'it',
      header: (esm, ts) => [
        defaultImport('assert', 'node:assert/strict', esm),
        ...(ts ? [frameworkImport(['describe', 'it'], 'mocha', true)] : []),
      ],
    }),
  runCommand: (p, paths) => `npx mocha${isTypeScript(p) ? ' --node-option import=tsx' : ''} ${quoteArgs(paths)}`,
  devDependencies: (p) => [...(declared(p, 'mocha') ? [] : ['mocha']), ...(isTypeScript(p) ? ['tsx', '@types/mocha'] : [])],
  extension: defaultExtension,
  esm: usesEsm,
};
