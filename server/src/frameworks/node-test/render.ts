import { quote } from 'shell-quote';
import { ASSERT, jsBody } from '../jsBody';
import { JS_BODY_TEXT } from '../jsBodyText';
import { defaultExtension, isTypeScript, usesEsm } from '../jsCommon';
import { defaultImport, frameworkImport, renderJsFile } from '../jsFile';
import type { FrameworkRenderer } from '../types';

/** node:test: nothing to install; TypeScript needs a loader on Node 20 (tsx). */
export const nodeTest: FrameworkRenderer = {
  id: 'node-test',
  ...JS_BODY_TEXT,
  detect: (p) => p.test_setup.framework === 'node-test',
  body: (c, plan) => jsBody(c, ASSERT, plan, plan.bindings),
  render: (plan) =>
    renderJsFile(plan, {
      testFn: 'it',
      header: (esm) => [frameworkImport(['describe', 'it'], 'node:test', esm), defaultImport('assert', 'node:assert/strict', esm)],
    }),
  runCommand: (p, paths) => `node${isTypeScript(p) ? ' --import tsx' : ''} --test ${quote(paths)}`,
  devDependencies: (p) => (isTypeScript(p) ? ['tsx'] : []),
  extension: defaultExtension,
  esm: usesEsm,
};
