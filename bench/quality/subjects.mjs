// The packages bench/quality.mjs measures, in three sets:
//
// - `reported` (the default, below): published packages nobody on this project has tuned on, chosen
//   by the lead on 2026-11-29 at 17:17 UTC, before AMTP was run on any of them, for the closing
//   measurement of issue 23 (the mutation median); the list and its framework ranges are in
//   /work/notes/fresh-set-3.md.
//   DO NOT LOOK AT THIS SET WHILE TUNING: do not run AMTP on these packages, read their written
//   tests or their output while changing the engine. Use `--set tuning` for that. Once the engine is
//   changed because of what this set showed, it is seen: move it to subjects-seen.mjs, choose a new
//   one, and write the date here.
//   The set of 2026-11-28 17:41 moved to subjects-seen.mjs (FOURTH) on 2026-11-29: the engine was
//   changed because two of its packages scored low under StrykerJS. The set of 2026-11-29 16:27
//   (FIFTH) followed at 17:17: its first run found failures that were fixed.
//   The set of 2026-11-25 01:01 (with its 01:32 and 03:25 replacements) moved to subjects-seen.mjs:
//   the engine was changed while its figures were read, so it is tuned on.
// - `tuning` (subjects-tuning.mjs): the packages developers look at freely, one or two per kind.
// - `seen` (subjects-seen.mjs): the earlier reported sets (2026-11-23 11:05 and 11:10, 2026-11-25 01:01),
//   looked at since.
//
// How the set was chosen (the rule of 2026-11-25, kept by the lead on 2026-11-28): not in the
// tuning, seen, reported or TAINTED sets, not under test/fixtures/packages, none of the packages named
// as tuned on (semver — the npm package; Debian's python3-semver is in this set —, ms, bytes, slugify, ramda, camelcase, pretty-bytes,
// escape-string-regexp, qs, change-case, filesize, voca, toolz…), and none of the kinds issue 22
// describes by example (a stream combinator, a directory walker, a numeric or a geometry class
// library), which may have been looked at while writing it. Preferred: the package's own tests or a
// declared framework, 1–60 modules, no native addon, no network at import. Each package is fetched
// at bench time (npm pack, or apt-get download for Debian's pure-Python packages; PyPI is not
// reachable) and run with ONE framework: its own when AMTP writes for it (at the range its
// devDependencies declare), else mocha (tape, nodeunit and uvu are not frameworks AMTP writes for;
// co's mocha ^2.0.0 is too old, so AMTP's mocha).

/** @typedef {'cjs' | 'esm' | 'dist-only' | 'ts-typed' | 'ts-source' | 'classes' | 'callbacks' | 'promises' | 'streams' | 'python'} Kind */

/**
 * @typedef {object} Subject
 * @property {string} name          what the table shows
 * @property {'npm' | 'deb' | 'vendored' | 'fixture'} from
 * @property {string} spec          npm `name@version`, Debian `python3-x`, or a fixture folder
 * @property {string[]} frameworks  the framework(s) it runs with
 * @property {string} [frameworkRange]  the version range to install (the package's own devDependency)
 * @property {Kind[]} [kinds]
 * @property {string} [why]         why it is in the set, and where its examples are
 * @property {boolean} [about50]    the package of about 50 modules (issues 15 and 25)
 * @property {string[][]} [copies]  groups of path prefixes that hold the same build twice (no longer read: product.mjs finds copies by the rule AMTP counts with, server/src/coverage/copies.ts)
 */

export { SEEN } from './subjects-seen.mjs';
export { TUNING } from './subjects-tuning.mjs';

import { deb, npm } from './subjectHelpers.mjs';

/** Chosen 2026-11-29 17:17 UTC by the lead (/work/notes/fresh-set-3.md). @type {Subject[]} */
export const REPORTED = [
  npm(
    'minimist@1.2.8',
    'mocha',
    undefined,
    ['cjs'],
    "CommonJS argument parser (strings, booleans, aliases, defaults, --, negation); own runner tape, so mocha at AMTP's version",
  ),
  npm(
    'tiny-emitter@2.1.0',
    'mocha',
    undefined,
    ['cjs', 'classes', 'callbacks'],
    "CommonJS event emitter (on/once/emit/off on a prototype); own runner tape, so mocha at AMTP's version",
  ),
  npm(
    'fast-json-stable-stringify@2.1.0',
    'mocha',
    undefined,
    ['cjs'],
    "CommonJS deterministic JSON.stringify with a key comparator and cycles option; own runner tape, so mocha at AMTP's version",
  ),
  npm(
    'escape-html@1.0.3',
    'mocha',
    undefined,
    ['cjs'],
    "CommonJS HTML escaping of a string; no test framework declared, so mocha at AMTP's version",
  ),
  npm(
    'retry@0.13.1',
    'mocha',
    undefined,
    ['cjs', 'classes', 'callbacks'],
    "CommonJS RetryOperation class with timeouts and exponential back-off, callbacks; own runner tape, so mocha at AMTP's version",
  ),
  npm(
    'url-parse@1.5.10',
    'mocha',
    '^9.0.3',
    ['cjs', 'classes'],
    'CommonJS URL parser class (parse, set, toString) with querystringify and requires-port; test script: mocha',
  ),
  npm(
    'cookie-signature@1.2.1',
    'mocha',
    undefined,
    ['cjs'],
    'CommonJS HMAC sign/unsign of cookie values; devDependency mocha "*", so mocha at AMTP\'s version',
  ),
  npm(
    'object-hash@3.0.0',
    'mocha',
    '^6.2.0',
    ['cjs'],
    'CommonJS hash of any value (objects, arrays, dates, functions) with algorithm and encoding options; test script: mocha',
  ),
];

/**
 * Chosen with the 2026-11-25 set (now THIRD in subjects-seen.mjs) at 01:01 but TAINTED: engineers picked the same packages (p-queue 6, yallist 4,
 * fast-equals 5.0.1; Debian sortedcontainers, cachetools, parse) for tuning between 00:55 and 01:10 (their
 * names are in the team's tuning list). Kept runnable, never reported. @type {Subject[]}
 */
export const TAINTED = [
  npm(
    'p-queue@8.1.0',
    'ava',
    '^5.3.1',
    ['esm', 'dist-only', 'classes', 'promises', 'ts-typed'],
    'ESM-only class PQueue (add/addAll/onIdle/onEmpty, events through eventemitter3, timeouts through p-timeout); only dist/ (5 modules built from TypeScript) ships; test script: xo && ava',
  ),
  npm(
    'yallist@5.0.0',
    'node-tap',
    '^18.7.2',
    ['esm', 'cjs', 'dist-only', 'classes', 'ts-typed'],
    'class Yallist (doubly linked list: push/shift/map/reduce/splice/reverse) built from TypeScript by tshy: dist/commonjs and dist/esm only; test script: tap',
    { copies: [['dist/commonjs/', 'dist/esm/']] },
  ),
  // TypeScript source, dist-only bundles
  npm(
    'fast-equals@5.0.1',
    'jest',
    '^29.5.0',
    ['esm', 'cjs', 'ts-source'],
    'TypeScript source shipped under src/ (5 modules) beside dist/cjs, dist/esm, dist/umd; deep/shallow/circular/strict equality with many branches; test script: jest (ts-jest)',
  ),
  deb(
    'python3-sortedcontainers',
    '2.4.0',
    ['python', 'classes'],
    'SortedList, SortedKeyList, SortedDict, SortedSet classes (4 modules) with doctests in every method docstring',
  ),
  deb(
    'python3-cachetools',
    '5.2.0',
    ['python', 'classes'],
    'cache classes (LRUCache, TTLCache, LFUCache…) and the cached/cachedmethod decorators; 3 modules, few doctests: sequence territory',
  ),
  deb(
    'python3-parse',
    '1.19.0',
    ['python', 'classes'],
    'parse()/search()/findall() (the reverse of format()) with Parser/Result classes; one module with doctest examples in its module docstring',
  ),
];
