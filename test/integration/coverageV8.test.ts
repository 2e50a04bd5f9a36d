// Coverage with nothing installed in the project: Node's own V8 coverage, converted by
// server/src/coverage/v8.ts, beyond-import against a load-only run, and lcov/cobertura out.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import libCoverage from 'istanbul-lib-coverage';
import { beyondImport } from '../../server/src/coverage/beyondImport';
import { LOAD_ONLY_GREP } from '../../server/src/coverage/loadOnly';
import { runTests } from '../../server/src/frameworks/runner';
import { writeReport } from '../../server/src/coverage/reports';
import { unitsOf } from '../../server/src/coverage/units';
import { v8Env, v8ToMap } from '../../server/src/coverage/v8';

const LIB = `'use strict';
const LIMIT = 10;
function clamp(n) {
  if (n > LIMIT) {
    return LIMIT;
  }
  return n;
}
function neverCalled(x) {
  const y = x * 2;
  return y + 1;
}
module.exports = { clamp, neverCalled };
`;
const TEST = `const test = require('node:test');
const assert = require('node:assert');
const { clamp } = require('../lib.js');
test('clamps above the limit', () => { assert.equal(clamp(50), 10); });
`;

describe('coverage/v8: V8 coverage without c8', function () {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-v8cov-'));
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'lib.js'), LIB);
    writeFileSync(join(dir, 'untouched.js'), 'module.exports = function () {\n  return 1;\n};\n');
    writeFileSync(join(dir, 'test', 'lib.test.js'), TEST);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function measure(name: string, extra: string[]) {
    const cov = join(dir, `.v8-${name}`);
    const r = spawnSync(process.execPath, ['--test', ...extra, 'test/lib.test.js'], {
      cwd: dir,
      env: { ...process.env, ...v8Env(cov) },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    return v8ToMap(cov, dir, ['lib.js', 'untouched.js']);
  }

  it('measures statements and branches, counts never-loaded files, and separates coverage beyond import', async () => {
    const tested = unitsOf(await measure('run', []), dir);
    const loaded = unitsOf(await measure('load', ['--test-name-pattern=amtp_load_only_0c1d']), dir);
    const lines = (m: ReturnType<typeof unitsOf>, file: string) =>
      [...m.units]
        .filter((k) => k.startsWith(`${file}:s@`))
        .map((k) => Number(k.split('@')[1].split(':')[0]))
        .sort((a, b) => a - b);
    // Statements as istanbul (nyc) counts them, not v8-to-istanbul's one per line (coverage/statements.ts):
    // lib.js has 7 (lines 2, 4, 5, 7, 10, 11, 13; no directive, comment or brace), untouched.js 2 (never loaded).
    assert.equal([...tested.unitKeys].filter((k) => k.includes(':s@')).length, 9);
    // The test runs clamp's "above" arm: not `return n` (7) nor neverCalled (10, 11).
    assert.deepEqual(lines(tested, 'lib.js'), [2, 4, 5, 13]);
    assert.deepEqual(lines(tested, 'untouched.js'), []);
    assert.equal(tested.statements, 44.4);
    assert.equal(tested.branches, 50);
    // Loading alone runs the module body only.
    assert.deepEqual(lines(loaded, 'lib.js'), [2, 13]);
    assert.equal(loaded.statements, 22.2);
    // 7 statements left by loading, 2 of them (4, 5) run by the test.
    assert.deepEqual(beyondImport(tested.units, loaded.units, tested.unitKeys), { percent: 28.6, byTests: 2, leftByLoading: 7 });
  });

  it('a file no process loaded adds no function unit that a run loading it could never cover', async () => {
    // A test file that loads nothing under test: lib.js and untouched.js count as never loaded.
    writeFileSync(join(dir, 'test', 'other.test.js'), "require('node:test')('loads nothing', () => {});\n");
    const cov = join(dir, '.v8-unloaded');
    const r = spawnSync(process.execPath, ['--test', 'test/other.test.js'], {
      cwd: dir,
      env: { ...process.env, ...v8Env(cov) },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const unloaded = unitsOf(await v8ToMap(cov, dir, ['lib.js', 'untouched.js']), dir);
    const loaded = unitsOf(await measure('loaded', []), dir);
    const fns = (m: ReturnType<typeof unitsOf>) => [...m.unitKeys].filter((k) => k.includes(':f@')).sort();
    assert.deepEqual(fns(unloaded), []);
    // clamp (line 3) and neverCalled (line 9) at their own positions; the module itself is no function unit.
    assert.deepEqual(fns(loaded), ['lib.js:f@3:0', 'lib.js:f@9:0']);
    // The statements still count, all uncovered (as c8 --all).
    assert.equal([...unloaded.unitKeys].filter((k) => k.startsWith('lib.js:s@')).length, 7);
    assert.equal(unloaded.units.size, 0);
  });

  it('writes lcov and cobertura that parse back to the same counts', async () => {
    const map = await measure('report', []);
    const lcov = join(dir, 'out', 'lcov.info');
    writeReport(map, 'lcov', lcov, dir);
    const text = readFileSync(lcov, 'utf8');
    const records = text
      .split('end_of_record')
      .map((r) => r.trim())
      .filter(Boolean);
    assert.deepEqual(
      records.map((r) => /^SF:(.*)$/m.exec(r)?.[1]),
      ['lib.js', 'untouched.js'],
    );
    const summary = libCoverage
      .createCoverageMap(map as unknown as libCoverage.CoverageMapData)
      .fileCoverageFor(join(dir, 'lib.js'))
      .toSummary();
    const lh = Number(/^LH:(\d+)$/m.exec(records[0])?.[1]);
    const lf = Number(/^LF:(\d+)$/m.exec(records[0])?.[1]);
    assert.deepEqual([lh, lf], [summary.lines.covered, summary.lines.total]);
    assert.equal(/^LH:(\d+)$/m.exec(records[1])?.[1], '0');
    const cob = join(dir, 'out', 'cobertura.xml');
    writeReport(map, 'cobertura', cob, dir);
    assert.match(readFileSync(cob, 'utf8'), /<class name="lib.js" filename="lib.js" line-rate="[0-9.]+"/);
  });
});

// A published dist/ file is often minified to one line: one v8-to-istanbul statement that loading
// covers. Read from the syntax tree (server/src/coverage/statements.ts) it has istanbul's 7
// statements: pad's 4 (columns 37, 47, 64, 72), shout's return (99), and the module body's 2 (148, 152).
// jest's istanbul (--coverageProvider=babel) counts the same 7 statements itself, at the same places.
const MINIFIED =
  "'use strict';function pad(s,n){var o=String(s);while(o.length<n)o=' '+o;return o}function shout(s){return String(s).toUpperCase()+'!'}const VERSION='1';module.exports={pad:pad,shout:shout,VERSION:VERSION};\n";

describe('coverage of minified code: statements as istanbul counts them, for node (v8) and jest (istanbul)', function () {
  this.timeout(120_000);
  let dir: string;
  const root = join(__dirname, '..', '..');
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-mincov-'));
    writeFileSync(join(dir, 'min.js'), MINIFIED);
    writeFileSync(join(dir, 'package.json'), '{"name":"mincov","private":true}\n');
    writeFileSync(
      join(dir, 'min.test.js'),
      "const assert = require('node:assert');\nconst { shout } = require('./min.js');\n" +
        "const t = typeof test === 'function' ? test : require('node:test');\nt('shouts', () => { assert.equal(shout('hi'), 'HI!'); });\n",
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const framework of ['node-test', 'jest'] as const) {
    it(`${framework}: the test covers shout's piece, not pad's; loading covers the code around them`, async () => {
      const run = (grep?: string) =>
        runTests(framework, dir, ['min.test.js'], { binDir: root, coverageOf: ['min.js'], ...(grep ? { grep } : {}) });
      const tested = await run();
      const loaded = await run(LOAD_ONLY_GREP);
      assert.equal(tested.passed, 1, tested.output);
      const pieces = (u: Set<string> | undefined) => [...(u ?? [])].filter((k) => k.startsWith('min.js:s@')).sort();
      const at = (...cols: number[]) => cols.map((c) => `min.js:s@1:${c}`).sort();
      assert.deepEqual(pieces(tested.unitKeys), at(37, 47, 64, 72, 99, 148, 152));
      assert.deepEqual(pieces(tested.units), at(99, 148, 152));
      assert.deepEqual(pieces(loaded.units), at(148, 152));
      assert.equal(tested.statements, 42.9);
      assert.deepEqual(beyondImport(tested.units!, loaded.units!, tested.unitKeys!), { percent: 20, byTests: 1, leftByLoading: 5 });
    });
  }
});
