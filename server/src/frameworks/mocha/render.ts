import { quote } from 'shell-quote';
import { ASSERT, jsBody } from '../jsBody';
import { JS_BODY_TEXT } from '../jsBodyText';
import { declared, defaultExtension, isTypeScript, usesEsm } from '../jsCommon';
import { frameworkImport, renderJsFile, strictAssert } from '../jsFile';
import type { FrameworkRenderer } from '../types';

/** Whether the project's mocha setup compiles TypeScript with ts-node (agents/crawler/typecheck.ts says so). */
function usesTsNode(p: Parameters<FrameworkRenderer['runCommand']>[0]): boolean {
  return /ts-node/.test(p.test_setup.typecheck?.evidence ?? '');
}

/** mocha: describe/it globals with node's strict assert (../jsFile.ts strictAssert); TypeScript runs through tsx's loader, or the project's ts-node. */
export const mocha: FrameworkRenderer = {
  id: 'mocha',
  ...JS_BODY_TEXT,
  detect: (p) => declared(p, 'mocha'),
  body: (c, plan) => jsBody(c, ASSERT, plan, plan.bindings),
  render: (plan) =>
    renderJsFile(plan, {
      testFn: 'it',
      header: (esm, ts) => [strictAssert(esm), ...(ts ? [frameworkImport(['describe', 'it'], 'mocha', true)] : [])],
    }),
  // A project whose mocha config loads ts-node keeps it (it may type-check); tsx would stand in for it otherwise.
  runCommand: (p, paths) => `npx mocha${isTypeScript(p) && !usesTsNode(p) ? ' --node-option import=tsx' : ''} ${quote(paths)}`,
  devDependencies: (p) => [...(declared(p, 'mocha') ? [] : ['mocha']), ...(isTypeScript(p) ? ['tsx', '@types/mocha'] : [])],
  extension: defaultExtension,
  esm: usesEsm,
};
