// The mutant driver (server/src/mutation/js/driver.ts): a test file rewritten so one runner process
// runs its tests against many mutants. Which files it can take, and that what it writes is valid code
// (the real runs are in test/integration/mutationRealRuns.test.ts).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { driverFile, labelOf, MUTANT_LABEL } from '../../server/src/mutation/js/driver';
import { instrumentJs } from '../../server/src/mutation/js/instrument';

const rounds = [
  { mutant: null, tests: ['tc_000000000001'] },
  { mutant: '7', tests: ['tc_000000000001'], label: labelOf('7'), hitLimit: 10_000, timeoutMs: 5000 },
];

function checks(text: string, ext: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'amtp-driver-'));
  try {
    const file = join(dir, `driver${ext}`);
    writeFileSync(file, text);
    const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stderr}\n${text}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('mutant driver', () => {
  it('keeps a CommonJS file requires at the top and calls its tests once per round; its rounds may reload modules', () => {
    const src = [
      "const assert = require('node:assert');",
      "const { f } = require('../src/f.js');",
      "describe('f', () => {",
      '  beforeEach(() => {});',
      "  it('tc_000000000001: f works', () => assert.equal(f(), 1));",
      '});',
    ].join('\n');
    const d = driverFile('test/f.test.js', src, 'mocha', {
      rounds: [...rounds, { ...rounds[1], mutant: '8', label: labelOf('8'), fresh: true }],
      root: '/sandbox',
    });
    assert.ok('text' in d);
    assert.equal(d.fresh, true);
    assert.match(d.text, /^const assert = require\('node:assert'\);\nconst \{ f \} = require\('\.\.\/src\/f\.js'\);/);
    assert.match(d.text, /function __amtpBody\(it, beforeEach\) \{/);
    assert.match(d.text, /function __amtpFreshBody\(__amtpW\) \{/);
    checks(d.text, '.cjs');
    assert.equal(MUTANT_LABEL.exec('f [amtp-mutant 12] tc_000000000001: f works')?.[1], '12');
  });

  it('takes an ES module file (imports stay where they are) but never reloads its modules', () => {
    const src = [
      "import { describe, it, expect } from 'vitest';",
      "import f from '../src/f.js';",
      "it('tc_000000000001: f', () => expect(f()).toBe(1));",
    ].join('\n');
    const d = driverFile('test/f.test.mjs', src, 'vitest', { rounds });
    assert.ok('text' in d && d.fresh === false);
    assert.match(d.text, /import \{ describe as __amtpDescribe \} from 'vitest';/);
    checks(d.text, '.mjs');
    assert.deepEqual(driverFile('test/f.test.mjs', src, 'vitest', { rounds: [{ ...rounds[1], fresh: true }] }), {
      cannot: 'a round loads its modules anew, which an ES module cannot',
    });
  });

  it('runs ava tests one after another, the mutant in their names', () => {
    const src = ["const test = require('ava');", "test('tc_000000000001: f', (t) => t.pass());"].join('\n');
    const d = driverFile('test/f.test.js', src, 'ava', { rounds });
    assert.ok('text' in d);
    assert.match(d.text, /"serial":true/);
    assert.match(d.text, /"prefix":"\[amtp-mutant 7\] "/);
    assert.match(d.text, /const __amtpDescribe = undefined;/);
    checks(d.text, '.cjs');
  });

  it('does not shadow a name the file declares itself', () => {
    const src = [
      "const { test: t } = require('node:test');",
      'const test = 1;',
      "t('tc_000000000001: x', () => {});",
      "it('tc_000000000001: y', () => {});",
    ].join('\n');
    const d = driverFile('test/x.test.js', src, 'node-test', { rounds });
    assert.ok('text' in d);
    assert.match(d.text, /function __amtpBody\(it\) \{/);
    checks(d.text, '.cjs');
  });

  it('says why it cannot take a file: exports, a top-level await, no registrar it can wrap', () => {
    assert.deepEqual(driverFile('a.test.js', "export const x = 1;\nit('tc_000000000001', () => {});", 'mocha', { rounds }), {
      cannot: 'it exports something',
    });
    assert.deepEqual(driverFile('a.test.mjs', "import t from 'x';\nawait t();\nit('tc_000000000001', () => {});", 'mocha', { rounds }), {
      cannot: 'it awaits at its top level',
    });
    assert.deepEqual(
      driverFile('a.test.js', "const t = require('tap');\nt.test('tc_000000000001', async () => {});", 'node-tap', { rounds }),
      {
        cannot: 'it registers no test through it(), test() or specify() at its top level',
      },
    );
  });

  it('logs each test that ends, with its mutant and outcome, so a process killed later keeps what finished (real mocha)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-driver-finished-'));
    try {
      const src = [
        "const assert = require('node:assert');",
        "it('tc_000000000001: passes', () => assert.equal(1, 1));",
        "it('tc_000000000002: fails', () => assert.equal(1, 2));",
        "it('tc_000000000003: fails through done', (done) => done(new Error('no')));",
      ].join('\n');
      const tests = ['tc_000000000001', 'tc_000000000002', 'tc_000000000003'];
      const d = driverFile('f.test.js', src, 'mocha', {
        rounds: [{ mutant: '7', tests, label: labelOf('7'), hitLimit: 10_000, timeoutMs: 5000 }],
        finished: join(dir, 'finished'),
      });
      assert.ok('text' in d);
      writeFileSync(join(dir, 'f.test.js'), d.text);
      const mocha = resolve(__dirname, '../../node_modules/mocha/bin/mocha.js');
      const r = spawnSync(process.execPath, [mocha, join(dir, 'f.test.js')], { cwd: dir, encoding: 'utf8' });
      assert.equal(r.status, 2, r.stdout + r.stderr);
      const logs = readdirSync(dir).filter((f) => f.startsWith('finished-'));
      assert.equal(logs.length, 1);
      assert.deepEqual(readFileSync(join(dir, logs[0]), 'utf8').trim().split('\n'), [
        '7\ttc_000000000001\tpassed',
        '7\ttc_000000000002\tfailed',
        '7\ttc_000000000003\tfailed',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a static mutant that loops while its module loads hits the limit in a fresh round: its test fails, the next round runs (real mocha, real instrumenter)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-driver-fresh-'));
    try {
      // Counted at load time: `n++` for `n--` never ends without the hit limit.
      const source = 'let n = 3;\nwhile (n > 0) n--;\nmodule.exports = { n };\n';
      const ins = await instrumentJs(new Map([['lib/m.js', source]]));
      const loop = ins.mutants.find((m) => m.replacement === 'n++');
      assert.ok(loop, JSON.stringify(ins.mutants.map((m) => m.replacement)));
      mkdirSync(join(dir, 'lib'));
      writeFileSync(join(dir, 'lib/m.js'), ins.files.get('lib/m.js')!);
      const src = [
        "const assert = require('node:assert');",
        "const { n } = require('../lib/m.js');",
        "it('tc_000000000001: n is 0', () => assert.equal(n, 0));",
      ].join('\n');
      const tests = ['tc_000000000001'];
      const d = driverFile('test/m.test.js', src, 'mocha', {
        rounds: [
          { mutant: loop.id, tests, label: labelOf(loop.id), hitLimit: 10_000, timeoutMs: 5000, fresh: true },
          { mutant: '999', tests, label: labelOf('999'), hitLimit: 10_000, timeoutMs: 5000 },
        ],
        finished: join(dir, 'finished'),
        root: dir,
      });
      assert.ok('text' in d);
      mkdirSync(join(dir, 'test'));
      writeFileSync(join(dir, 'test/m.test.js'), d.text);
      const mocha = resolve(__dirname, '../../node_modules/mocha/bin/mocha.js');
      const r = spawnSync(process.execPath, [mocha, 'test/m.test.js'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /Hit count limit reached/);
      assert.match(r.stdout, /1 passing/, 'the round after it runs');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
