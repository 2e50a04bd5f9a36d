import { strict as assert } from 'node:assert';
import { parseRecovering } from '../../server/src/util/jsRecover';
import { nodesWhere } from '../../server/src/util/esTree';
import type { EsNode } from '../../server/src/util/jsParser';

const kinds = (text: string) => parseRecovering('snippet.ts', text).statements.map((s) => `${s.type} ${text.slice(s.start, s.end)}`);
const calls = (text: string) =>
  parseRecovering('snippet.ts', text)
    .statements.flatMap((s) => nodesWhere(s, (n) => n.type === 'CallExpression' && !n.unclosed))
    .map((n: EsNode) => text.slice(n.start, n.end));

describe('util/jsRecover: docs code read on after each syntax error', () => {
  it('a whole program is one parse: statements, comments, no errors', () => {
    const r = parseRecovering('snippet.ts', "ms('2 days')  // 172800000\nms('1d')");
    assert.deepEqual(
      r.statements.map((s) => s.type),
      ['ExpressionStatement', 'ExpressionStatement'],
    );
    assert.deepEqual(
      r.comments.map((c) => c.value),
      [' 172800000'],
    );
    assert.deepEqual(r.errors, []);
  });

  it('keeps what parses before an error on its line, and reports the error there', () => {
    const text = "f(1) // 1\nms('2 days') 172800000 // x\ng(2)";
    const r = parseRecovering('snippet.ts', text);
    assert.deepEqual(kinds(text), [
      'ExpressionStatement f(1)',
      "ExpressionStatement ms('2 days')",
      'ExpressionStatement 172800000',
      'ExpressionStatement g(2)',
    ]);
    assert.equal(r.errors.length, 1);
    assert.equal(text.slice(0, r.errors[0]).split('\n').length - 1, 1, 'the error is on the second line');
    assert.deepEqual(
      r.comments.map((c) => c.value),
      [' 1', ' x'],
    );
  });

  it('a line that does not parse is one Unparsed stretch; reading goes on on the next line', () => {
    const text = 'a(1)\n...\nb(2) // 3';
    assert.deepEqual(kinds(text), ['ExpressionStatement a(1)', 'Unparsed ...', 'ExpressionStatement b(2)']);
  });

  it('a stretch runs on to the line that closes the brackets it opened (a missing comma inside a call)', () => {
    const text = 'addExtension({\n  write(x) {\n    return x; // the data\n  }\n  read(d) {\n    return d;\n  }\n});\nf(1) // 2';
    const r = parseRecovering('snippet.ts', text);
    assert.deepEqual(
      r.statements.map((s) => s.type),
      ['Unparsed', 'ExpressionStatement'],
    );
    assert.equal(text.slice(r.statements[0].start, r.statements[0].end), text.slice(0, text.indexOf('\nf(1)')));
    assert.deepEqual(
      r.comments.map((c) => c.value),
      [' the data', ' 2'],
      'comments inside the stretch are found too',
    );
  });

  it('what still reads inside a stretch is its body: the head with its brackets closed, and the lines after', () => {
    const text = 'http.createServer(function (req, res) {\n  res.end(done(1))\n  return …\n})';
    const [stretch] = parseRecovering('snippet.ts', text).statements;
    assert.equal(stretch.type, 'Unparsed');
    assert.deepEqual(calls(text), ['res.end(done(1))', 'done(1)']);
    const head = nodesWhere(stretch, (n) => n.type === 'CallExpression')[0];
    assert.equal(head.unclosed, true, 'the head call was closed by the reader: its arguments are not all there');
  });

  it('finds the calls of REPL lines, of `f(x) = value` and of a list item', () => {
    assert.deepEqual(calls("> f('a')\n'A'"), ["f('a')"]);
    assert.deepEqual(calls('g([1, 2], 3) = [4]'), ['g([1, 2], 3)']);
    assert.deepEqual(calls('h({ a: 1 }),'), ['h({ a: 1 })']);
  });

  it('offsets are UTF-16 offsets into the whole text, after pieces read on their own', () => {
    const text = "'😀' garbage here\nf('é')";
    const st = parseRecovering('snippet.ts', text).statements.at(-1)!;
    assert.equal(text.slice(st.start, st.end), "f('é')");
  });
});
