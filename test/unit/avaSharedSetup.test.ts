import { strict as assert } from 'node:assert';
import { avaSharedSetup } from '../../server/src/frameworks/ava/sharedSetup';
import { runTests } from '../../server/src/frameworks/runner';
import { REPO, removeWorkspace, runnerWorkspace } from '../helpers/workspaces';

const id = (title: string) => `tc_${title.replace(/\W/g, '').slice(0, 12).padEnd(12, '0')}`;
/** A test as AMTP's ava renderer writes it: `test('…', t => { // tc_…`. */
const test = (title: string, first: string, rest = '  t.pass();', call = 'test', param = 't') =>
  `${call}('${title}', ${param} => { // ${id(title)}\n  ${first}\n${rest}\n});\n`;
const HEAD = "const test = require('ava');\nconst lib = require('../lib.js');";
const file = (tests: string[], head = HEAD) => `${head}\n\n${tests.join('\n')}`;
const stack = (t: string, call = 'test') => test(t, 'const s = new lib.Stack();', `  t.is(s.push('${t}'), 1);`, call);
const stacks = (titles = ['a', 'b', 'c']) => titles.map((t) => stack(t));

describe('ava: shared setup on the test context (frameworks/ava/sharedSetup.ts)', () => {
  it('every test of the file starts with the same value: test.beforeEach sets it on t.context, each test reads it there', () => {
    const out = avaSharedSetup('test/lib.test.js', file(stacks()));
    assert.equal(
      out,
      `${HEAD}

test.beforeEach((t) => {
  t.context.s = new lib.Stack();
});

test('a', t => { // tc_a00000000000
  const { s } = t.context;
  t.is(s.push('a'), 1);
});

test('b', t => { // tc_b00000000000
  const { s } = t.context;
  t.is(s.push('b'), 1);
});

test('c', t => { // tc_c00000000000
  const { s } = t.context;
  t.is(s.push('c'), 1);
});
`,
    );
  });

  it("uses the file's own name for ava and each test's own parameter; ESM import too", () => {
    const tests = ['a', 'b', 'c'].map((t, i) => test(t, 'const s = new lib.Stack();', '  ok(s);', 'check', i ? 't' : 'tt'));
    const out = avaSharedSetup('t.test.mjs', file(tests, "import check from 'ava';\nimport * as lib from '../lib.js';"))!;
    assert.match(out, /\ncheck\.beforeEach\(\(t\) => \{\n {2}t\.context\.s = new lib\.Stack\(\);\n\}\);\n/);
    assert.match(out, /'a', tt => \{ \/\/ tc_a0+\n {2}const \{ s \} = tt\.context;\n/);
    assert.equal(out.match(/const \{ s \} = t\.context;/g)!.length, 2);
  });

  it("changes only a file of this run's own tests", () => {
    const src = file(stacks());
    assert.match(avaSharedSetup('t.test.js', src, new Set(['a', 'b', 'c'].map(id)))!, /test\.beforeEach/);
    assert.equal(avaSharedSetup('t.test.js', src, new Set(['b', 'c'].map(id))), undefined);
  });

  it('awaits an awaited value in an async hook', () => {
    const tests = ['a', 'b', 'c'].map((t) => test(t, 'const conn = await lib.open();', '  t.truthy(conn);', 'test', 'async t'));
    // An async test's parameter is still `t`: the arrow reads `async t => {`.
    const out = avaSharedSetup('t.test.js', file(tests))!;
    assert.match(out, /\ntest\.beforeEach\(async \(t\) => \{\n {2}t\.context\.conn = await lib\.open\(\);\n\}\);\n/);
    assert.equal(out.match(/\n {2}const \{ conn \} = t\.context;\n/g)!.length, 3);
  });

  it('serial and skipped tests read it too; a todo is passed over', () => {
    // The input is the text of an ava file under test, not a test of this suite: its `c` is skipped in ava.
    const out = avaSharedSetup(
      't.test.js',
      file([stack('a'), stack('b', 'test.serial'), "test.todo('later');\n", stack('c', 'test.skip')]),
    )!;
    assert.equal(out.match(/const \{ s \} = t\.context;/g)!.length, 3);
    assert.match(out, /\ntest\.todo\('later'\);\n/);
    assert.match(out, /^test\.beforeEach/m);
  });

  it('leaves alone: fewer than three, not every test, TypeScript, a failing test, hooks or a context of its own, t in the value', () => {
    const three = stacks();
    assert.equal(avaSharedSetup('t.test.js', file(three.slice(0, 2))), undefined);
    assert.equal(avaSharedSetup('t.test.js', file([...three, test('d', 'const n = 1;')])), undefined);
    assert.equal(avaSharedSetup('t.test.ts', file(three)), undefined);
    assert.equal(
      avaSharedSetup('t.test.js', file([...three, test('d', 'const s = new lib.Stack();', '  t.pass();', 'test.failing')])),
      undefined,
    );
    assert.equal(avaSharedSetup('t.test.js', file(['test.beforeEach(() => {});\n', ...three])), undefined);
    assert.equal(
      avaSharedSetup('t.test.js', file([...three.slice(0, 2), test('c', 'const s = new lib.Stack();', '  t.log(t.context);')])),
      undefined,
    );
    const titled = ['a', 'b', 'c'].map((t) => test(t, 'const s = new lib.Stack(t.title);'));
    assert.equal(avaSharedSetup('t.test.js', file(titled)), undefined);
    const destructured = three.slice(0, 2).concat(test('c', 'const s = new lib.Stack();', '  pass();', 'test', '({ pass })'));
    assert.equal(avaSharedSetup('t.test.js', file(destructured)), undefined);
    assert.equal(avaSharedSetup('t.test.js', file(three, "import { test } from './own.js';")), undefined);
  });

  it('the tidied file passes under the real ava, each test with a fresh value though they run at once', async function () {
    this.timeout(60_000);
    // Each test fills the list, waits so the others run in between, and checks it holds its own item only.
    const tests = ['a', 'b', 'c'].map((t) =>
      test(
        t,
        'const list = lib.makeList();',
        `  list.push('${t}');\n  await new Promise((r) => setTimeout(r, 20));\n  t.deepEqual(list, ['${t}']);`,
        'test',
        'async t',
      ),
    );
    const tidied = avaSharedSetup('test/list.test.js', file(tests))!;
    assert.match(tidied, /test\.beforeEach/);
    const ws = await runnerWorkspace({ 'lib.js': 'exports.makeList = () => [];\n', 'test/list.test.js': tidied }, ['ava']);
    try {
      const run = await runTests('ava', ws, ['test/list.test.js'], { binDir: REPO });
      assert.equal(run.failed, 0, run.output.slice(-3000));
      assert.equal(run.passed, 3, run.output.slice(-3000));
    } finally {
      await removeWorkspace(ws);
    }
  });
});
