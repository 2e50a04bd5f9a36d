import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlerOutput, EngineerOutput, TestCase, TestCases } from '../../server/src/contracts/types';
import { validate } from '../../server/src/contracts/validate';
import { generateCases } from '../../server/src/agents/generator/offline';
import { engineerTests } from '../helpers/offlineEngineer';
import { frameworkConventions, resolveFramework } from '../../server/src/frameworks';
import { parseLiteral, toJs, toPython } from '../../server/src/frameworks/literals';

function map(name: string): CrawlerOutput {
  return JSON.parse(readFileSync(join(__dirname, '../fixtures/crawler-maps', `${name}.json`), 'utf8')) as CrawlerOutput;
}

function assertValid(out: EngineerOutput): void {
  const r = validate('engineer-output', out);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.errors));
}

/** A one-case plan around a hand-written oracle, for rendering details. */
function oneCase(oracle: TestCase['oracle'], target: Partial<TestCase['target']> = {}): TestCases {
  const base = generateCases(map('ms'), 'smoke');
  return {
    ...base,
    cases: [
      { ...base.cases[0], id: 'tc_00000000000a', title: 'x', kind: 'example', target: { ...base.cases[0].target, ...target }, oracle },
    ],
  };
}

describe('engineer (offline)', () => {
  it('writes one CommonJS jest file for ms; each test name carries its case id', () => {
    const cases = generateCases(map('ms'), 'standard');
    const out = engineerTests(cases, 'jest');
    assertValid(out);
    assert.equal(out.files.length, 1);
    const [file] = out.files;
    assert.equal(file.path, 'test/ms.amtp.test.js');
    assert.match(file.content, /^const ms = require\('\.\.\/index\.js'\);$/m);
    assert.match(
      file.content,
      /it\('ms\(\\'2 days\\'\) returns 172800000', \(\) => \{ \/\/ tc_[0-9a-f]{12}\n {4}const actual = ms\('2 days'\);\n {4}expect\(actual\)\.toBe\(172800000\);/,
    );
    // Readable names; each test's case id is the comment on its first line, never in its name.
    for (const id of file.caseIds) assert.match(file.content, new RegExp(`^  it\\('[^\\n]*', \\(\\) => \\{ // ${id}$`, 'm'));
    assert.doesNotMatch(file.content, /it\('tc_/);
    assert.equal(out.command, 'npx jest test/ms.amtp.test.js');
    assert.deepEqual(out.dev_dependencies, ['jest']); // the project uses mocha
    // The stated error has no documented triggering input: listed, not guessed.
    const err = cases.cases.find((c) => c.kind === 'error')!;
    assert.match(out.not_written.find((n) => n.caseId === err.id)!.reason, /never guesses/);
    assert.equal(file.caseIds.length + out.not_written.length, cases.cases.length);
  });

  it('auto takes the detected framework (mocha) and needs no new dev dependency', () => {
    const out = engineerTests(generateCases(map('bytes'), 'standard'), 'auto');
    assertValid(out);
    assert.equal(out.framework, 'mocha');
    assert.equal(out.dev_dependencies, undefined);
    // the bare name: esm@3, which some mocha configs load, cannot resolve `node:assert/strict`
    assert.match(out.files[0].content, /^const assert = require\('assert'\)\.strict;$/m);
    assert.match(out.files[0].content, /assert\.strictEqual\(actual, '1 000B'\);/);
    assert.equal(out.pr.branch, 'amtp/tests-bytes-mocha');
    assert.deepEqual(out.pr.labels, ['tests', 'amtp', 'mocha']);
    assert.match(out.pr.body, /npx mocha test\/bytes\.amtp\.test\.js/);
  });

  it('resolves auto: detected framework, else node-test for JS and pytest for Python', () => {
    const p = generateCases(map('ms'), 'smoke').project;
    assert.equal(resolveFramework('auto', { ...p, test_setup: { ...p.test_setup, framework: 'vitest' } }), 'vitest');
    assert.equal(resolveFramework('auto', { ...p, test_setup: { ...p.test_setup, framework: 'none' } }), 'node-test');
    const py = generateCases(map('py-textkit'), 'smoke').project;
    assert.equal(resolveFramework('auto', { ...py, test_setup: { ...py.test_setup, framework: 'none' } }), 'pytest');
    assert.match(frameworkConventions('vitest'), /from 'vitest'/);
  });

  it('vitest files import from vitest, in ESM syntax even for CommonJS code', () => {
    const out = engineerTests(generateCases(map('slugify'), 'standard'), 'vitest');
    assertValid(out);
    const c = out.files[0].content;
    assert.match(c, /^import \{ describe, it, expect \} from 'vitest';$/m);
    assert.match(c, /^import slugify from '\.\.\/slugify\.js';$/m);
    assert.doesNotMatch(c, /require\(|@jest/);
    assert.match(c, /expect\(String\(actual\)\)\.toBe\('some-string'\);/);
  });

  it('ESM TypeScript: .ts files with .js specifiers; jest gets a transpile-only config', () => {
    const cases = generateCases(map('ts-esm-units'), 'standard');
    const jest = engineerTests(cases, 'jest');
    assertValid(jest);
    const tests = jest.files.filter((f) => f.path.endsWith('.test.ts'));
    assert.deepEqual(tests.map((f) => f.path).sort(), ['test/percent.amtp.test.ts', 'test/temperature.amtp.test.ts']);
    assert.match(tests[0].content, /from '@jest\/globals';/);
    assert.match(tests[0].content, /from '\.\.\/src\/(percent|temperature)\.js';/);
    assert.ok(jest.files.some((f) => f.path === 'test/amtp.jest.config.cjs'));
    assert.match(jest.command, /^npx jest --config test\/amtp\.jest\.config\.cjs /);
    const vitest = engineerTests(cases, 'vitest');
    assert.ok(vitest.files.every((f) => f.path.endsWith('.test.ts')));
    assert.match(vitest.files.map((f) => f.content).join('\n'), /let thrown: unknown;/);
  });

  it('pytest: imports from the dotted module, pytest.raises for tracebacks, repr for non-literals', () => {
    const out = engineerTests(generateCases(map('py-textkit'), 'standard'), 'pytest');
    assertValid(out);
    const [f] = out.files;
    assert.equal(f.path, 'tests/test_core_amtp.py');
    assert.match(f.content, /^from textkit\.core import clamp$/m);
    assert.match(
      f.content,
      /with pytest\.raises\(BaseException\) as excinfo:\n {8}clamp\(1, 3, 0\)\n {4}assert type\(excinfo\.value\)\.__name__ == "ValueError"/,
    );
    assert.match(f.content, /^def test_[a-z0-9_]+\(\): {2}# tc_[0-9a-f]{12}$/m);
    assert.doesNotMatch(f.content, /def test_tc_/);
    assert.equal(out.command, 'python3 -m pytest tests/test_core_amtp.py');
  });

  it('a JavaScript framework writes nothing for Python code, and says why', () => {
    const cases = generateCases(map('py-textkit'), 'smoke');
    const out = engineerTests(cases, 'jest');
    assertValid(out);
    assert.equal(out.files.length, 0);
    assert.equal(out.not_written.length, cases.cases.length);
    assert.match(out.not_written[0].reason, /cannot test Python/);
  });

  it('renders documented values carefully: NaN, undefined, null, deep objects; rejects inspect output', () => {
    const render = (expected: string) => {
      const out = engineerTests(
        oneCase({ kind: 'equals', language: 'javascript', call: 'ms(x)', expected, bindings: [{ local: 'ms', import: 'module' }] }),
        'node-test',
      );
      return out.files[0]?.content ?? out.not_written[0].reason;
    };
    assert.match(render('NaN'), /assert\.ok\(Number\.isNaN\(actual\)\);/);
    assert.match(render('undefined'), /assert\.strictEqual\(actual, undefined\);/);
    assert.match(render('null'), /assert\.strictEqual\(actual, null\);/);
    assert.match(render('{ a: [1, \'b\'], "c d": -0.5 }'), /assert\.deepStrictEqual\(actual, \{ 'a': \[1, 'b'\], 'c d': -0\.5 \}\);/);
    assert.match(render('{ a: [Object] }'), /not a literal/);
    assert.equal(render('[Function: ms]'), "oracle.expected does not parse: ',' expected at 1:10");
  });

  it('awaits async targets and checks documented errors by name', () => {
    const out = engineerTests(
      oneCase(
        {
          kind: 'throws',
          language: 'javascript',
          call: "load('')",
          error: 'TypeError',
          bindings: [{ local: 'load', import: 'named', name: 'load' }],
        },
        { async: true },
      ),
      'vitest',
    );
    const c = out.files[0].content;
    assert.match(c, /async \(\) => \{/);
    assert.match(c, /\n {6}await load\(''\);\n/);
    assert.match(c, /\.includes\('TypeError'\)/);
  });

  it('literal parser round-trips JS and Python values', () => {
    assert.equal(toJs(parseLiteral("[1, 'it\\'s', {x: true}]")!), "[1, 'it\\'s', { 'x': true }]");
    assert.equal(toPython(parseLiteral("('a', None, {'k': [1.5]})", 'python')!), '("a", None, {"k": [1.5]})');
    assert.equal(parseLiteral('foo(1)'), undefined);
    assert.equal(parseLiteral('`x${y}`'), undefined);
  });
});
