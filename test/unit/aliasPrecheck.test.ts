// The README alias precheck (server/src/agents/crawler/aliasPrecheck.ts) skips the TypeScript parse
// of a README's code blocks only where no alias could change the examples: these tests hold its
// answers to exact cases, and hold readmeExamples' output identical with and without it on garbled
// READMEs the parser has to recover from.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { aliasesCouldMatter, receiverCandidates } from '../../server/src/agents/crawler/aliasPrecheck';
import { readmeExamples, type ExportedName } from '../../server/src/agents/crawler/readmeExamples';

const NAMES = new Set(['min', 'max', 'sum']);
const exported = (receivers: string[]): ExportedName[] =>
  [...NAMES].map((name) => ({ name, callNames: [name, ...receivers.map((r) => `${r}.${name}`)] }));
const md = (...blocks: string[]) => blocks.map((b) => '```js\n' + b + '\n```\n').join('\n');

describe('README alias precheck', () => {
  it('lists each receiver called with at least two exported names, and nothing called with one', () => {
    assert.deepEqual([...receiverCandidates(['d3.min(a); d3?.max(b)\nlib.sum(c)'], NAMES, 2)!], ['d3']);
    assert.deepEqual([...receiverCandidates(['d3\n  .min(a)\n  .max(b)'], NAMES, 2)!], []);
    assert.deepEqual([...receiverCandidates(['d3 . /* c */ min(a); d3.\n// c\nmax(b)'], NAMES, 2)!], ['d3']);
    assert.deepEqual([...receiverCandidates(["require('./min').max(1); x[0].min(); 'a'.max()"], NAMES, 2)!], []);
  });

  it('gives up where a scan cannot read receivers as the parser does', () => {
    assert.equal(receiverCandidates(['\\u00643.min(a)'], NAMES, 2), undefined, 'unicode escape');
    assert.equal(receiverCandidates(['d3 /* c */ .min(a)'], NAMES, 2), undefined, 'comment before the dot');
    assert.equal(receiverCandidates(['d3 // c\n  .min(a)'], NAMES, 2), undefined, 'line comment before the dot');
    assert.equal(receiverCandidates(['dé.min(a)'], NAMES, 2), undefined, 'non-ASCII receiver');
  });

  it('says an alias matters only when it adds a call the document makes or a binding it declares', () => {
    const unbound = md('d3.min([1, 2]) // 1', 'd3.max([1, 2]) // 2');
    const blocks = ['d3.min([1, 2]) // 1', 'd3.max([1, 2]) // 2'];
    assert.equal(aliasesCouldMatter(blocks, exported([]), unbound), true, 'd3 calls what nothing else names');
    assert.equal(aliasesCouldMatter(blocks, exported(['d3']), unbound), false, 'the document already calls them through d3');
    assert.equal(aliasesCouldMatter(['Math.min(1); Math.max(2)'], exported([]), md('Math.min(1); Math.max(2)')), false, 'a global');
    assert.equal(aliasesCouldMatter(['lib.min(1)'], exported([]), md('lib.min(1)')), false, 'one name only');
  });

  it('readmeExamples finds the same examples with and without the parse, on garbled READMEs', function () {
    this.timeout(120_000);
    const token = fc.constantFrom(
      ...['d3', 'lib', 'x', 'min', 'max', 'sum', 'Math', 'return', 'if', 'const', 'import', 'as', 'from', 'new', 'foo'],
      ...['.', '.', '.', '?.', '(', ')', '[', ']', ';', ',', '=', ' ', ' ', '\n', '//', '/*', '*/', "'", '"', '`'],
      ...['{', '}', '*', '=>', '!', '1', '\\u0061', 'é', '\r\n', '...', '#', '@'],
      ...['d3.min(1)', 'd3.max(a)', 'd3.sum()', 'lib.min(2)', 'lib.max(b)', 'x.sum(3)', 'd3 .max(', 'd3\n  .sum(', 'd3?.min()'],
      ...['new d3.max', 'const d3 = ', 'import * as lib from "lib"', 'var x', 'foo.min(', 'foo.max(', 'Math.min(', 'Math.max('],
    );
    const code = fc.array(token, { maxLength: 40 }).map((t) => t.join(''));
    const block = fc.tuple(fc.constantFrom('js', '', 'ts', 'sh', 'python'), code).map(([lang, c]) => '```' + lang + '\n' + c + '\n```\n');
    const table = fc
      .tuple(code, code)
      .map(([a, b]) => `| call | result |\n|---|---|\n| \`${a.replace(/[`|\n]/g, '')}\` | ${b.replace(/[|\n]/g, '')} |\n`);
    const readme = fc.array(fc.oneof(block, block, table, code), { maxLength: 6 }).map((parts) => parts.join('\n'));
    const receivers = fc.subarray(['lib', 'd3', 'x']);
    fc.assert(
      fc.property(readme, receivers, (text, rs) => {
        const names = exported(rs);
        assert.deepEqual(readmeExamples('README.md', text, names), readmeExamples('README.md', text, names, { alwaysParse: true }));
      }),
      { numRuns: 1000, seed: 25 },
    );
  });
});
