import { quote } from 'shell-quote';
import type * as TS from 'typescript';
import { jsBody, type Dialect } from '../jsBody';
import { JS_BODY_TEXT } from '../jsBodyText';
import { declared, defaultExtension, usesEsm } from '../jsCommon';
import { defaultImport, renderJsFile } from '../jsFile';
import { access, call, statement } from '../jsNodes';
import type { FrameworkRenderer } from '../types';

const t = (method: string, ...args: TS.Expression[]) => statement(call(access('t', method), ...args));

/** ava's assertions live on the test's `t`: t.is (Object.is), t.deepEqual, t.true. */
const AVA: Dialect = {
  is: (a, e) => t('is', a, e),
  deep: (a, e) => t('deepEqual', a, e),
  nan: (a) => t('true', call(access('Number', 'isNaN'), a)),
  ok: (c) => t('true', c),
};

/** ava: `import test from 'ava'`, flat `test('id: title', (t) => …)`; runs its own worker per file. */
export const ava: FrameworkRenderer = {
  id: 'ava',
  ...JS_BODY_TEXT,
  detect: (p) => declared(p, 'ava'),
  body: (c, plan) => jsBody(c, AVA, plan, plan.bindings),
  render: (plan) => renderJsFile(plan, { testFn: 'test', param: 't', flat: true, header: (esm) => [defaultImport('test', 'ava', esm)] }),
  runCommand: (_p, paths) => `npx ava ${quote(paths)}`,
  devDependencies: (p) => (declared(p, 'ava') ? [] : ['ava']),
  extension: defaultExtension,
  esm: usesEsm,
};
