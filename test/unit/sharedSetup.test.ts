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

  it('leaves alone: fewer than three, half a block, describe bound another way, template literals to re-indent', () => {
    const three = ['a', 'b', 'c'].map((t) => test(t, 'const s = new lib.Stack();'));
    assert.equal(hoistSharedSetup('t.test.js', file('', three.slice(0, 2))), undefined);
    const others = ['d', 'e', 'f'].map((t) => test(t, 'const n = 1;'));
    assert.equal(hoistSharedSetup('t.test.js', file('', [...three, ...others])), undefined);
    assert.equal(hoistSharedSetup('t.test.js', file("const describe = require('node:test').describe;", three)), undefined);
    const tpl = ['a', 'b', 'c'].map((t) => test(t, 'const s = new lib.Stack();', '    assert.equal(`${s}`, `x\n y`);'));
    assert.equal(hoistSharedSetup('t.test.js', file('', [...tpl, test('g', 'const n = 2;')])), undefined);
  });

  it('reads nothing only the test function has: this, arguments, its parameters, its own functions', () => {
    const fn = (title: string, params: string, first: string) =>
      `  it('${title}', function (${params}) { // tc_${title.padEnd(12, '0')}\n    ${first}\n    assert.ok(true);\n  });\n`;
    const moved = (tests: string[]) => hoistSharedSetup('t.test.js', file('', tests));
    assert.match(moved(['a', 'b', 'c'].map((t) => fn(t, '', 'const s = new lib.Stack(function () { return this; });')))!, /beforeEach/);
    assert.match(moved(['a', 'b', 'c'].map((t) => fn(t, 'done', 'const s = new lib.Stack(() => 1);')))!, /beforeEach/);
    for (const [params, first] of [
      ['', 'const title = this.test.title;'],
      ['', 'const s = new lib.Stack(() => this.timeout());'],
      ['', 'const args = [...arguments];'],
      ['t', 'const fn = t.mock.fn();'],
      ['{ mock }', 'const fn = mock.fn();'],
      ['done', 'const s = lib.watch(done);'],
    ])
      assert.equal(moved(['a', 'b', 'c'].map((t) => fn(t, params, first))), undefined, first);
    const ownFn = ['a', 'b', 'c'].map((t) =>
      test(t, 'const s = make();', '    assert.ok(s);\n    function make() {\n      return new lib.Stack();\n    }'),
    );
    assert.equal(moved(ownFn), undefined, 'a function the test declares');
  });

  describe('TypeScript: the value typed by a factory whose return type is exactly what the const had', () => {
    // As AMTP renders TypeScript tests (frameworks/jest/render.ts, node-test/render.ts): imports, one describe.
    const JEST = "import { describe, it, expect } from '@jest/globals';\nimport { Stack } from '../src/stack';";
    const NODE = "import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as lib from '../src/lib';";
    const ts = (title: string, first: string, rest: string) =>
      test(title, first, rest).replace(/\(\) => \{ \/\/ tc_/, /await/.test(first) ? 'async () => { // tc_' : '() => { // tc_');

    it('whole block: the factory, the typed let and the hook; beforeEach joins the import', () => {
      const tests = ['a', 'b', 'c'].map((t) => ts(t, 'const stack = new Stack<number>();', `    expect(stack.push(1)).toBe(1);`));
      assert.equal(
        hoistSharedSetup('test/stack.amtp.test.ts', file(JEST, tests)),
        `import { describe, beforeEach, it, expect } from '@jest/globals';
import { Stack } from '../src/stack';

describe('lib.js (AMTP)', () => {
  const newStack = () => new Stack<number>();
  let stack: ReturnType<typeof newStack>;
  beforeEach(() => {
    stack = newStack();
  });

  it('a', () => { // tc_a00000000000
    expect(stack.push(1)).toBe(1);
  });

  it('b', () => { // tc_b00000000000
    expect(stack.push(1)).toBe(1);
  });

  it('c', () => { // tc_c00000000000
    expect(stack.push(1)).toBe(1);
  });
});
`,
      );
    });

    it('most of a block, awaited: a nested group with an async factory, typed by Awaited<…>', () => {
      const tests = ['a', 'b', 'c'].map((t) => ts(t, 'const conn = await lib.open({ name: "db" });', '    assert.ok(conn);'));
      const other = ts('d', 'const n = lib.count();', '    assert.equal(n, 0);');
      assert.equal(
        hoistSharedSetup('test/lib.amtp.test.mts', file(NODE, [tests[0], other, tests[1], tests[2]])),
        `import { describe, beforeEach, it } from 'node:test';
import assert from 'node:assert/strict';
import * as lib from '../src/lib';

describe('lib.js (AMTP)', () => {
  describe('with conn = await lib.open({ name: "db" })', () => {
    const newConn = async () => await lib.open({ name: "db" });
    let conn: Awaited<ReturnType<typeof newConn>>;
    beforeEach(async () => {
      conn = await newConn();
    });

    it('a', async () => { // tc_a00000000000
      assert.ok(conn);
    });

    it('b', async () => { // tc_b00000000000
      assert.ok(conn);
    });

    it('c', async () => { // tc_c00000000000
      assert.ok(conn);
    });
  });

  it('d', () => { // tc_d00000000000
    const n = lib.count();
    assert.equal(n, 0);
  });
});
`,
      );
    });

    it('an object literal is wrapped for the arrow; a name the file uses gets a number', () => {
      const tests = ['a', 'b', 'c'].map((t) => ts(t, 'const opts = { size: 2 } as const;', '    expect(newOpts(opts)).toBe(2);'));
      const out = hoistSharedSetup('t.test.ts', file(JEST, tests))!;
      assert.ok(out.includes('  const newOpts2 = () => ({ size: 2 } as const);\n  let opts: ReturnType<typeof newOpts2>;\n'), out);
    });

    it('leaves a value whose type a return would widen, and an await inside the value', () => {
      for (const first of [
        "const mode = 'strict';",
        'const n = -1;',
        'const on = true;',
        'const text = `a`;',
        'const red = Color.Red;',
        'const limit = MAX;',
        'const flag = process.env.CI ? "ci" : "local";',
        "const key = Symbol('k');",
        "const id = Symbol.for('k');",
        'const body = (await lib.fetch()).body;',
        'const c = new lib.Client(await lib.config());',
      ]) {
        const tests = ['a', 'b', 'c'].map((t) => ts(t, first, '    expect(1).toBe(1);'));
        assert.equal(hoistSharedSetup('t.test.ts', file(JEST, tests)), undefined, first);
        assert.match(hoistSharedSetup('t.test.js', file(JEST, tests))!, /beforeEach/, `JavaScript has no type to keep: ${first}`);
      }
    });
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
