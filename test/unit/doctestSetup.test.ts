import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { withCarriedSetup } from '../../server/src/agents/crawler/doctestSetup';
import { doctestBlocks } from '../../server/src/agents/crawler/pyDocstring';
import { parseDoctest } from '../../server/src/agents/generator/doctest';
import { requirePytest } from '../helpers/python';

// humanize 4.4.0's precisedelta docstring, shortened: setup in the first blocks, calls further down.
const DOC = `Return a precise representation of a timedelta.

\`\`\`pycon
>>> import datetime as dt
>>> import math

>>> delta = dt.timedelta(seconds=3633, days=2, microseconds=123000)
>>> delta.days
2

\`\`\`

A custom \`format\` changes the fractional part:

>>> round(delta.total_seconds(), 1)
176433.1

>>> print("side effect")
side effect
>>> unused = 3
>>> delta = dt.timedelta(seconds=90)
>>> delta.seconds
90

>>> delta.total_seconds()
90.0
`;

describe('doctest blocks of one docstring share their setup', () => {
  it('a later block gets the earlier imports and assignments it uses, with their dependencies, in order', () => {
    const blocks = withCarriedSetup(doctestBlocks(DOC));
    assert.deepEqual(blocks, [
      '>>> import datetime as dt\n>>> import math',
      '>>> import datetime as dt\n>>> delta = dt.timedelta(seconds=3633, days=2, microseconds=123000)\n>>> delta.days\n2',
      // `math` is not used: not carried; `delta` brings `dt` with it.
      '>>> import datetime as dt\n>>> delta = dt.timedelta(seconds=3633, days=2, microseconds=123000)\n>>> round(delta.total_seconds(), 1)\n176433.1',
      // Its own `delta` is defined in the block: only `dt` is carried.
      '>>> import datetime as dt\n>>> print("side effect")\nside effect\n>>> unused = 3\n>>> delta = dt.timedelta(seconds=90)\n>>> delta.seconds\n90',
      // The latest `delta` counts; the block's own `unused` and printing call are not carried.
      '>>> import datetime as dt\n>>> delta = dt.timedelta(seconds=90)\n>>> delta.total_seconds()\n90.0',
    ]);
  });

  it('carried statements become the example setup, and a block defining a name itself gets no earlier one', () => {
    const [, , third] = withCarriedSetup(doctestBlocks(DOC));
    const [ex] = parseDoctest(third).examples;
    assert.deepEqual(ex.setup, ['import datetime as dt', 'delta = dt.timedelta(seconds=3633, days=2, microseconds=123000)']);
    assert.equal(ex.call, 'round(delta.total_seconds(), 1)');
    const own = withCarriedSetup(['>>> x = 1', '>>> x = 2\n>>> f(x, format=x)\n3', '>>> y = x + 1\n>>> y\n3']);
    assert.equal(own[1], '>>> x = 2\n>>> f(x, format=x)\n3');
    // The namespace is shared: the latest `x` (block two's) is the one block three sees.
    assert.equal(own[2], '>>> x = 2\n>>> y = x + 1\n>>> y\n3');
  });

  it('each carried block runs on its own under Python doctest', () => {
    const python = requirePytest(); // a python3 is needed: fails with the install hint, never skips
    const script =
      'import doctest, sys\nfor b in sys.stdin.read().split("\\0"):\n  t = doctest.DocTestParser().get_doctest(b, {}, "b", None, 0)\n  r = doctest.DocTestRunner().run(t)\n  assert r.failed == 0, b\nprint("ok")';
    const runs = (blocks: string[]) => spawnSync(python, ['-c', script], { input: blocks.join('\0'), encoding: 'utf8' });
    // As the blocks were split, the third fails with NameError: name 'delta' is not defined.
    const split = runs(doctestBlocks(DOC));
    assert.notEqual(split.status, 0);
    assert.match(split.stdout + split.stderr, /NameError: name 'delta' is not defined/);
    const carried = runs(withCarriedSetup(doctestBlocks(DOC)));
    assert.equal(carried.status, 0, carried.stdout + carried.stderr);
    assert.equal(carried.stdout.trim(), 'ok');
  });
});
