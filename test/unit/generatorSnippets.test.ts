import { strict as assert } from 'node:assert';
import { parseDoctest, withoutUnicodePrefixes } from '../../server/src/agents/generator/doctest';
import { parseJsSnippet } from '../../server/src/agents/generator/jsExamples';
import { caseId } from '../../server/src/agents/generator/caseId';

const calls = (s: string, own = ['lib']) => parseJsSnippet(s, own).examples.map((e) => [e.call, e.outcome, e.expected ?? e.error]);

describe('generator: reading documented snippets', () => {
  it('reads inline, marked and next-line results', () => {
    assert.deepEqual(calls("f(1) // => [1, 'a']\nf(2); // returns undefined\nf(3)\n// output: NaN\ng() //=> null"), [
      ['f(1)', 'value', "[1, 'a']"],
      ['f(2)', 'value', 'undefined'],
      ['f(3)', 'value', 'NaN'],
      ['g()', 'value', 'null'],
    ]);
  });

  it('reads a result written as a statement, without its semicolon', () => {
    assert.deepEqual(calls('capitalize("foo Bar") // => "Foo Bar";\nf(1);\n// => [1, 2];\ng() // => Foo bar;'), [
      ['capitalize("foo Bar")', 'value', '"Foo Bar"'],
      ['f(1)', 'value', '[1, 2]'],
      // not one expression: kept as the printed text it is
      ['g()', 'prints', 'Foo bar;'],
    ]);
  });

  it('does not mistake prose comments for results', () => {
    assert.deepEqual(calls('f(1) // works\n// now the second form\nf(2)\n// see below'), []);
  });

  it('reads on after a line that does not parse: its words are neither setup nor examples, a result shown on it is skipped', () => {
    const r = parseJsSnippet("f(1) //=> 2\nthis is prose\ng(2) // 3\nms('2 days') 172800000 // 4\n...\nh(3) // 5", []);
    assert.deepEqual(
      r.examples.map((e) => [e.call, e.expected, e.setup]),
      [
        ['f(1)', '2', []],
        ['g(2)', '3', []],
        ['h(3)', '5', []],
      ],
    );
    assert.deepEqual(r.skipped, [{ line: 3, reason: 'the statement does not parse as JavaScript/TypeScript' }]);
  });

  it('keeps multi-line calls whole and ignores comments inside them', () => {
    const ex = parseJsSnippet("f({\n  a: 1, // first\n  b: '//x'\n}) // => 2", []).examples;
    assert.equal(ex.length, 1);
    assert.equal(ex[0].call, "f({\n  a: 1,\n  b: '//x'\n})");
  });

  it('handles regex literals with quotes and slashes', () => {
    const call = "s('a.b', {remove: /[*+~.()'\"!:@]/g})";
    assert.deepEqual(calls(`${call} // => 'ab'`), [[call, 'value', "'ab'"]]);
  });

  it('uses console.log output as printed text and declarations as setup', () => {
    const ex = parseJsSnippet("const x = f(2) // => 4\nconsole.log(x) // 4\nconsole.log(f('a')) // 'A'", []).examples;
    assert.deepEqual(
      ex.map((e) => [e.call, e.outcome, e.expected, e.setup.length]),
      [
        ['f(2)', 'value', '4', 0],
        ['x', 'prints', '4', 1],
        // the last call does not read x, so it carries no setup
        ["f('a')", 'prints', 'A', 0],
      ],
    );
  });

  it("replays documented calls that change an object before later calls that read it (tinyqueue's README)", () => {
    const readme = [
      'var queue = new TinyQueue();',
      'queue.push(7);',
      'queue.push(5);',
      'queue.push(10);',
      'var top = queue.pop(); // returns 5',
      'top = queue.peek(); // returns 7',
      'queue.length; // returns 2',
      'queue.pop(); // throws Error',
      'queue.length; // returns 1',
      'other.size(1); // returns 3',
      'other.size(2); // returns 4',
    ].join('\n');
    const ex = parseJsSnippet(readme, []).examples;
    const setup = (call: string, n = 0) => ex.filter((e) => e.call === call)[n]?.setup;
    const pushes = ['var queue = new TinyQueue()', 'queue.push(7)', 'queue.push(5)', 'queue.push(10)'];
    assert.deepEqual(setup('queue.pop()'), pushes);
    assert.deepEqual(setup('top = queue.peek()'), [...pushes, 'var top = queue.pop()']);
    // the pop that returned 5 comes first: without it the queue still holds 3 items
    assert.deepEqual(setup('queue.length'), [...pushes, 'var top = queue.pop()', 'top = queue.peek()']);
    // a documented throw is not replayed, nor a read that calls nothing; nor a call on what no statement
    // declared (an import)
    assert.deepEqual(setup('queue.length', 1), [...pushes, 'var top = queue.pop()', 'top = queue.peek()']);
    assert.ok(!setup('other.size(2)')?.includes('other.size(1)'), String(setup('other.size(2)')));
  });

  it('records own imports as bindings and refuses snippets that import other packages', () => {
    const own = parseJsSnippet("import lib, { a as b } from 'lib'\nb(1) // => 1", ['lib']);
    assert.deepEqual(own.examples[0].imports, [
      { local: 'lib', import: 'default' },
      { local: 'b', import: 'named', name: 'a' },
    ]);
    const foreign = parseJsSnippet("const fs = require('fs')\nf(fs) // => 1", ['lib']);
    assert.equal(foreign.examples.length, 0);
    assert.match(foreign.skipped[0].reason, /imports 'fs'/);
  });

  it('reads documented errors', () => {
    assert.deepEqual(calls('f(-1) // throws RangeError\ng() // TypeError: bad'), [
      ['f(-1)', 'throws', 'RangeError'],
      ['g()', 'throws', 'TypeError'],
    ]);
  });

  it('parses doctests with continuation lines, setup statements and skips ELLIPSIS', () => {
    const r = parseDoctest(
      '>>> x = [3,\n... 1]\n>>> sorted(x)\n[1, 3]\n>>> object()\n<object object at 0x7f>\n>>> list(range(9))\n[0, 1, ...]\n',
    );
    assert.deepEqual(
      r.examples.map((e) => [e.call, e.expected, e.setup]),
      [['sorted(x)', '[1, 3]', ['x = [3,\n1]']]],
    );
    assert.equal(r.skipped.length, 2);
  });

  it("reads Python 2 doctest strings (u'…') as the str Python 3 compares them to", () => {
    const doc = ">>> transliterate(u'\u00e4l\u00e4')\nu'ala'\n>>> split(u'a b')\n[u'a', U\"b\", {u'k': 1}]\n>>> name()\nuser";
    assert.deepEqual(
      parseDoctest(doc).examples.map((e) => [e.call, e.outcome, e.expected]),
      [
        ["transliterate(u'\u00e4l\u00e4')", 'value', "'ala'"],
        ["split(u'a b')", 'value', "['a', \"b\", {'k': 1}]"],
        // not a literal: its repr text is kept as shown
        ['name()', 'value', 'user'],
      ],
    );
    assert.equal(withoutUnicodePrefixes("ur'x'"), "ur'x'");
  });

  it('derives ids from target and scenario only', () => {
    assert.equal(caseId('index.js#ms', 'smoke:export-shape'), caseId('index.js#ms', 'smoke:export-shape'));
    assert.notEqual(caseId('index.js#ms', 'a'), caseId('index.js#ms', 'b'));
    assert.match(caseId('x', 'y'), /^tc_[0-9a-f]{12}$/);
  });
});
