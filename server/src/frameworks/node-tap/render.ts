import { quote } from 'shell-quote';
import type * as TS from 'typescript';
import { jsBody, type Dialect } from '../jsBody';
import { JS_BODY_TEXT } from '../jsBodyText';
import { declared, defaultExtension, usesEsm } from '../jsCommon';
import { frameworkImport, renderJsFile } from '../jsFile';
import { access, call, statement } from '../jsNodes';
import type { FrameworkRenderer } from '../types';

const t = (method: string, ...args: TS.Expression[]) => statement(call(access('t', method), ...args));

/** node-tap's assertions on the subtest's `t`: t.equal is strict since tap 18; t.strictSame like deepStrictEqual. */
const TAP: Dialect = {
  is: (a, e) => t('equal', a, e),
  deep: (a, e) => t('strictSame', a, e),
  nan: (a) => t('ok', call(access('Number', 'isNaN'), a)),
  ok: (c) => t('ok', c),
};

/**
 * node-tap (the `tap` package): `import { test } from 'tap'`, flat async `test('id: title', async (t) => …)`.
 * Async, because tap ends a subtest when its promise settles (a sync one without t.end() is "unfinished").
 */
export const nodeTap: FrameworkRenderer = {
  id: 'node-tap',
  ...JS_BODY_TEXT,
  detect: (p) => declared(p, 'node-tap'),
  body: (c, plan) => jsBody(c, TAP, plan, plan.bindings),
  render: (plan) =>
    renderJsFile(plan, { testFn: 'test', param: 't', async: true, flat: true, header: (esm) => [frameworkImport(['test'], 'tap', esm)] }),
  runCommand: (_p, paths) => `npx tap --disable-coverage ${quote(paths)}`,
  devDependencies: (p) => (declared(p, 'node-tap') ? [] : ['tap']),
  extension: defaultExtension,
  esm: usesEsm,
};
