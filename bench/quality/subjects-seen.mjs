// The packages bench/quality.mjs once reported on and that have since been looked at: `--set seen`.
// They stay runnable so old figures can be reproduced, but they are tuned on now and are not the
// figures to quote. Why each was chosen is kept as it was written then.

/**
 * The first reported set: its first run (2026-11-23, 11:05) found engine bugs (mocha < 10 not found,
 * README examples through a namespace alias or attributed to the wrong module, `// => "x";` results,
 * a default/named binding clash, lost doctest setup, the coverage filter skipped over 60 tests), and
 * those were fixed while looking at its output. From then on it counts as tuned: `--set seen`.
 * @type {import('./subjects.mjs').Subject[]}
 */
const FIRST = [
  {
    name: 'content-type@1.0.5',
    from: 'npm',
    spec: 'content-type@1.0.5',
    frameworks: ['mocha'],
    frameworkRange: '10.2.0',
    kinds: ['cjs'],
    why: 'CommonJS, one index.js of pure functions (parse/format); README shows calls but not their results (characterization territory); test script: mocha',
  },
  {
    name: 'dot-prop@9.0.0',
    from: 'npm',
    spec: 'dot-prop@9.0.0',
    frameworks: ['ava'],
    frameworkRange: '^6.1.3',
    kinds: ['esm', 'ts-typed'],
    why: 'ESM only ("type": "module", exports → index.js), ships index.d.ts; readme examples in the `//=> value` form; test script: xo && ava && tsc',
  },
  {
    name: 'clsx@2.1.1',
    from: 'npm',
    spec: 'clsx@2.1.1',
    frameworks: ['jest'],
    kinds: ['dist-only', 'ts-typed'],
    why: 'main, module and exports point only into dist/ (clsx.js, clsx.mjs, lite.*), ships .d.ts/.d.mts; readme examples `//=> value`; own runner uvu is not one AMTP writes for, so jest (main is CommonJS), at the version AMTP itself is tested with',
  },
  {
    name: 'ufo@1.6.1',
    from: 'npm',
    spec: 'ufo@1.6.1',
    frameworks: ['vitest'],
    frameworkRange: '^3.1.1',
    kinds: ['dist-only', 'ts-typed'],
    why: 'TypeScript-built, exports → dist/index.{cjs,mjs} with dist/index.d.ts; README per-function examples in the `// value` form (no arrow); test script: vitest run',
  },
  {
    name: 'colord@2.9.3',
    from: 'npm',
    spec: 'colord@2.9.3',
    frameworks: ['jest'],
    frameworkRange: '^26.6.3',
    kinds: ['cjs', 'esm', 'ts-typed'],
    why: 'dual CommonJS/ESM built files at the root plus plugins/*, a .d.ts per module (TypeScript source not shipped); README examples `expr; // "value"` with chained calls; test script: jest',
  },
  {
    name: 'd3-array@3.2.4',
    from: 'npm',
    spec: 'd3-array@3.2.4',
    frameworks: ['mocha'],
    frameworkRange: '10',
    kinds: ['esm'],
    why: 'ESM, 61 modules under src/ (one function each), a runtime dependency (internmap); README examples `d3.fn(x); // value` through the `d3` namespace alias; test script: mocha',
  },
  {
    name: 'underscore.string@3.3.6',
    from: 'npm',
    spec: 'underscore.string@3.3.6',
    frameworks: ['mocha'],
    frameworkRange: '^5.2.0',
    kinds: ['cjs'],
    about50: true,
    why: 'CommonJS, one module per function: 57 function modules + 8 helper/ modules at the root (65 with index/exports/meteor glue, plus a dist/ UMD bundle); the README documents about every function as `s.fn(x); // => value` (110 results); two runtime dependencies; test script: mocha --ui=qunit',
  },
  {
    name: 'python3-inflection (0.3.1)',
    from: 'deb',
    spec: 'python3-inflection',
    frameworks: ['pytest'],
    kinds: ['python'],
    why: 'Python, one module of pure string functions, each documented with doctests (`>>> camelize("device_type")`); Debian package, pytest from the system',
  },
  {
    name: 'python3-humanize (4.4.0)',
    from: 'deb',
    spec: 'python3-humanize',
    frameworks: ['pytest'],
    kinds: ['python'],
    why: 'Python package of several modules (number, filesize, time, lists, i18n) with type hints and doctests; time functions depend on the clock, gettext on locale files',
  },
];

/**
 * The second reported set: chosen on 2026-11-23 at 11:10, before AMTP was run on any of them, and the
 * `reported` set of issue 15's measurements until 2026-11-25 01:01, when the set in subjects.mjs
 * replaced it. Its figures were read while issues 15 and 22 were written, so it counts as seen.
 * @type {import('./subjects.mjs').Subject[]}
 */
const SECOND = [
  {
    name: 'statuses@2.0.1',
    from: 'npm',
    spec: 'statuses@2.0.1',
    frameworks: ['mocha'],
    frameworkRange: '8.2.1',
    kinds: ['cjs'],
    why: 'CommonJS, a function with lookup tables (`status(403) // => 403`, `status.message[404]`); test script: mocha 8',
  },
  {
    name: 'cookie@0.6.0',
    from: 'npm',
    spec: 'cookie@0.6.0',
    frameworks: ['mocha'],
    frameworkRange: '10.2.0',
    kinds: ['cjs'],
    why: 'CommonJS parse/serialize with options and documented errors; README shows calls with results in comments; test script: mocha',
  },
  {
    name: 'is-plain-obj@4.1.0',
    from: 'npm',
    spec: 'is-plain-obj@4.1.0',
    frameworks: ['ava'],
    frameworkRange: '^3.15.0',
    kinds: ['esm', 'ts-typed'],
    why: "ESM only, index.d.ts; README examples `isPlainObject({foo: 'bar'}); //=> true`; test script: xo && ava && tsd",
  },
  {
    name: 'decamelize@6.0.0',
    from: 'npm',
    spec: 'decamelize@6.0.0',
    frameworks: ['ava'],
    frameworkRange: '^3.15.0',
    kinds: ['esm', 'ts-typed'],
    why: 'ESM only, index.d.ts; options-heavy README examples `//=> value`; test script: xo && ava && tsd',
  },
  {
    name: 'filesize@10.1.6',
    from: 'npm',
    spec: 'filesize@10.1.6',
    frameworks: ['mocha'],
    frameworkRange: '^10.6.0',
    kinds: ['dist-only', 'ts-typed'],
    why: 'main/exports only into dist/ (filesize.cjs, filesize.esm.js), types/; README examples `filesize(265318, {base: 2}); // "259.1 KiB"`; test script: mocha',
  },
  {
    name: 'destr@2.0.3',
    from: 'npm',
    spec: 'destr@2.0.3',
    frameworks: ['vitest'],
    frameworkRange: '^1.3.0',
    kinds: ['dist-only', 'ts-typed'],
    why: 'TypeScript-built, exports only into dist/ (index.cjs, index.mjs, .d.ts); README examples `destr("...") // value`; test script: vitest',
  },
  {
    name: 'voca@1.4.1',
    from: 'npm',
    spec: 'voca@1.4.1',
    frameworks: ['jest'],
    frameworkRange: '24.9.0',
    kinds: ['cjs', 'esm'],
    about50: true,
    why: "CommonJS modules at the root, one per function (about 80 with internal/; an es/ copy), each with a JSDoc @example `v.camelCase('bird flight'); // => 'birdFlight'`: the closest untuned package found to \"about 50 modules with documented examples\"; test script: jest 24",
  },
  {
    name: 'python3-toolz (0.12.0)',
    from: 'deb',
    spec: 'python3-toolz',
    frameworks: ['pytest'],
    kinds: ['python'],
    why: 'Python package of several modules (itertoolz, functoolz, dicttoolz) whose functions carry doctests; Debian package, pytest from the system',
  },
  {
    name: 'python3-roman (3.3)',
    from: 'deb',
    spec: 'python3-roman',
    frameworks: ['pytest'],
    kinds: ['python'],
    why: 'Python, one module (toRoman/fromRoman) with its own exception classes and few docs: characterization territory',
  },
];

/** Both earlier reported sets, oldest first. @type {import('./subjects.mjs').Subject[]} */
export const SEEN = [...FIRST, ...SECOND];
