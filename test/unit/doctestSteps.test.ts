// A doctest keeps every earlier step of its block (server/src/agents/generator/doctest.ts): a step
// that showed a result ran too, and changed what the later steps see. The docstring is
// sortedcontainers 2.4.0's SortedList.pop (Debian python3-sortedcontainers): before, `>>> sl` was
// expected to be SortedList(['a', 'b', 'd']) after only `sl = SortedList('abcde')`, so the test
// failed and was quarantined as a possible bug. Results that read the clock, randomness or the
// process are no equality oracles (doctestVolatile.ts).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { doctestBlocks } from '../../server/src/agents/crawler/pyDocstring';
import { loadPython } from '../../server/src/frameworks/pyGrammar';
import { extractPySymbols } from '../../server/src/agents/crawler/pySymbols';
import { crawlMap } from '../../server/src/agents/crawler/staticMap';
import { generateCases } from '../../server/src/agents/generator/offline';
import { parseDoctest } from '../../server/src/agents/generator/doctest';
import { volatileRead } from '../../server/src/agents/generator/doctestVolatile';
import { requirePytest } from '../helpers/python';

const POP = `>>> sl = SortedList('abcde')
>>> sl.pop()
'e'
>>> sl.pop(2)
'c'
>>> sl
SortedList(['a', 'b', 'd'])`;

describe('doctest steps', () => {
  it('every earlier step of the block is setup of the later ones, including those that showed a result', () => {
    const ex = parseDoctest(POP).examples;
    assert.deepEqual(
      ex.map((e) => [e.setup, e.call, e.expected]),
      [
        [["sl = SortedList('abcde')"], 'sl.pop()', "'e'"],
        [["sl = SortedList('abcde')", 'sl.pop()'], 'sl.pop(2)', "'c'"],
        [["sl = SortedList('abcde')", 'sl.pop()', 'sl.pop(2)'], 'sl', "SortedList(['a', 'b', 'd'])"],
      ],
    );
  });

  it('a step that raised is carried inside try/except, so the later steps run as doctest runs them', () => {
    const doc =
      ">>> d = {}\n>>> d['x']\nTraceback (most recent call last):\n  ...\nKeyError: 'x'\n>>> d.setdefault('x', 1)\n1\n>>> d\n{'x': 1}";
    const [raised, set, shown] = parseDoctest(doc).examples;
    assert.equal(raised.outcome, 'throws');
    assert.deepEqual(shown.setup, ['d = {}', "try:\n    d['x']\nexcept Exception:\n    pass", "d.setdefault('x', 1)"]);
    assert.equal(set.expected, '1');
    // The carried statements run: the last example holds under CPython.
    const python = requirePytest();
    const r = spawnSync(python, ['-c', `${shown.setup.join('\n')}\nassert repr(${shown.call}) == ${JSON.stringify(shown.expected)}`], {
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
  });

  it('results that read the clock, randomness or the process are skipped with the reason; the same names in strings are not', () => {
    const doc = [
      '>>> import datetime as dt',
      '>>> naturaltime(dt.datetime.now() - dt.timedelta(seconds=30))',
      "'30 seconds ago'",
      '>>> now = dt.datetime.now()',
      '>>> later = now.replace(year=2000)',
      '>>> later.year',
      '2000',
      '>>> import random',
      '>>> random.choice([1, 2, 3])',
      '2',
      ">>> title('random uuid now')",
      "'Random Uuid Now'",
    ].join('\n');
    const parsed = parseDoctest(doc);
    assert.deepEqual(
      parsed.skipped.map((s) => s.reason),
      [
        'the shown result depends on the clock (dt.datetime.now): not an equality oracle',
        // through the names: `later` comes from `now`
        'the shown result depends on the clock (dt.datetime.now): not an equality oracle',
        'the shown result depends on randomness (random): not an equality oracle',
      ],
    );
    // A step that only acted taints nothing: the title example after it keeps its oracle.
    assert.deepEqual(
      parsed.examples.map((e) => e.call),
      ["title('random uuid now')"],
    );
    assert.deepEqual(volatileRead("title('random uuid now')"), undefined);
    assert.equal(volatileRead('id(x) == id(y)'), 'the process (id())');
    assert.equal(volatileRead("hash('a')"), 'the process (hash())');
    assert.equal(volatileRead('os.environ["HOME"]'), 'the process or its environment (os.environ)');
    assert.equal(volatileRead('uuid.uuid4().hex'), 'randomness (uuid)');
    assert.equal(volatileRead('time.time() > 0'), 'the clock (time.time)');
    assert.equal(volatileRead('datetime.date(2020, 1, 1).isoformat()'), undefined);
  });
});

describe('doctests of a module docstring', () => {
  it("python3-parse's module docstring examples become examples of the functions they call; `_` is no oracle", async () => {
    const src = readFileSync(resolve(__dirname, '..', 'fixtures', 'py-parse', 'parse.py'), 'utf8');
    const syms = extractPySymbols(await loadPython(), src).symbols;
    const parse = syms.find((s) => s.name === 'parse')!;
    assert.ok((parse.examples ?? []).length >= 3, JSON.stringify(parse.examples));
    assert.match(parse.examples![0], /^>>> parse\("It's \{\}, I love it!"/);
    const parsed = parse.examples!.map((b) => parseDoctest(b));
    const calls = parsed.flatMap((p) => p.examples.map((e) => e.call));
    assert.ok(calls.includes('parse("It\'s {}, I love it!", "It\'s spam, I love it!")'), calls.join('\n'));
    const skipped = parsed.flatMap((p) => p.skipped.map((k) => k.reason));
    assert.ok(
      skipped.includes("the shown result depends on the interactive interpreter's last result (`_`): not an equality oracle"),
      skipped.join('\n'),
    );
    assert.ok(!parsed.some((p) => p.examples.some((e) => e.setup.some((l) => /\b_\b/.test(l)))), 'a step that reads `_` is never carried');
  });

  it('the documented `parse(…)` binds the function parse of parse.py, not the module of the same name; its test passes', async () => {
    const map = await crawlMap(resolve(__dirname, '..', 'fixtures', 'py-parse'));
    const plan = generateCases(map, 'standard');
    const documented = plan.cases.filter((c) => c.oracle?.call?.startsWith('parse('));
    assert.ok(documented.length >= 3);
    for (const c of documented) assert.deepEqual(c.oracle!.bindings, [{ local: 'parse', import: 'named', name: 'parse' }]);
    const python = requirePytest();
    const [c] = documented;
    const r = spawnSync(
      python,
      ['-c', `from parse import parse\nassert repr(${c.oracle!.call}) == ${JSON.stringify(c.oracle!.expected)}`],
      {
        cwd: resolve(__dirname, '..', 'fixtures', 'py-parse'),
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', PYTHONDONTWRITEBYTECODE: '1' },
      },
    );
    assert.equal(r.status, 0, r.stderr);
  });
});

describe('a doctest string continued without `...`', () => {
  // docopt 0.6.2's docopt() docstring (Debian python3-docopt), shortened: the string's lines carry no prompt
  const DOC = [
    '>>> from docopt import docopt',
    ">>> doc = '''",
    'Usage:',
    '    my_program tcp <host> <port> [--timeout=<seconds>]',
    '',
    'Options:',
    '    -h, --help  Show this screen and exit.',
    "'''",
    ">>> argv = ['tcp', '127.0.0.1', '80']",
    '>>> docopt(doc, argv)',
    "{'<host>': '127.0.0.1'}",
  ].join('\n');

  it('keeps the string, blank line included, as one step, so the later call has `doc`', () => {
    const blocks = doctestBlocks(DOC);
    assert.equal(blocks.length, 1);
    const [ex] = parseDoctest(blocks[0]).examples;
    assert.equal(ex.call, 'docopt(doc, argv)');
    assert.equal(
      ex.setup[1],
      "doc = '''\nUsage:\n    my_program tcp <host> <port> [--timeout=<seconds>]\n\nOptions:\n    -h, --help  Show this screen and exit.\n'''",
    );
    const python = requirePytest();
    const r = spawnSync(python, ['-c', `${ex.setup[1]}\nassert doc.splitlines()[4] == 'Options:', doc`], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });
});
