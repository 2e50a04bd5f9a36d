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
    // v8-to-istanbul counts one statement per line: 13 in lib.js, 3 in untouched.js (never loaded).
    assert.equal([...tested.unitKeys].filter((k) => k.includes(':s@')).length, 16);
    // The test runs clamp's "above" arm: not `return n` (7) nor neverCalled (9-12).
    assert.deepEqual(lines(tested, 'lib.js'), [1, 2, 3, 4, 5, 6, 8, 13]);
    assert.deepEqual(lines(tested, 'untouched.js'), []);
    assert.equal(tested.statements, 50);
    assert.equal(tested.branches, 50);
    // Loading alone runs the module body only.
    assert.deepEqual(lines(loaded, 'lib.js'), [1, 2, 13]);
    assert.equal(loaded.statements, 18.8);
    // 13 statements left by loading, 5 of them (3, 4, 5, 6, 8) run by the test.
    assert.deepEqual(beyondImport(tested.units, loaded.units, tested.unitKeys), { percent: 38.5, byTests: 5, leftByLoading: 13 });
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
// covers. Cut at its functions (server/src/coverage/lineSegments.ts), it has four pieces: the code
// before `pad` (0), `pad` (13), `shout` (81) and the code after them (134).
const MINIFIED =
  "'use strict';function pad(s,n){var o=String(s);while(o.length<n)o=' '+o;return o}function shout(s){return String(s).toUpperCase()+'!'}const VERSION='1';module.exports={pad:pad,shout:shout,VERSION:VERSION};\n";

describe('coverage of minified code: statements cut at function boundaries, for node (v8) and jest (v8)', function () {
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
      assert.deepEqual(pieces(tested.unitKeys), ['min.js:s@1:0', 'min.js:s@1:13', 'min.js:s@1:134', 'min.js:s@1:81']);
      assert.deepEqual(pieces(tested.units), ['min.js:s@1:0', 'min.js:s@1:134', 'min.js:s@1:81']);
      assert.deepEqual(pieces(loaded.units), ['min.js:s@1:0', 'min.js:s@1:134']);
      assert.equal(tested.statements, 75);
      assert.deepEqual(beyondImport(tested.units!, loaded.units!, tested.unitKeys!), { percent: 50, byTests: 1, leftByLoading: 2 });
    });
  }
});
