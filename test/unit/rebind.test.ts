import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CrawlerOutput, TestCase, TestCases } from '../../server/src/contracts/types';
import { generateCases } from '../../server/src/agents/generator/offline';
import { renameInSnippet } from '../../server/src/frameworks/rename';
import { engineerTests } from '../helpers/offlineEngineer';

const msMap = (): CrawlerOutput => JSON.parse(readFileSync(join(__dirname, '../fixtures/crawler-maps/ms.json'), 'utf8')) as CrawlerOutput;

/** clsx's shape: the module is the function, and also has it as the named export `clsx`. */
function clsxPlan(): TestCases {
  const base = generateCases(msMap(), 'smoke');
  const target = { ...base.cases[0].target, symbol: 'clsx', symbol_kind: 'function' as const, arity: 0 };
  const mk = (id: string, oracle: TestCase['oracle']): TestCase => ({ ...base.cases[0], id, title: id, kind: 'example', target, oracle });
  return {
    ...base,
    cases: [
      mk('tc_00000000000a', {
        kind: 'type',
        language: 'javascript',
        call: 'clsx.clsx',
        expected: "'function'",
        bindings: [{ local: 'clsx', import: 'module' }],
      }),
      mk('tc_00000000000b', {
        kind: 'equals',
        language: 'javascript',
        call: "clsx('foo', true && 'bar', { clsx: 1 }.clsx && 'baz')",
        expected: "'foo bar baz'",
        bindings: [{ local: 'clsx', import: 'named', name: 'clsx' }],
      }),
      mk('tc_00000000000c', {
        kind: 'equals',
        language: 'javascript',
        setup: 'const input = { clsx };',
        call: "typeof input.clsx === 'function' && clsx(['a', 0, 'b'])",
        expected: "'a b'",
        bindings: [{ local: 'clsx', import: 'named', name: 'clsx' }],
      }),
    ],
  };
}

describe('one test file binding one local to two imports', () => {
  it('renames free uses on the syntax tree only: not properties, keys or keyword arguments', () => {
    assert.equal(
      renameInSnippet('clsx({ clsx: 1 }, o.clsx, clsx)', 'clsx', 'c2', 'javascript', 'expression'),
      'c2({ clsx: 1 }, o.clsx, c2)',
    );
    assert.equal(renameInSnippet('const o = { clsx };', 'clsx', 'c2', 'javascript', 'statements'), 'const o = { clsx: c2 };');
    assert.equal(renameInSnippet("'clsx' + clsx`x`", 'clsx', 'c2', 'javascript', 'expression'), "'clsx' + c2`x`");
    // The snippet declares the name itself: which uses mean the import cannot be told.
    assert.equal(renameInSnippet('const clsx = 1;', 'clsx', 'c2', 'javascript', 'statements'), undefined);
    assert.equal(renameInSnippet('f(clsx=1, y=clsx.clsx)', 'clsx', 'c2', 'python', 'expression'), 'f(clsx=1, y=c2.clsx)');
    assert.equal(renameInSnippet('clsx = 2', 'clsx', 'c2', 'python', 'statements'), undefined);
  });

  it('keeps every case: the import most cases use keeps the local, the other gets a distinct one', () => {
    const out = engineerTests(clsxPlan(), 'node-test');
    assert.deepEqual(out.not_written, []);
    const [file] = out.files;
    assert.deepEqual(file.caseIds, ['tc_00000000000a', 'tc_00000000000b', 'tc_00000000000c']);
    assert.match(file.content, /^const clsx_module = require\('\.\.\/index\.js'\);$/m);
    // one require of the module: the named export is read from the module value
    assert.match(file.content, /^const \{ clsx \} = clsx_module;$/m);
    assert.equal(file.content.match(/require\('\.\.\/index\.js'\)/g)?.length, 1);
    assert.match(file.content, /const actual = clsx_module\.clsx;/);
    assert.match(file.content, /clsx\('foo', true && 'bar', \{ clsx: 1 \}\.clsx && 'baz'\)/);
  });

  it("a local the test file reserves (jest's expect) is bound under a distinct name, not dropped", () => {
    const plan = clsxPlan();
    plan.cases = [
      {
        ...plan.cases[1],
        oracle: {
          kind: 'equals',
          language: 'javascript',
          call: "expect('a')",
          expected: "'a'",
          bindings: [{ local: 'expect', import: 'named', name: 'expect' }],
        },
      },
    ];
    const out = engineerTests(plan, 'jest');
    assert.deepEqual(out.not_written, []);
    assert.match(out.files[0].content, /^const \{ expect: expect_named \} = require\('\.\.\/index\.js'\);$/m);
    assert.match(out.files[0].content, /const actual = expect_named\('a'\);\n {4}expect\(actual\)\.toBe\('a'\);/);
  });

  it('the written file runs and passes against a module of that shape', function () {
    this.timeout(60000);
    const dir = mkdtempSync(join(tmpdir(), 'amtp-rebind-'));
    try {
      const out = engineerTests(clsxPlan(), 'node-test');
      writeFileSync(
        join(dir, 'index.js'),
        "function clsx(...a) { return a.flat(Infinity).filter(Boolean).join(' '); }\nmodule.exports = clsx;\nmodule.exports.clsx = clsx;\n",
      );
      for (const f of out.files) {
        mkdirSync(dirname(join(dir, f.path)), { recursive: true });
        writeFileSync(join(dir, f.path), f.content);
      }
      const report = execFileSync(process.execPath, ['--test', out.files[0].path], { cwd: dir, encoding: 'utf8' });
      assert.match(report, /# pass 3/);
      assert.match(report, /# fail 0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
