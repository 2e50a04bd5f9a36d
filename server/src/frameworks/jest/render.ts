import { quote } from 'shell-quote';
import { posix } from 'node:path';
import { EXPECT, jsBody } from '../jsBody';
import { JS_BODY_TEXT } from '../jsBodyText';
import { declared, defaultExtension, isTypeScript, usesEsm } from '../jsCommon';
import { frameworkImport, renderJsFile } from '../jsFile';
import { JEST_CONFIG, jestSupportFiles } from './support';
import type { FrameworkRenderer, Project } from '../types';

/**
 * jest. CommonJS projects get require + globals. ESM projects run under Node's VM modules flag
 * (jest's documented ESM mode). TypeScript projects without a jest config get a config and a
 * transform that uses the project's own `typescript` (transpile only, like ts-jest's
 * isolatedModules), passed with --config so the project's own setup is untouched.
 */
export const jest: FrameworkRenderer = {
  id: 'jest',
  ...JS_BODY_TEXT,
  detect: (p) => declared(p, 'jest'),
  body: (c, plan) => jsBody(c, EXPECT, plan, plan.bindings),
  render: (plan) =>
    renderJsFile(plan, {
      testFn: 'it',
      // @jest/globals ships with jest and gives TypeScript the types without @types/jest.
      header: (esm, ts) => (ts || esm ? [frameworkImport(['describe', 'it', 'expect'], '@jest/globals', true)] : []),
    }),
  supportFiles: (p, paths) => (needsTsSupport(p) && paths.length ? jestSupportFiles(posix.dirname(paths[0])) : []),
  runCommand: (p, paths) => {
    if (needsTsSupport(p)) return `npx jest --config ${posix.join(posix.dirname(paths[0] ?? 'test/x'), JEST_CONFIG)} ${quote(paths)}`;
    const vm = usesEsm(p) && !isTypeScript(p) ? 'NODE_OPTIONS=--experimental-vm-modules ' : '';
    return `${vm}npx jest ${quote(paths)}`;
  },
  devDependencies: (p) => [...(declared(p, 'jest') ? [] : ['jest']), ...(needsTsSupport(p) ? ['typescript'] : [])],
  extension: defaultExtension,
  esm: usesEsm,
};

function needsTsSupport(p: Project): boolean {
  return isTypeScript(p) && !p.test_setup.config_files.some((f) => /(^|\/)(jest\.config\.|babel\.config\.|\.babelrc)/.test(f));
}
