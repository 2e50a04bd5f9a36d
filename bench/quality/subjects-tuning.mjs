// `tuning` (`--set tuning`): the packages the team develops against and may look at freely: the
// tarballs vendored under test/fixtures/packages/, two fixtures, and (added 2026-11-25 for issues 22
// and 23) one or two published packages of each kind the reported set has: classes, callbacks,
// promises, TypeScript source, and a Python class library. Figures on these say little about a
// newcomer's package, because the engine is shaped on them: never quote them as results.

const JS_FRAMEWORKS = ['jest', 'vitest', 'mocha', 'node-test', 'ava', 'node-tap'];
const npm = (spec, framework, kinds, why, frameworkRange) => ({
  name: spec,
  from: 'npm',
  spec,
  frameworks: [framework],
  ...(frameworkRange ? { frameworkRange } : {}),
  kinds,
  why,
});

/** @type {import('./subjects.mjs').Subject[]} */
export const TUNING = [
  { name: 'ms@2.1.3', from: 'vendored', spec: 'ms@2.1.3', frameworks: JS_FRAMEWORKS },
  { name: 'bytes@3.1.2', from: 'vendored', spec: 'bytes@3.1.2', frameworks: JS_FRAMEWORKS },
  { name: 'slugify@1.6.6', from: 'vendored', spec: 'slugify@1.6.6', frameworks: JS_FRAMEWORKS },
  { name: 'fixture ts-esm-units', from: 'fixture', spec: 'test/fixtures/ts-esm-units', frameworks: ['vitest', 'jest'] },
  { name: 'fixture py-textkit', from: 'fixture', spec: 'test/fixtures/py-textkit', frameworks: ['pytest'] },
  npm(
    'eventemitter3@5.0.1',
    'mocha',
    ['cjs', 'esm', 'classes', 'callbacks'],
    'class EventEmitter with listener callbacks (on/once/emit/off), CommonJS index.js + index.mjs wrapper and a dist/ UMD; test script: mocha',
    '^10.2.0',
  ),
  npm(
    'yocto-queue@1.1.1',
    'ava',
    ['esm', 'classes'],
    'ESM-only class Queue (enqueue/dequeue/size/iterator), one module; test script: xo && ava && tsd',
    '^6.1.3',
  ),
  npm(
    'run-parallel@1.2.0',
    'mocha',
    ['cjs', 'callbacks'],
    'CommonJS, one function taking Node-style `(err, results)` callbacks (tasks and the final callback); own runner tape, so mocha',
  ),
  npm(
    'concat-stream@2.0.0',
    'mocha',
    ['cjs', 'callbacks', 'streams'],
    'CommonJS writable stream that calls back with the whole body; own runner tape, so mocha',
  ),
  npm(
    'p-map@7.0.3',
    'ava',
    ['esm', 'promises'],
    'ESM-only promise mapper with concurrency, stop-on-error and AggregateError; test script: xo && ava && tsd',
    '^5.3.1',
  ),
  npm(
    'immer@10.1.1',
    'jest',
    ['ts-source', 'dist-only'],
    'TypeScript source shipped under src/ (15 modules: proxies, patches, Immer class) beside dist/ bundles that main/exports use; own runner jest',
  ),
  {
    name: 'python3-bidict (0.22.1)',
    from: 'deb',
    spec: 'python3-bidict',
    frameworks: ['pytest'],
    kinds: ['python', 'classes'],
    why: 'Python class library (bidict, frozenbidict, OrderedBidict) with type hints and doctests in the docs; Debian package, pytest from the system',
  },
];
