// Python coverage with nothing installed: the stdlib sys.settrace harness
// (server/src/frameworks/assets/pytrace.py) run around pytest, read by server/src/coverage/python.ts.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beyondImport } from '../../server/src/coverage/beyondImport';
import { LOAD_ONLY_GREP } from '../../server/src/coverage/loadOnly';
import { pythonUnits, tracedPytest } from '../../server/src/coverage/python';
import { asset } from '../../server/src/frameworks/assets';
import { requirePytest } from '../helpers/python';

const CALC =
  'LIMIT = 10\n\n\ndef clamp(n):\n    if n > LIMIT:\n        return LIMIT\n    return n\n\n\ndef never(x):\n    y = x * 2\n    return y\n';
const TEST = 'from calc import clamp\n\n\ndef test_clamp():\n    assert clamp(50) == 10\n';

describe('coverage/python: the no-install fallback', function () {
  let dir: string;
  before(function () {
    requirePytest();
    dir = mkdtempSync(join(tmpdir(), 'amtp-pycov-'));
    writeFileSync(join(dir, 'calc.py'), CALC);
    writeFileSync(join(dir, 'test_calc.py'), TEST);
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  function measure(name: string, extra: string[]) {
    const out = join(dir, `${name}.json`);
    const [cmd, args] = tracedPytest('python3', asset('pytrace.py'), out, ['calc.py'], dir, [
      '-q',
      '-p',
      'no:cacheprovider',
      ...extra,
      'test_calc.py',
    ]);
    const r = spawnSync(cmd, args, { cwd: dir, encoding: 'utf8' });
    return { status: r.status, units: pythonUnits(out, dir) };
  }

  it("reports the lines the tests run, keeps pytest's exit status, and separates beyond-import", () => {
    const run = measure('run', []);
    assert.equal(run.status, 0);
    const lines = (s: Set<string>) => [...s].map((k) => Number(k.split(':l')[1])).sort((a, b) => a - b);
    // Executable lines 1, 4-7, 10-12; the test runs clamp's "above" arm.
    assert.deepEqual(lines(run.units!.unitKeys), [1, 4, 5, 6, 7, 10, 11, 12]);
    assert.deepEqual(lines(run.units!.units), [1, 4, 5, 6, 10]);
    assert.equal(run.units!.statements, 62.5);
    const load = measure('load', ['-k', LOAD_ONLY_GREP]);
    assert.equal(load.status, 5, 'pytest: no test selected');
    assert.deepEqual(lines(load.units!.units), [1, 4, 10]);
    assert.deepEqual(beyondImport(run.units!.units, load.units!.units, run.units!.unitKeys), { percent: 40, byTests: 2, leftByLoading: 5 });
  });

  it("exits with the tests' failure status", () => {
    writeFileSync(join(dir, 'test_calc.py'), TEST.replace('== 10', '== 11'));
    assert.equal(measure('fail', []).status, 1);
    writeFileSync(join(dir, 'test_calc.py'), TEST);
  });
});
