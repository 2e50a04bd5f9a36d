// Characterization of Python modules (docs/characterization.md): AMTP runs undocumented functions in
// a sandboxed CPython child and pins what they do. These tests run the real harness
// (server/src/frameworks/assets/amtp.char-harness.py) on test/fixtures/pychar.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { CharCase } from '../../server/src/characterize/characterize';
import { pyCharToTestCase } from '../../server/src/characterize/python/case';
import { characterizePythonModule, pythonCalls } from '../../server/src/characterize/python/characterize';
import { pyKind, pySeed } from '../../server/src/characterize/python/inputs';
import { importOf, projectPython, runInPythonSandbox } from '../../server/src/characterize/python/sandbox';
import { pyExpected, pyLiteral } from '../../server/src/characterize/python/values';
import { CHAR_PREFIX } from '../../server/src/characterize/render';
import type { CallResult } from '../../server/src/characterize/sandbox';
import { tag } from '../../server/src/characterize/values';
import type { TestCases } from '../../server/src/contracts/types';
import { validate } from '../../server/src/contracts/validate';
import { classifyFailure } from '../../server/src/verifier/classify';
import { engineerTests } from '../helpers/offlineEngineer';
import { requirePytest } from '../helpers/python';

const ROOT = resolve(__dirname, '..', 'fixtures', 'pychar');
const MOD = join(ROOT, 'pychar', 'basics.py');
const LIMITS = { callTimeoutMs: 3000, maxOldSpaceMb: 256, bound: 200 };

function kinds(rs: CallResult[]): string[] {
  return rs.map((r) => r.kind);
}

function valueOf(r: CallResult): unknown {
  assert.equal(r.kind, 'return', JSON.stringify(r));
  return (r as { value: unknown }).value;
}

describe('Python characterization sandbox', () => {
  let python: string;
  before(() => {
    python = requirePytest();
  });

  it('a call that connects to a non-loopback address is refused and not pinned; loopback stays open', async () => {
    const rs = await runInPythonSandbox(
      MOD,
      ROOT,
      [
        { id: 'far', path: ['dial'], args: ['93.184.215.14'] },
        { id: 'named', path: ['dial'], args: ['example.com'] },
        { id: 'near', path: ['dial'], args: ['127.0.0.1'] },
      ],
      LIMITS,
      { python },
    );
    assert.deepEqual(kinds(rs), ['unpinnable', 'unpinnable', 'return']);
    assert.equal((rs[0] as { why: string }).why, 'it tried to reach 93.184.215.14 (no network while characterizing)');
    assert.equal((rs[1] as { why: string }).why, 'it tried to reach example.com (no network while characterizing)');
    assert.equal(valueOf(rs[2]), 'connected');
  });

  it('a call that loops forever is killed at the timeout, one that allocates too much hits the memory limit; the rest still run', async () => {
    const rs = await runInPythonSandbox(
      MOD,
      ROOT,
      [
        { id: 'a', path: ['spin'], args: [] },
        { id: 'b', path: ['grade'], args: [95] },
        { id: 'c', path: ['hog'], args: [] },
        { id: 'd', path: ['grade'], args: [60] },
      ],
      { ...LIMITS, callTimeoutMs: 1500 },
      { python },
    );
    assert.deepEqual(kinds(rs), ['timeout', 'return', 'unpinnable', 'return']);
    assert.equal(valueOf(rs[1]), 'A');
    assert.equal((rs[2] as { why: string }).why, 'out of memory (the limit is 512 MB)');
    assert.equal(valueOf(rs[3]), 'C');
  });

  it('a module that never finishes loading takes every call with it once, not one load allowance per call', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'amtp-pyload-'));
    try {
      writeFileSync(join(ws, 'stuck.py'), 'while True:\n    pass\n\ndef f():\n    return 1\n');
      const started = Date.now();
      const rs = await runInPythonSandbox(
        join(ws, 'stuck.py'),
        ws,
        [
          { id: 'a', path: ['f'], args: [] },
          { id: 'b', path: ['f'], args: [] },
        ],
        { ...LIMITS, callTimeoutMs: 500, loadMs: 3000 },
        { python },
      );
      assert.deepEqual(kinds(rs), ['crash', 'crash']);
      assert.match((rs[0] as { detail: string }).detail, /did not finish loading within 3 s/);
      assert.ok(Date.now() - started < 15_000, 'one child, one allowance');
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it('an abort stops the child at once: no result for the call it was on, no further child', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const rs = await runInPythonSandbox(
      MOD,
      ROOT,
      [
        { id: 'a', path: ['spin'], args: [] },
        { id: 'b', path: ['grade'], args: [95] },
      ],
      { ...LIMITS, callTimeoutMs: 5000 },
      { python, signal: abort.signal },
    );
    assert.deepEqual(rs, []);
  });

  it('HOME and cwd are a fresh temporary directory, removed afterwards; secrets are not in the env; no .pyc is written into the project', async () => {
    process.env.AMTP_TEST_API_KEY = 'sk-must-not-leak';
    try {
      const [r] = await runInPythonSandbox(MOD, ROOT, [{ id: 'w', path: ['where'], args: [] }], LIMITS, { python });
      const [home, cwd, secrets] = valueOf(r) as [string, string, string[]];
      assert.notEqual(home, homedir());
      assert.ok(home.startsWith(join(tmpdir(), 'amtp-char-')), home);
      assert.equal(cwd, home);
      assert.equal(existsSync(home), false, 'the temporary HOME is removed afterwards');
      assert.deepEqual(secrets, []);
      assert.equal(existsSync(join(ROOT, 'pychar', '__pycache__')), false);
    } finally {
      delete process.env.AMTP_TEST_API_KEY;
    }
  });

  it('each call reports the lines and arcs of the module it ran, not those of loading it', async () => {
    const [r] = await runInPythonSandbox(MOD, ROOT, [{ id: 'g', path: ['grade'], args: [-3] }], LIMITS, { python });
    assert.equal(r.kind, 'throw');
    const thrown = r as Extract<CallResult, { kind: 'throw' }>;
    assert.deepEqual([thrown.name, thrown.message], ['ValueError', 'score must not be negative: -3']);
    assert.deepEqual(thrown.lines, ['pychar/basics.py:10', 'pychar/basics.py:11']);
    assert.deepEqual(thrown.arcs, ['pychar/basics.py:-9>10', 'pychar/basics.py:10>11', 'pychar/basics.py:11>-9']);
  });

  it("a generator's items are pinned (its body runs, traced, while they are taken); an endless one is not", async () => {
    const [finite, endless] = await runInPythonSandbox(
      MOD,
      ROOT,
      [
        { id: 'c', path: ['countdown'], args: [3] },
        { id: 'n', path: ['naturals'], args: [] },
      ],
      LIMITS,
      { python },
    );
    assert.deepEqual(valueOf(finite), { $: 'iter', v: [3, 2, 1] });
    assert.ok(finite.kind === 'return' && finite.lines.length === 4, JSON.stringify(finite));
    assert.equal(endless.kind === 'unpinnable' && endless.why, 'an iterator of more than 200 items');
  });

  it('a module that fails to import, or exits while importing, is reported for every call; nothing is pinned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-pychar-bad-'));
    try {
      writeFileSync(join(dir, 'broken.py'), "raise RuntimeError('needs a database')\n");
      writeFileSync(join(dir, 'quits.py'), 'import os\nos._exit(3)\n');
      const calls = [
        { id: 'a', path: ['f'], args: [] },
        { id: 'b', path: ['g'], args: [1] },
      ];
      const broken = await runInPythonSandbox(join(dir, 'broken.py'), dir, calls, LIMITS, { python });
      assert.deepEqual(broken, [
        { id: 'a', kind: 'crash', detail: 'the module did not load: RuntimeError: needs a database' },
        { id: 'b', kind: 'crash', detail: 'the module did not load: RuntimeError: needs a database' },
      ]);
      const quits = await runInPythonSandbox(join(dir, 'quits.py'), dir, calls, LIMITS, { python });
      assert.deepEqual(
        quits.map((r) => r.kind === 'crash' && r.detail.slice(0, 7)),
        ['exit 3:', 'exit 3:'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the module is imported by its package path from the root, or from src/', () => {
    assert.deepEqual(importOf(MOD, ROOT), { module: 'pychar.basics', path: ROOT });
    assert.deepEqual(importOf('/w/src/pkg/__init__.py', '/w'), { module: 'pkg', path: '/w/src' });
  });

  it("the project's virtualenv python runs its code (its dependencies are there), else the verifier's python3", () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-pychar-venv-'));
    try {
      assert.equal(projectPython(dir), python);
      mkdirSync(join(dir, '.venv', 'bin'), { recursive: true });
      writeFileSync(join(dir, '.venv', 'bin', 'python'), '');
      assert.equal(projectPython(dir), join(dir, '.venv', 'bin', 'python'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Python characterization results', () => {
  let python: string;
  before(() => {
    python = requirePytest();
  });

  it('output that differs between two runs (time.time, random.random) is discarded', async () => {
    const m = await characterizePythonModule(MOD, ROOT, [{ path: ['stamp'], arity: 1, signature: 'stamp(label: str) -> str' }], {
      limits: LIMITS,
      python,
    });
    assert.equal(m.cases.length, 0);
    assert.equal(m.stable, 0);
    assert.ok(m.unstable > 5, `${m.unstable} sequences that drew from random`);
  });

  it('a result drawn from the random module is unstable even when both runs happen to agree (a coin toss does half the time)', async () => {
    const m = await characterizePythonModule(MOD, ROOT, [{ path: ['coin'], arity: 0, signature: 'coin() -> str' }], {
      limits: LIMITS,
      python,
    });
    assert.deepEqual([m.stable, m.cases.length], [0, 0]);
    assert.ok(m.unstable > 0);
  });

  it('output that depends on the calls before it (module state) is discarded: each kept sequence is replayed twice in a row', async () => {
    const m = await characterizePythonModule(MOD, ROOT, [{ path: ['remember'], arity: 1, signature: 'remember(item: str) -> int' }], {
      limits: LIMITS,
      python,
    });
    assert.deepEqual([m.stable, m.cases.length], [0, 0]);
    assert.ok(m.unstable >= 1);
  });

  it('keeps one sequence per branch and one per raised exception; inputs from the hints and the literals in the source (and their neighbours)', async () => {
    const targets = [
      { path: ['grade'], arity: 1 },
      { path: ['check'], arity: 1 },
    ];
    const m = await characterizePythonModule(MOD, ROOT, targets, { limits: LIMITS, python, mutation: false });
    const pinnedOf = (cases: typeof m.cases) =>
      cases
        .map(
          (c) =>
            `${c.path[0]} ${c.oracle.kind === 'throws' ? `${c.oracle.errorName}: ${c.oracle.message}` : JSON.stringify(c.oracle.value)}`,
        )
        .map((p) => p.replace(/-\d+$/, '-N').replace(/^check \d+$/, 'check N'))
        .sort();
    const pinned = pinnedOf(m.cases);
    // With mutants as a second objective, a sequence is added only where it kills a mutant no other kept one kills
    // (a boundary of `score >= 90`, say); every sequence kept for coverage stays.
    const guided = await characterizePythonModule(MOD, ROOT, targets, { limits: LIMITS, python });
    const added = guided.cases.filter((c) => !m.cases.some((x) => x.id === c.id));
    assert.ok(
      m.cases.every((c) => guided.cases.some((x) => x.id === c.id)),
      'the coverage picks stay',
    );
    assert.ok(
      added.every((c) => (c.arcs ?? []).some((a) => a.startsWith('mutant:'))),
      'each added sequence kills a mutant',
    );
    // 101 is not written in check's source: it is the neighbour of its literal 100
    assert.deepEqual(pinned, [
      'check N',
      'check pychar.basics.TooBig: too big: 101',
      'grade "A"',
      'grade "B"',
      'grade "C"',
      'grade "F"',
      'grade ValueError: score must not be negative: -N',
    ]);
    assert.equal(m.unstable, 0);
    assert.equal(new Set(m.cases.flatMap((c) => c.lines)).size, m.lines, 'the kept sequences cover every line the stable ones cover');
  });

  it('hints become input kinds; only the required positional parameters are passed', () => {
    assert.equal(pyKind('Optional[Dict[str, int]]'), 'object');
    assert.equal(pyKind('int | None'), 'number');
    assert.equal(pyKind('Union[str, None]'), 'string');
    assert.equal(pyKind('typing.Sequence[str]'), 'array');
    assert.equal(pyKind('Union[int, str]'), 'unknown');
    assert.equal(pyKind(undefined), 'unknown');
    assert.deepEqual(pySeed({ arity: 5, signature: 'def f(self, a: List[Tuple[int, int]], b: float, c=1, *rest, d: str, **kw) -> None' }), {
      arity: 2,
      signature: '(a: array, b: number)',
    });
    const calls = pythonCalls([{ path: ['f'], arity: 1, signature: 'f(x: bool)' }], 80);
    assert.deepEqual(
      calls.map((c) => c.args),
      [[true], [false]],
    );
    const unknown = pythonCalls([{ path: ['g'], arity: 1 }], 80).map((c) => JSON.stringify(c.args));
    assert.equal(new Set(unknown).size, unknown.length, 'undefined and null are both None: the repeat is dropped');
    assert.ok(unknown.includes('[null]'));
  });

  it('values are written as Python: call arguments as code, expected results as literals the pytest renderer reads', () => {
    assert.equal(
      pyLiteral(tag([NaN, Infinity, -Infinity, -0, 2.5, null, true, 'it\'s "q"'])),
      `[float('nan'), float('inf'), float('-inf'), -0.0, 2.5, None, True, "it's \\"q\\""]`,
    );
    assert.equal(pyLiteral({ $: 'tuple', v: [1] }), '(1,)');
    assert.equal(pyLiteral({ $: 'obj', v: { a: { $: 'big', v: '12345678901234567890' } } }), '{"a": 12345678901234567890}');
    assert.equal(pyLiteral({ $: 'bytes', v: Buffer.from("a'\n\x00\xff").toString('hex') }), 'b"a\'\\n\\x00\\xc3\\xbf"');
    assert.equal(pyExpected({ $: 'num', v: 'NaN' }), 'nan');
    assert.equal(pyExpected({ $: 'tuple', v: ['a', { $: 'num', v: '-Infinity' }] }), '("a", -1e999)');
  });

  it('a failing Python characterization test is never called a possible bug', () => {
    const c: CharCase = { id: 'grade#0', path: ['grade'], args: [95], oracle: { kind: 'equals', value: 'A' }, lines: [], spans: [] };
    const tc = pyCharToTestCase(c, 'pychar/basics.py')!;
    assert.ok(tc.title.startsWith(CHAR_PREFIX));
    assert.equal(tc.title, `${CHAR_PREFIX}grade(95) returns the observed value`);
    assert.equal(tc.priority, 'P2');
    assert.deepEqual(tc.oracle, {
      kind: 'equals',
      language: 'python',
      bindings: [{ local: 'mod', import: 'module' }],
      call: 'mod.grade(95)',
      expected: '"A"',
    });
    const verdict = classifyFailure({
      framework: 'pytest',
      testCase: tc,
      testText: 'def test_x():\n    actual = mod.grade(95)\n    assert actual == "A"',
      fileText: '',
      message: "AssertionError: assert 'B' == 'A'",
    });
    assert.equal(verdict.kind, 'test_wrong');
    assert.match(verdict.reason, /pins current behaviour and cannot reveal a bug/);
  });

  it('writes a pytest file from the kept cases that passes 3 of 3 under pytest', async function () {
    this.timeout(180_000);
    const dir = mkdtempSync(join(tmpdir(), 'amtp-pychar-test-'));
    try {
      cpSync(ROOT, dir, { recursive: true });
      const m = await characterizePythonModule(
        join(dir, 'pychar', 'basics.py'),
        dir,
        [
          { path: ['grade'], arity: 1, signature: 'grade(score: int) -> str', source: '90 75 50' },
          { path: ['split_pair'], arity: 2, signature: "split_pair(text: str, sep: str = '=') -> tuple", source: '"="' },
          { path: ['summarize'], arity: 1, signature: 'summarize(values: list) -> dict' },
          { path: ['ratio'], arity: 2, signature: 'ratio(a: float, b: float) -> float' },
          { path: ['special'], arity: 1, signature: 'special(kind: str)', source: '"nan" "tuple" "bytes" "big" "neg"' },
          { path: ['check'], arity: 1, signature: 'check(n: int) -> int', source: '100' },
          { path: ['load'], arity: 1, signature: 'load(text: str)' },
          { path: ['countdown'], arity: 1, signature: 'countdown(n: int)', source: '101' },
        ],
        { limits: LIMITS, python },
      );
      assert.equal(readdirSync(join(dir, 'pychar')).includes('__pycache__'), false, 'characterizing wrote no .pyc into the project');
      const oracles = m.cases.map((c) => c.oracle);
      assert.ok(oracles.some((o) => o.kind === 'throws' && o.errorName === 'ZeroDivisionError' && /division by zero$/.test(o.message)));
      assert.ok(oracles.some((o) => o.kind === 'throws' && o.errorName === 'ValueError' && /^no separator in '.*'$/.test(o.message)));
      assert.ok(oracles.some((o) => o.kind === 'deep_equals' && JSON.stringify(o.value) === '{"$":"obj","v":{"count":0}}'));
      const pinned = m.cases.map(
        (c) => `${c.path[0]} ${JSON.stringify(c.oracle.kind === 'throws' ? [c.oracle.errorName, c.oracle.message] : c.oracle.value)}`,
      );
      for (const want of [
        'special {"$":"num","v":"NaN"}',
        'special {"$":"tuple","v":[1,"a",null]}',
        'special {"$":"bytes","v":"006127"}',
        'special {"$":"big","v":"1180591620717411303424"}',
        'special {"$":"tuple","v":[{"$":"num","v":"-Infinity"},{"$":"num","v":"-0"}]}',
        'check ["pychar.basics.TooBig","too big: 101"]',
        'countdown ["ValueError","too long: 101"]',
      ])
        assert.ok(pinned.includes(want), `${want} in\n${pinned.join('\n')}`);
      assert.ok(pinned.some((p) => p.startsWith('load ["json.decoder.JSONDecodeError",')));
      const plan: TestCases = {
        schema_version: '1',
        depth_level: 'standard',
        project: {
          name: 'pychar',
          language: 'python',
          module_system: 'python',
          typescript: false,
          test_setup: { framework: 'pytest', test_dirs: ['tests'], config_files: [] },
        },
        cases: m.cases.map((c) => pyCharToTestCase(c, 'pychar/basics.py')!),
      } as TestCases;
      const valid = validate('test-cases', plan);
      assert.ok(valid.ok, JSON.stringify(valid));
      const out = engineerTests(plan, 'pytest');
      assert.deepEqual(out.not_written, []);
      const [file] = out.files;
      assert.equal(file.caseIds.length, m.cases.length);
      assert.match(file.content, /import pychar\.basics as mod/);
      assert.match(file.content, /with pytest\.raises\(ZeroDivisionError\) as excinfo:\n\s+mod\.ratio\(/);
      assert.match(
        file.content,
        /with pytest\.raises\(mod\.TooBig\) as excinfo:\n\s+mod\.check\(101\)\n\s+actual = str\(excinfo\.value\)\n\s+assert actual == "too big: 101"/,
      );
      assert.match(file.content, /actual = mod\.special\("nan"\)\n\s+assert math\.isnan\(actual\)/);
      assert.match(file.content, /actual = list\(mod\.countdown\((\d+)\)\)\n\s+assert actual == \[\1, /);
      // a generator raises only once iterated: the test iterates inside pytest.raises
      assert.match(
        file.content,
        /with pytest\.raises\(ValueError\) as excinfo:\n\s+list\(mod\.countdown\(101\)\)\n\s+actual = str\(excinfo\.value\)\n\s+assert actual == "too long: 101"/,
      );
      mkdirSync(join(dir, dirname(file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.content);
      for (let i = 0; i < 3; i++) {
        const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', file.path], { cwd: dir, encoding: 'utf8' });
        assert.equal(run.status, 0, run.stdout + run.stderr);
        assert.match(run.stdout, new RegExp(`\\b${m.cases.length} passed\\b`));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
