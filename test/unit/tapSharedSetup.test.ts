import { strict as assert } from 'node:assert';
import { tapSharedSetup } from '../../server/src/frameworks/node-tap/sharedSetup';
import { runTests } from '../../server/src/frameworks/runner';
import { REPO, removeWorkspace, runnerWorkspace } from '../helpers/workspaces';

const id = (title: string) => `tc_${title.replace(/\W/g, '').slice(0, 12).padEnd(12, '0')}`;
/** A test as AMTP's node-tap renderer writes it: `test('…', async (t) => { // tc_…`. */
const test = (title: string, first: string, rest = '  t.pass();', call = "test('") =>
  `${call}${title}', async (t) => { // ${id(title)}\n  ${first}\n${rest}\n});\n`;
const HEAD = "const { test } = require('tap');\nconst lib = require('../lib.js');";
const file = (tests: string[], head = HEAD) => `${head}\n\n${tests.join('\n')}`;
const stacks = (titles = ['a', 'b', 'c']) => titles.map((t) => test(t, 'const s = new lib.Stack();', `  t.equal(s.push('${t}'), 1);`));

describe('node-tap: shared setup on the test context (frameworks/node-tap/sharedSetup.ts)', () => {
  it("every test of the file starts with the same value: beforeEach, bound from the file's tap import, sets it on t.context", () => {
    const out = tapSharedSetup('test/lib.test.js', file(stacks()));
    assert.equal(
      out,
      `const { test, beforeEach } = require('tap');
const lib = require('../lib.js');

beforeEach((t) => {
  t.context.s = new lib.Stack();
});

test('a', async (t) => { // tc_a00000000000
  const { s } = t.context;
  t.equal(s.push('a'), 1);
});

test('b', async (t) => { // tc_b00000000000
  const { s } = t.context;
  t.equal(s.push('b'), 1);
});

test('c', async (t) => { // tc_c00000000000
  const { s } = t.context;
  t.equal(s.push('c'), 1);
});
`,
    );
  });

  it("ESM: beforeEach joins the file's import; a beforeEach it binds already is used as it is", () => {
    const esm = tapSharedSetup('t.test.mjs', file(stacks(), "import { test } from 'tap';\nimport * as lib from '../lib.js';"))!;
    assert.match(esm, /^import \{ test, beforeEach \} from 'tap';\n[^]*\nbeforeEach\(\(t\) => \{\n/);
    const bound = tapSharedSetup(
      't.test.mjs',
      file(stacks(), "import { beforeEach as each, test } from 'tap';\nimport * as lib from '../lib.js';"),
    )!;
    assert.match(
      bound,
      /^import \{ beforeEach as each, test \} from 'tap';\n[^]*\neach\(\(t\) => \{\n {2}t\.context\.s = new lib\.Stack\(\);\n\}\);\n/,
    );
  });

  it("changes only a file of this run's own tests", () => {
    const src = file(stacks());
    assert.match(tapSharedSetup('t.test.js', src, new Set(['a', 'b', 'c'].map(id)))!, /beforeEach/);
    assert.equal(tapSharedSetup('t.test.js', src, new Set(['a', 'b'].map(id))), undefined);
  });

  it('awaits an awaited value in an async hook', () => {
    const out = tapSharedSetup('t.test.js', file(['a', 'b', 'c'].map((t) => test(t, 'const conn = await lib.open();'))))!;
    assert.match(out, /\nbeforeEach\(async \(t\) => \{\n {2}t\.context\.conn = await lib\.open\(\);\n\}\);\n/);
    assert.equal(out.match(/\n {2}const \{ conn \} = t\.context;\n/g)!.length, 3);
  });

  it('leaves alone: fewer than three, not every test, TypeScript, options, nested subtests, hooks of its own, another beforeEach', () => {
    const three = stacks();
    assert.equal(tapSharedSetup('t.test.js', file(three.slice(0, 2))), undefined);
    assert.equal(tapSharedSetup('t.test.js', file([...three, test('d', 'const n = 1;')])), undefined);
    assert.equal(tapSharedSetup('t.test.ts', file(three)), undefined);
    const skipped = test('d', 'const s = new lib.Stack();', '  t.pass();', "test('").replace("'d', ", "'d', { skip: true }, ");
    assert.equal(tapSharedSetup('t.test.js', file([...three, skipped])), undefined);
    const nested = test('d', 'const s = new lib.Stack();', "  await t.test('inner', async (t) => t.ok(s));");
    assert.equal(tapSharedSetup('t.test.js', file([...three, nested])), undefined);
    const withTeardown = "const { test, teardown } = require('tap');\nconst lib = require('../lib.js');\nteardown(() => {});";
    assert.equal(tapSharedSetup('t.test.js', file(three, withTeardown)), undefined);
    assert.equal(tapSharedSetup('t.test.js', file(three, `${HEAD}\nconst beforeEach = () => {};`)), undefined);
    assert.equal(tapSharedSetup('t.test.js', file(three, "const t = require('tap');\nconst test = t.test;")), undefined);
  });

  it('the tidied file passes under the real tap, each test with a fresh value', async function () {
    this.timeout(120_000);
    const tests = ['a', 'b', 'c'].map((t) =>
      test(
        t,
        'const list = lib.makeList();',
        `  list.push('${t}');\n  await new Promise((r) => setTimeout(r, 20));\n  t.strictSame(list, ['${t}']);`,
      ),
    );
    const tidied = tapSharedSetup('test/list.test.js', file(tests))!;
    assert.match(tidied, /beforeEach/);
    const ws = await runnerWorkspace({ 'lib.js': 'exports.makeList = () => [];\n', 'test/list.test.js': tidied }, ['tap']);
    try {
      const run = await runTests('node-tap', ws, ['test/list.test.js'], { binDir: REPO });
      assert.equal(run.failed, 0, run.output.slice(-3000));
      assert.equal(run.passed, 3, run.output.slice(-3000));
    } finally {
      await removeWorkspace(ws);
    }
  });
});
