// Python call sequences (server/src/characterize/python/sequence.ts, harness
// amtp_char_seqrun.py): on Debian's cachetools 5.2.0 (test/fixtures/py-cachetools, as published)
// AMTP constructs the caches, calls their methods and pins what they did through their state;
// before, a class was never exercised (its tests were "LRUCache is callable") and 44 of 57 pinned
// Python values called with None. Also: files a sequence writes, callbacks, determinism.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { CharTarget } from '../../server/src/characterize/characterize';
import { pyCharToTestCase } from '../../server/src/characterize/python/case';
import { characterizePythonModule } from '../../server/src/characterize/python/characterize';
import type { PySeqCase } from '../../server/src/characterize/python/sequence';
import type { TestCases } from '../../server/src/contracts/types';
import { validate } from '../../server/src/contracts/validate';
import { engineerTests } from '../helpers/offlineEngineer';
import { requirePytest } from '../helpers/python';

const CACHETOOLS = resolve(__dirname, '..', 'fixtures', 'py-cachetools');
const PYSEQ = resolve(__dirname, '..', 'fixtures', 'pyseq');
const LIMITS = { callTimeoutMs: 3000, maxOldSpaceMb: 256, bound: 200 };
const CLASSES: CharTarget[] = ['Cache', 'LRUCache', 'TTLCache', 'FIFOCache'].map((name) => ({ path: [name], arity: 0 }));

function plan(file: string, cases: PySeqCase[]): TestCases {
  return {
    schema_version: '1',
    depth_level: 'standard',
    project: {
      name: 'fixture',
      language: 'python',
      module_system: 'python',
      typescript: false,
      test_setup: { framework: 'pytest', test_dirs: ['tests'], config_files: [] },
    },
    cases: cases.map((c) => pyCharToTestCase(c, file)).filter((c) => c !== undefined),
  } as TestCases;
}

/** Writes the engineer's pytest file into `dir` and runs it three times; returns the file's text. */
function runThrice(python: string, dir: string, p: TestCases): string {
  const valid = validate('test-cases', p);
  assert.ok(valid.ok, JSON.stringify(valid));
  const out = engineerTests(p, 'pytest');
  assert.deepEqual(out.not_written, []);
  const [file] = out.files;
  mkdirSync(join(dir, dirname(file.path)), { recursive: true });
  writeFileSync(join(dir, file.path), file.content);
  for (let i = 0; i < 3; i++) {
    const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', file.path], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`\\b${p.cases.length} passed\\b`));
  }
  return file.content;
}

describe('Python call sequences', function () {
  this.timeout(180_000);
  let python: string;
  let dir: string;
  let cases: PySeqCase[];
  before(async () => {
    python = requirePytest();
    dir = mkdtempSync(join(tmpdir(), 'amtp-pyseq-'));
    cpSync(CACHETOOLS, dir, { recursive: true });
    const m = await characterizePythonModule(join(dir, 'cachetools', '__init__.py'), dir, CLASSES, { limits: LIMITS, python });
    cases = m.cases as PySeqCase[];
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('constructs classes and calls methods on the instances; the state they leave is observed', () => {
    const multi = cases.filter((c) => c.seq.steps.length > 1);
    assert.ok(multi.length >= 5, `${multi.length} of ${cases.length} sequences call methods`);
    for (const c of multi) {
      // `a1 = [...]` steps bind an argument the sequence changed, so its test can check it
      const calls = c.seq.steps.filter((s) => s.lit === undefined);
      assert.deepEqual(calls[0].fn, [c.seq.target], 'the first step constructs the target class');
      // methods of the instance, or of an instance an earlier method returned (`r1 = obj.get(k, default=obj)`)
      assert.ok(calls.slice(1).every((s, i) => s.recv !== undefined && calls.slice(0, i + 1).some((p) => p.var === s.recv)));
    }
    const observed = cases.flatMap((c) => (c.seq.kind === 'throw' ? [] : (c.seq.checks ?? []).map((k) => k.expr)));
    assert.ok(
      observed.some((e) => /^repr\(obj\)$/.test(e)),
      observed.join(),
    );
    assert.ok(
      observed.some((e) => /^obj\.currsize$/.test(e)),
      'a property is an observer',
    );
    assert.ok(new Set(cases.map((c) => c.seq.target)).size === CLASSES.length, 'every class is exercised');
  });

  it("exceptions: the package's own KeyError from an empty cache is pinned, wrong-guess built-in errors are not; None is rare", () => {
    const thrown = cases.filter((c) => c.oracle.kind === 'throws').map((c) => c.oracle.kind === 'throws' && c.oracle.errorName);
    assert.ok(thrown.includes('KeyError'), thrown.join());
    for (const c of cases.filter((x) => x.seq.kind === 'throw'))
      if (['TypeError', 'AttributeError', 'IndexError'].includes(c.oracle.kind === 'throws' ? c.oracle.errorName : ''))
        assert.ok(c.seq.kind === 'throw' && c.seq.own, `${c.id}: a built-in error must come from the package's own raise`);
    const args = cases.flatMap((c) => c.seq.steps.flatMap((s) => [...s.args, ...Object.values(s.kwargs)]));
    const none = args.filter((a) => 'lit' in a && a.lit === null).length;
    assert.ok(none * 5 < args.length, `${none} of ${args.length} arguments are None`);
  });

  it('the written pytest file passes 3 of 3; the same search gives the same sequences', async () => {
    const text = runThrice(python, dir, plan('cachetools/__init__.py', cases));
    assert.match(text, /^ {4}obj = mod\.(LRUCache|Cache|TTLCache|FIFOCache)\(/m);
    assert.match(text, /^ {4}assert \(repr\(obj\)\) == "\w+Cache\(\{/m);
    const again = await characterizePythonModule(join(dir, 'cachetools', '__init__.py'), dir, CLASSES, { limits: LIMITS, python });
    assert.deepEqual(
      (again.cases as PySeqCase[]).map((c) => JSON.stringify(c.seq.steps)),
      cases.map((c) => JSON.stringify(c.seq.steps)),
    );
  });

  it('a sequence that writes in its sandbox folder is written to run in tmp_path; one that writes outside it is never pinned', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'amtp-pyseq-files-'));
    try {
      cpSync(PYSEQ, ws, { recursive: true });
      const targets = [
        { path: ['save'], arity: 2 },
        { path: ['note'], arity: 1 },
      ];
      const m = await characterizePythonModule(join(ws, 'pyseq', 'files.py'), ws, targets, { limits: LIMITS, python });
      const got = m.cases as PySeqCase[];
      assert.ok(got.some((c) => c.seq.target === 'save' && c.seq.fs === true));
      assert.ok(!got.some((c) => c.seq.target === 'note'), 'note() writes beside the module: never pinned');
      assert.ok(m.unusable > 0);
      assert.equal(existsSync(join(ws, 'pyseq', 'notes.txt')), false, 'the write outside the sandbox was refused while characterizing');
      const text = runThrice(python, ws, plan('pyseq/files.py', got));
      assert.match(
        text,
        /def test_\w+\(tmp_path, monkeypatch\): {2}# tc_[0-9a-f]{12}\n(.*\n){1,2}\s+monkeypatch\.chdir\(tmp_path\)\n\s+actual = mod\.save\(/,
      );
      assert.deepEqual(
        ['notes.txt', 'a', 'abc'].filter((f) => existsSync(join(ws, f)) || existsSync(join(ws, 'pyseq', f))),
        [],
        'the tests wrote nothing into the project',
      );
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});

describe('Python call sequences: arguments and callbacks', function () {
  this.timeout(120_000);
  it('a sequence that reads standard input, a descriptor it did not open or the command line is never pinned', async () => {
    const python = requirePytest();
    const ws = mkdtempSync(join(tmpdir(), 'amtp-pyseq-stdin-'));
    try {
      cpSync(PYSEQ, ws, { recursive: true });
      const targets = [
        { path: ['ask'], arity: 1 },
        { path: ['read_fd'], arity: 1 },
        { path: ['flags'], arity: 1 },
      ];
      const m = await characterizePythonModule(join(ws, 'pyseq', 'files.py'), ws, targets, { limits: LIMITS, python });
      const got = m.cases as PySeqCase[];
      // read_fd(-1) raises Python's own ValueError before anything is read: that one may stay
      assert.deepEqual(
        got.filter(
          (c) =>
            c.seq.target === 'ask' ||
            c.seq.target === 'flags' ||
            (c.seq.target === 'read_fd' && JSON.stringify(c.seq.steps).match(/"lit":\d/)),
        ),
        [],
        JSON.stringify(got.map((c) => c.seq.steps)),
      );
      // flags() is refused for reading sys.argv while searching; without that refusal it was only
      // dropped later as unstable (argv differs between the search and the replay child)
      assert.equal(m.unstable, 0, 'a read of sys.argv makes the sequence unpinnable, not merely unstable');
      assert.ok(m.unusable > 0);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it('a list the call changed is bound to a name and checked afterwards; a callback records its calls', async () => {
    const python = requirePytest();
    const ws = mkdtempSync(join(tmpdir(), 'amtp-pyseq-args-'));
    try {
      cpSync(PYSEQ, ws, { recursive: true });
      const targets = [
        { path: ['dedupe'], arity: 1 },
        { path: ['each'], arity: 2 },
      ];
      const m = await characterizePythonModule(join(ws, 'pyseq', 'seqs.py'), ws, targets, { limits: LIMITS, python });
      const got = m.cases as PySeqCase[];
      const changed = got.find((c) => c.seq.target === 'dedupe' && c.seq.steps[0].lit !== undefined);
      assert.ok(changed, JSON.stringify(got.map((c) => c.seq.steps)));
      assert.ok(
        (changed.seq.checks ?? []).some((k) => k.expr === 'a1'),
        'the changed list is checked',
      );
      const called = got.find((c) => c.seq.target === 'each' && (c.seq.checks ?? []).some((k) => /^cb\d+_calls$/.test(k.expr)));
      assert.ok(called, 'a callback that was called is checked');
      const text = runThrice(python, ws, plan('pyseq/seqs.py', got));
      assert.match(text, /a1 = \[.*\]\n\s+actual = mod\.dedupe\(a1\)\n\s+assert actual == \d+\n\s+assert \(a1\) == \[/);
      assert.match(
        text,
        /def (cb\d+)\(\*args\):\n\s+\1_calls\.append\(args\)\n\s+return args\[0\] if args else None\n\s+actual = mod\.each\(/,
      );
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it('a context manager is entered with `with`, its methods called inside, and its state checked after __exit__', async () => {
    const python = requirePytest();
    const ws = mkdtempSync(join(tmpdir(), 'amtp-pyseq-with-'));
    try {
      cpSync(PYSEQ, ws, { recursive: true });
      const m = await characterizePythonModule(join(ws, 'pyseq', 'seqs.py'), ws, [{ path: ['Ledger'], arity: 1 }], {
        limits: LIMITS,
        python,
      });
      const got = m.cases as PySeqCase[];
      const inside = got.find((c) => c.seq.steps.some((s) => s.method === '__enter__') && c.seq.steps.some((s) => s.method === 'add'));
      assert.ok(inside, JSON.stringify(got.map((c) => c.seq.steps)));
      const closed = got.find((c) => c.oracle.kind === 'throws' && c.oracle.message === 'the ledger is closed');
      assert.ok(closed, "add() outside the with block raises the class's own RuntimeError");
      const text = runThrice(python, ws, plan('pyseq/seqs.py', got));
      assert.match(text, /obj = mod\.Ledger\(.*\)\n\s+with obj as ctx:\n\s+r\d+ = ctx\.add\(/);
      assert.match(text, /assert \((obj|ctx)\.open\) == False/, 'the state after __exit__');
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it("an endless generator's first ten items are pinned, taken the same way in its test", async () => {
    const python = requirePytest();
    const ws = mkdtempSync(join(tmpdir(), 'amtp-pyseq-gen-'));
    try {
      cpSync(resolve(__dirname, '..', 'fixtures', 'pychar'), ws, { recursive: true });
      const m = await characterizePythonModule(join(ws, 'pychar', 'basics.py'), ws, [{ path: ['naturals'], arity: 0 }], {
        limits: LIMITS,
        python,
      });
      const got = m.cases as PySeqCase[];
      assert.deepEqual(
        got.map((c) => [c.seq.take, c.oracle.kind !== 'throws' && c.oracle.value]),
        [[10, { $: 'iter', v: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }]],
      );
      const text = runThrice(python, ws, plan('pychar/basics.py', got));
      assert.match(
        text,
        /actual = \[x for _, x in zip\(range\(10\), mod\.naturals\(\)\)\]\n\s+assert actual == \[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\]/,
      );
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it('a count of tries bounds the search; the wall-clock safety stop ends it early and says so', async () => {
    const python = requirePytest();
    const ws = mkdtempSync(join(tmpdir(), 'amtp-pyseq-clock-'));
    try {
      // 120 tries of nap take about 4.8 s, twice the safety stop of a 200 ms call timeout (2.4 s).
      writeFileSync(
        join(ws, 'slowmod.py'),
        'import time\n\ndef nap(n: int) -> int:\n    time.sleep(0.04)\n    return 1\n\ndef later(x: int) -> int:\n    return x + 1\n',
      );
      const targets = [
        { path: ['nap'], arity: 1 },
        { path: ['later'], arity: 1 },
      ];
      const cut = await characterizePythonModule(join(ws, 'slowmod.py'), ws, targets, {
        limits: { ...LIMITS, callTimeoutMs: 200 },
        python,
      });
      assert.equal(cut.cutByClock, true);
      assert.deepEqual(
        cut.cases.map((c) => c.path[0]),
        ['nap'],
        'the targets after the stop were never tried',
      );
      writeFileSync(join(ws, 'slowmod.py'), 'def nap(n: int) -> int:\n    return 1\n\ndef later(x: int) -> int:\n    return x + 1\n');
      const whole = await characterizePythonModule(join(ws, 'slowmod.py'), ws, targets, { limits: LIMITS, python });
      assert.equal(whole.cutByClock, undefined);
      assert.deepEqual(whole.cases.map((c) => c.path[0]).sort(), ['later', 'nap']);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});
