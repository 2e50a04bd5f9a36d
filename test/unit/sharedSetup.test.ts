import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hoistSharedSetup } from '../../server/src/frameworks/sharedSetup';

const test = (
  title: string,
  first: string,
  rest = '    assert.ok(true);',
) => `  it('${title}', () => { // tc_${title.replace(/\W/g, '').slice(0, 12).padEnd(12, '0')}
    ${first}
${rest}
  });
`;
const file = (head: string, tests: string[]) => `${head}\n\ndescribe('lib.js (AMTP)', () => {\n${tests.join('\n')}});\n`;

describe('shared setup moved into beforeEach (frameworks/sharedSetup.ts)', () => {
  it('every test of a block starts with the same value: one beforeEach in the block, mocha/jest globals untouched', () => {
    const src = file(
      "const assert = require('assert');\nconst md5 = require('../lib/md5.js');",
      ['a', 'b', 'c'].map((t) => test(t, 'const md = md5.create();', `    assert.ok(md.update('${t}'));`)),
    );
    const out = hoistSharedSetup('test/md5.test.js', src)!;
    assert.equal(
      out,
      file("const assert = require('assert');\nconst md5 = require('../lib/md5.js');", [
        '  let md;\n  beforeEach(() => {\n    md = md5.create();\n  });\n\n' +
          ['a', 'b', 'c'].map((t) => test(t, '', `    assert.ok(md.update('${t}'));`).replace('\n    \n', '\n')).join('\n'),
      ]),
    );
  });

  it("adds beforeEach where the file imports describe: node:test's require, vitest's import", () => {
    const tests = ['a', 'b', 'c'].map((t) => test(t, 'const s = new lib.Stack();', '    assert.ok(s);'));
    const req = hoistSharedSetup('t.test.js', file("const { describe, it } = require('node:test');", tests))!;
    assert.match(req, /^const \{ describe, beforeEach, it \} = require\('node:test'\);/);
    const esm = hoistSharedSetup('t.test.mjs', file("import { describe, it, expect } from 'vitest';", tests))!;
    assert.match(esm, /^import \{ describe, beforeEach, it, expect \} from 'vitest';/);
    const has = hoistSharedSetup('t.test.mjs', file("import { beforeEach, describe, it } from 'vitest';", tests))!;
    assert.match(has, /^import \{ beforeEach, describe, it \} from 'vitest';/);
  });

  it('most tests share it: those move into a nested block with the hook; the others stay as they were', () => {
    const shared = ['a', 'b', 'c'].map((t) => test(t, 'const s = new lib.Stack();', '    assert.ok(s);'));
    const other = test('d', 'const s = new lib.Stack([1]);', '    assert.equal(s.size, 1);');
    const out = hoistSharedSetup(
      't.test.js',
      file("const { describe, it } = require('node:test');", [shared[0], other, shared[1], shared[2]]),
    )!;
    assert.match(
      out,
      /\n {2}describe\('with s = new lib\.Stack\(\)', \(\) => \{\n {4}let s;\n {4}beforeEach\(\(\) => \{\n {6}s = new lib\.Stack\(\);\n {4}\}\);\n/,
    );
    assert.equal(out.match(/const s = new lib\.Stack\(\);/g), null, 'no test builds it itself');
    assert.ok(out.includes(other), 'the test that builds another value is untouched');
    assert.equal(out.match(/\n {4}it\('/g)!.length, 3);
  });

  it("changes only blocks of this run's own tests: an earlier run's test keeps the text it recorded", () => {
    const src = file(
      '',
      ['a', 'b', 'c'].map((t) => test(t, 'const s = new lib.Stack();')),
    );
    const ids = ['tc_a00000000000', 'tc_b00000000000', 'tc_c00000000000'];
    assert.match(hoistSharedSetup('t.test.js', src, new Set(ids))!, /beforeEach/);
    assert.equal(hoistSharedSetup('t.test.js', src, new Set(ids.slice(1))), undefined);
  });

  it('awaits an awaited value in an async hook', () => {
    const out = hoistSharedSetup(
      't.test.js',
      file(
        '',
        ['a', 'b', 'c'].map((t) => test(t, 'const conn = await lib.open();')),
      ),
    )!;
    assert.match(out, /beforeEach\(async \(\) => \{\n {4}conn = await lib\.open\(\);/);
  });

  it('leaves alone: TypeScript, fewer than three, half a block, describe bound another way, template literals to re-indent', () => {
    const three = ['a', 'b', 'c'].map((t) => test(t, 'const s = new lib.Stack();'));
    assert.equal(hoistSharedSetup('t.test.ts', file('', three)), undefined);
    assert.equal(hoistSharedSetup('t.test.js', file('', three.slice(0, 2))), undefined);
    const others = ['d', 'e', 'f'].map((t) => test(t, 'const n = 1;'));
    assert.equal(hoistSharedSetup('t.test.js', file('', [...three, ...others])), undefined);
    assert.equal(hoistSharedSetup('t.test.js', file("const describe = require('node:test').describe;", three)), undefined);
    const tpl = ['a', 'b', 'c'].map((t) => test(t, 'const s = new lib.Stack();', '    assert.equal(`${s}`, `x\n y`);'));
    assert.equal(hoistSharedSetup('t.test.js', file('', [...tpl, test('g', 'const n = 2;')])), undefined);
  });

  it('the moved file passes under node --test as the original did, each test with a fresh value', function () {
    this.timeout(30_000);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'amtp-shared-setup-'));
    try {
      const tests = ['a', 'b', 'c'].map((t) =>
        test(t, 'const list = [];', `    list.push('${t}');\n    assert.deepEqual(list, ['${t}']);`),
      );
      const src = file("const { describe, it } = require('node:test');\nconst assert = require('node:assert/strict');", tests);
      const out = hoistSharedSetup(path.join(dir, 'x.test.js'), src)!;
      assert.match(out, /beforeEach/);
      writeFileSync(path.join(dir, 'x.test.js'), out);
      const r = spawnSync(process.execPath, ['--test', path.join(dir, 'x.test.js')], { encoding: 'utf8', timeout: 25_000 });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /# pass 3/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
