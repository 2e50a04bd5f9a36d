import { quote } from 'shell-quote';
import { EXPECT, jsBody } from '../jsBody';
import { JS_BODY_TEXT } from '../jsBodyText';
import { declared, defaultExtension, isTypeScript } from '../jsCommon';
import { frameworkImport, renderJsFile } from '../jsFile';
import type { FrameworkRenderer } from '../types';

/** vitest: explicit imports from 'vitest' (globals are off by default); vite transforms TS and ESM itself. */
export const vitest: FrameworkRenderer = {
  id: 'vitest',
  ...JS_BODY_TEXT,
  detect: (p) => declared(p, 'vitest'),
  body: (c, plan) => jsBody(c, EXPECT, plan, plan.bindings),
  render: (plan) => renderJsFile(plan, { testFn: 'it', header: () => [frameworkImport(['describe', 'it', 'expect'], 'vitest', true)] }),
  runCommand: (_p, paths) => `npx vitest run ${quote(paths)}`,
  devDependencies: (p) => (declared(p, 'vitest') ? [] : ['vitest']),
  // vite reads import syntax in any file, so a CommonJS project's tests can still use `import`.
  extension: (p) => (isTypeScript(p) ? '.ts' : defaultExtension(p) === '.mjs' ? '.mjs' : '.js'),
  esm: () => true,
};
