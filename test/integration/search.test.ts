// The offline search of call sequences (server/src/search/) on small fixtures of its own
// (test/fixtures/seqlib: a class, a callback API, a promise API, an emitter and a stream, file-system
// helpers; test/fixtures/seqts: a TypeScript class) and on a real published package (yallist,
// vendored): sequences are built and pinned, the written tests pass 3 of 3 under node:test, mocha and
// jest, nothing is written outside a temporary folder, and two runs write byte-identical files.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { loadJsParser } from '../../server/src/util/jsParser';
import type { Framework } from '../../server/src/core/frameworks';
import { runTests } from '../../server/src/frameworks/runner';
import { searchModule, type ModuleSearch, type SearchJob } from '../../server/src/search/engine';
import { killedMutants, mutantGoal } from '../../server/src/search/mutants';
import { searchInstrumenter } from '../../server/src/characterize/searchMutants';
import { DEFAULT_SEARCH_LIMITS } from '../../server/src/search/child';
import { unpackNpmPackage } from '../helpers/npmPack';

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/cli.js');
const WORK = join(REPO, 'test-output');
const SEQLIB = join(REPO, 'test/fixtures/seqlib');

async function search(root: string, file: string, runs = 700, language: SearchJob['language'] = 'javascript'): Promise<ModuleSearch> {
  const parser = await loadJsParser();
  const job: SearchJob = {
    modulePath: join(root, file),
    root,
    file,
    language,
    binding: { local: 'lib', import: 'module' },
    seeds: new Map(),
  };
  return searchModule(job, { parser, executions: runs });
}

function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** The temporary folders the written tests make (`amtp-` and six characters), which they must remove. */
const testTemps = () => readdirSync(tmpdir()).filter((d) => /^amtp-[A-Za-z0-9]{6}$/.test(d)).length;

describe('search: sequences on the fixtures', function () {
  this.timeout(300_000);

  it('a class: constructs it, calls its methods, pins its state and its own error with the message', async () => {
    const m = await search(SEQLIB, 'stack.js');
    const text = m.cases
      .map((c) => `${c.title}\n${c.oracle?.setup ?? ''}\n${c.oracle?.call}\n${JSON.stringify(c.oracle?.checks ?? [])}`)
      .join('\n---\n');
    assert.ok(
      m.cases.some((c) => /new lib\.Stack\(/.test(c.oracle?.setup ?? '') && /stack\.\w+\(/.test(`${c.oracle?.setup}\n${c.oracle?.call}`)),
      text,
    );
    const empty = m.cases.find((c) => c.oracle?.error === 'EmptyStackError');
    assert.ok(empty, text);
    assert.equal(empty!.oracle!.expected, '"the stack is empty"');
    assert.ok(
      m.cases.some((c) => (c.oracle?.checks ?? []).some((k) => /\{ \.\.\.stack\d* \}|stack\d*\.size/.test(k.call))),
      'an instance is checked through its state',
    );
    assert.ok(!m.cases.some((c) => /typeof/.test(`${c.oracle?.call}`)), 'never an "is a function" check');
    assert.deepEqual(
      m.symbols
        .filter((s) => s.startsWith('Stack'))
        .sort()
        .slice(0, 2),
      ['Stack', 'Stack.isEmpty'],
    );
  });

  it('callbacks (node-style, called later) are awaited and their calls pinned; an argument the code sorts is checked', async () => {
    const m = await search(SEQLIB, 'callbacks.js');
    const read = m.cases.find((c) => c.target.symbol === 'readJson' && /await waited/.test(c.oracle?.setup ?? ''));
    assert.ok(read, m.cases.map((c) => c.title).join('\n'));
    assert.ok((read!.oracle!.checks ?? []).some((k) => /^calls\d+/.test(k.call)));
    assert.ok(m.cases.some((c) => c.target.symbol === 'sortInPlace' && (c.oracle?.checks ?? []).some((k) => /^arg\d*$/.test(k.call))));
  });

  it('promises are awaited, rejections pinned by class and message', async () => {
    const m = await search(SEQLIB, 'promises.js');
    assert.ok(m.cases.some((c) => /^await /.test(c.oracle?.call ?? '') && c.oracle?.kind !== 'throws'));
    const rejected = m.cases.find((c) => c.oracle?.error === 'RangeError');
    assert.equal(rejected?.oracle?.expected, '"settle needs a value"');
  });

  it('an emitter is listened to and a stream read to its end', async () => {
    const m = await search(SEQLIB, 'emitter.js', 900);
    const all = m.cases.map((c) => c.oracle?.setup ?? '').join('\n');
    assert.match(
      all,
      /\.on\(name, \(\.\.\.args\) => (?:events\d*\.push\(\[name, \.\.\.args\]\)\)|\{\n\s*events\d*\.push\(\[name, \.\.\.args\]\);)/,
    );
    assert.match(all, /for await \(const item of /);
  });

  it('a writable stream: text is written into it and it is ended, and the test waits for and pins the lines it emits', async () => {
    const root = join(REPO, 'test/fixtures/seqstream');
    const m = await search(root, 'lines.js', 500);
    const fed = m.cases.filter((c) => /\.write\(".*"\);?/.test(c.oracle?.setup ?? '') && /\.end\(\)/.test(c.oracle?.setup ?? ''));
    assert.ok(fed.length >= 1, m.cases.map((c) => `${c.title}\n${c.oracle?.setup}`).join('\n---\n'));
    // the data comes after end() returns: the test waits for as many events as the search saw, then checks them
    const heard = fed.filter((c) => /await events\d*Heard;/.test(c.oracle?.setup ?? ''));
    assert.ok(heard.length >= 1, fed.map((c) => c.oracle?.setup).join('\n---\n'));
    const checks = JSON.stringify(heard.map((c) => c.oracle?.checks));
    assert.match(checks, /"call":"events\d*","kind":"deep_equals","expected":"\[\[\\"data\\", /, checks);
  });

  it('a callback called only by a later step (the wrapper it was passed to) has those calls pinned', async () => {
    const root = join(REPO, 'test/fixtures/seqstream');
    const m = await search(root, 'deferred.js', 300);
    const pinned = m.cases.filter((c) => (c.oracle?.checks ?? []).some((k) => /^calls\d+$/.test(k.call) && k.expected !== '[]'));
    assert.ok(
      pinned.length >= 1,
      m.cases.map((c) => `${c.title}\n${c.oracle?.setup}\n${JSON.stringify(c.oracle?.checks)}`).join('\n---\n'),
    );
    assert.ok(
      m.cases.some((c) => /calls back/.test(c.title)),
      m.cases.map((c) => c.title).join('\n'),
    );
  });

  it('tasks that call back and generator functions: the results and errors they deliver are pinned', async () => {
    const root = join(REPO, 'test/fixtures/seqtasks');
    const series = await search(root, 'series.js', 400);
    const checks = (c: ModuleSearch['cases'][number]) => JSON.stringify(c.oracle?.checks ?? []);
    const dump = (m: ModuleSearch) => m.cases.map((c) => `${c.title}\n${c.oracle?.setup}\n${checks(c)}`).join('\n---\n');
    // series([task], done): the task called back with its value, and done got the results
    assert.ok(
      series.cases.some((c) => /"expected":"\[\[null, \[\d/.test(checks(c))),
      dump(series),
    );
    assert.ok(
      series.cases.some((c) => /\.message","kind":"equals","expected":"\\"task \d+ failed\\""/.test(checks(c))),
      dump(series),
    );
    // run(function* () { yield … }): a generator is passed, run to its end, and what it settled to pinned
    const gen = await search(root, 'gen.js', 300);
    assert.ok(
      gen.cases.some(
        (c) =>
          /function\* /.test(c.oracle?.setup ?? '') &&
          /^await /.test(c.oracle?.call ?? '') &&
          /task \d+ failed|^-?\d/.test(c.oracle?.expected ?? ''),
      ),
      dump(gen),
    );
  });

  it("a call that leaves an unref'd timeout behind is never pinned: it would fire in the middle of later tests", async () => {
    const m = await search(join(REPO, 'test/fixtures/seqtimers'), 'unref.js', 300);
    const calls = (c: ModuleSearch['cases'][number]) => `${c.oracle?.setup ?? ''}\n${c.oracle?.call ?? ''}`;
    assert.ok(
      m.cases.some((c) => /lib\.label\(/.test(calls(c))),
      m.cases.map(calls).join('\n---\n'),
    );
    // every schedule call leaves a timeout due in 1 s, kept alive or unref'd: none is settled, none pinned
    assert.ok(!m.cases.some((c) => /lib\.schedule\(/.test(calls(c))), m.cases.map(calls).join('\n---\n'));
  });

  it('a call that leaves thread-pool work running (a native key generation) is never pinned: its test would keep the runner alive', async () => {
    const m = await search(join(REPO, 'test/fixtures/seqtimers'), 'keys.js', 300);
    const calls = (c: ModuleSearch['cases'][number]) => `${c.oracle?.setup ?? ''}\n${c.oracle?.call ?? ''}`;
    const all = m.cases.map((c) => `${calls(c)}\n${JSON.stringify(c.oracle?.checks)}`).join('\n---\n');
    // the small key is ready within the wait: its callback is pinned with the key's size
    assert.ok(
      m.cases.some((c) => /lib\.smallKey\(/.test(calls(c)) && JSON.stringify(c.oracle).includes('512')),
      all,
    );
    // the big one takes minutes on Node's thread pool, which lists no timer or handle for it
    assert.ok(!m.cases.some((c) => /lib\.bigKey\(\s*(?:callback|function|\()/.test(calls(c))), all);
  });

  it('an argument the object keeps is observed as the steps left it, not as trying its methods left it', async () => {
    const root = join(REPO, 'test/fixtures/seqstream');
    const m = await search(root, 'keeper.js', 300);
    // new Keeper(arr) with nothing taken: the array is as it was, whatever the inspection of take() did
    const built = m.cases.filter((c) => /new lib\.Keeper\(/.test(c.oracle?.setup ?? '') && !/\.take\(\)/.test(JSON.stringify(c.oracle)));
    assert.ok(built.length >= 1, m.cases.map((c) => `${c.title}\n${c.oracle?.setup}`).join('\n---\n'));
    for (const c of built)
      assert.ok(!(c.oracle?.checks ?? []).some((k) => /^arg\d*$/.test(k.call)), `${c.oracle?.setup}\n${JSON.stringify(c.oracle?.checks)}`);
  });

  it('a callback only the reading of the result calls (a proxy trap) is never waited for: the test would wait for ever', async () => {
    const root = join(REPO, 'test/fixtures/seqstream');
    const m = await search(root, 'guarded.js', 300);
    assert.ok(m.cases.length >= 1);
    for (const c of m.cases) assert.doesNotMatch(c.oracle?.setup ?? '', /await waited\d+;/, c.oracle?.setup);
  });

  it('file-system helpers write only inside the test folder: a write elsewhere is never pinned', async () => {
    const before = listing(SEQLIB);
    const m = await search(SEQLIB, 'fsutil.js');
    assert.ok(m.sideEffects > 0, 'the search tried writing elsewhere');
    const writes = m.cases.filter((c) => c.target.symbol === 'writeJson' && c.oracle?.kind !== 'throws');
    assert.ok(writes.length >= 1);
    for (const c of writes) {
      assert.ok(c.oracle!.temp_dir, c.title);
      assert.match(c.oracle!.call ?? '', /\$\{tmp\}|\btmp\b/);
    }
    assert.ok(
      !m.cases.some((c) => c.target.symbol === 'touchHere' && /touchHere\("/.test(c.oracle?.call ?? '') && c.oracle?.kind !== 'throws'),
    );
    assert.deepEqual(listing(SEQLIB), before);
  });

  it('TypeScript sources: a class compiled in memory, its error pinned', async () => {
    const root = join(REPO, 'test/fixtures/seqts');
    const m = await search(root, 'src/queue.ts', 700, 'typescript');
    assert.ok(m.cases.some((c) => /new lib\.Queue\(/.test(`${c.oracle?.setup}\n${c.oracle?.call}`)));
    assert.ok(
      m.cases.some((c) => c.oracle?.error === 'RangeError' && /queue is full/.test(c.oracle.expected ?? '')),
      m.cases.map((c) => c.title).join('\n'),
    );
    assert.ok(m.cases.every((c) => c.oracle?.language === 'typescript'));
  });

  it('the same module gives the same cases on every run', async () => {
    const a = await search(SEQLIB, 'callbacks.js', 400);
    const b = await search(SEQLIB, 'callbacks.js', 400);
    assert.deepEqual(a.cases, b.cases);
    assert.equal(a.executed, b.executed);
  });

  it('the count of runs bounds the search, not the clock; the safety stop, when it cuts, says so', async () => {
    const parser = await loadJsParser();
    const job: SearchJob = {
      modulePath: join(SEQLIB, 'callbacks.js'),
      root: SEQLIB,
      file: 'callbacks.js',
      language: 'javascript',
      binding: { local: 'lib', import: 'module' },
      seeds: new Map(),
    };
    const bounded = await searchModule(job, { parser, executions: 150, deadline: Date.now() + 600_000 });
    assert.equal(bounded.cutByClock, undefined);
    assert.ok(bounded.executed <= 150);
    const cut = await searchModule(job, { parser, executions: 150, deadline: Date.now() - 1 });
    assert.deepEqual([cut.cutByClock, cut.executed, cut.cases.length], [true, 0, 0]);
  });

  it('a real package (yallist 4.0.0): the list is built, filled and walked through its methods', async () => {
    const root = await unpackNpmPackage('yallist@4.0.0');
    const m = await search(root, 'yallist.js', 1200);
    assert.ok(m.reached / m.probes > 0.7, `${m.reached} of ${m.probes} statements and branches reached`);
    assert.ok(m.cases.length >= 15);
    assert.ok(m.cases.filter((c) => c.evidence?.snippet?.includes('sequence')).length >= 10);
  });
});

describe('search: the mutation hook', function () {
  this.timeout(60_000);

  it('a sequence kills a mutant when its observation differs with that mutant active', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-search-mut-'));
    try {
      const file = join(dir, 'add.js');
      cpSync(join(SEQLIB, 'package.json'), join(dir, 'package.json'));
      writeFileSync(file, 'exports.add = (a, b) => a + b;\n');
      // What Stryker's instrumenter writes: every mutant behind a check of the active one.
      const schema =
        "const ns = () => globalThis.__stryker__ || (globalThis.__stryker__ = {});\nexports.add = (a, b) => (ns().activeMutant === '1' ? a - b : ns().activeMutant === '2' ? a + b + 0 : a + b);\n";
      const seq = { id: 'a', steps: [{ op: 'call' as const, path: ['add'], args: [{ lit: 2 }, { lit: 3 }] }] };
      const baseline = {
        steps: [{ ok: true as const, async: false }],
        settled: true,
        values: [{ shape: { t: 'number' }, v: 5 }],
        mutated: [],
        callbacks: [],
        events: [],
      };
      const kills = await killedMutants(
        { module: file, root: dir, limits: DEFAULT_SEARCH_LIMITS },
        [{ seq, baseline }],
        { overrides: { [file]: schema }, mutants: ['1', '2'] },
        1,
      );
      assert.deepEqual(kills.get('a'), [mutantGoal('1')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('mutants guide the search: a class module keeps killers of nearly every mutant it reaches, each test asserting what notices them', async () => {
    const parser = await loadJsParser();
    const job: SearchJob = {
      modulePath: join(SEQLIB, 'stack.js'),
      root: SEQLIB,
      file: 'stack.js',
      language: 'javascript',
      binding: { local: 'lib', import: 'module' },
      seeds: new Map(),
    };
    const run = () => searchModule(job, { parser, executions: 700, instrument: searchInstrumenter(SEQLIB, ['stack.js']) });
    const m = await run();
    assert.ok(m.mutation, 'the mutation phase ran');
    assert.ok(m.mutation.mutants >= 20, JSON.stringify(m.mutation));
    assert.ok(m.mutation.killed >= m.mutation.covered - 2, JSON.stringify(m.mutation));
    const checks = m.cases.map((c) => c.oracle?.checks?.length ?? 0);
    assert.ok(
      checks.some((n) => n === 0),
      `a test whose main assertion notices all it kills asserts nothing more: ${checks}`,
    );
    // counted in runs: the same tests on every run
    assert.deepEqual(JSON.stringify((await run()).cases), JSON.stringify(m.cases));
  });
});

describe('search: through the pipeline, under real runners', function () {
  this.timeout(600_000);
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  function generate(framework: Framework, fixture = SEQLIB): { dir: string; files: string[]; summary: Record<string, unknown> } {
    mkdirSync(WORK, { recursive: true });
    const dir = mkdtempSync(join(WORK, `search-${framework}-`));
    dirs.push(dir);
    cpSync(fixture, dir, { recursive: true });
    const before = listing(dir);
    const r = spawnSync(
      process.execPath,
      [CLI, 'generate', dir, '--provider', 'offline', '--framework', framework, '--yes', '--json', '--search-budget', '6'],
      {
        encoding: 'utf8',
        timeout: 540_000,
      },
    );
    assert.equal(r.status, 0, `amtp generate exited ${r.status}: ${r.stderr.slice(-2000)}`);
    const summary = JSON.parse(r.stdout);
    const files = (summary.files as { path: string; action: string }[]).map((f) => f.path).filter((p) => /\.test\.|amtp\.jest/.test(p));
    const added = listing(dir).filter((f) => !before.includes(f) && !f.startsWith('.amtp/'));
    assert.deepEqual(
      added.filter((f) => !files.includes(f)),
      [],
      'the run wrote nothing but its test files',
    );
    return { dir, files: files.filter((f) => /\.test\./.test(f)), summary };
  }

  it('node:test: the kept sequence tests pass 3 of 3, clean up their folders, and a second run writes the same files', async () => {
    const first = generate('node-test');
    const c = first.summary.characterization as {
      status: string;
      sequences: { planned: number; kept: number };
      search: { executed: number };
    };
    assert.equal(c.status, 'done');
    assert.equal((c as { clockCut?: string[] }).clockCut, undefined, 'the count of runs, not the safety clock, ended every module');
    assert.ok(c.sequences.kept >= 5, JSON.stringify(c));
    // The Stack most class tests build first is built once per test by a beforeEach (frameworks/sharedSetup.ts).
    const stackFile = readFileSync(
      join(
        first.dir,
        first.files.find((f) => f.includes('stack'))!,
      ),
      'utf8',
    );
    assert.match(stackFile, /\n {4}beforeEach\(\(\) => \{\n {6}(stack\d*) = new stack\.Stack\(\);\n/);
    assert.doesNotMatch(stackFile, /\n {6}const stack\d* = new stack\.Stack\(\);/, 'no test of the nested block builds it itself');
    const temps = testTemps();
    for (let i = 0; i < 3; i++) {
      const run = await runTests('node-test', first.dir, first.files, { binDir: REPO });
      assert.equal(run.failed, 0, run.output.slice(-3000));
      assert.ok(run.passed >= 10);
    }
    assert.equal(testTemps(), temps, 'every test removed the folder it made');
    const second = generate('node-test');
    assert.deepEqual(second.files, first.files);
    for (const f of first.files) assert.equal(readFileSync(join(second.dir, f), 'utf8'), readFileSync(join(first.dir, f), 'utf8'), f);
  });

  it('mocha: tasks that call back and generator functions, as written, pass 3 of 3', async () => {
    const { dir, files } = generate('mocha', join(REPO, 'test/fixtures/seqtasks'));
    const text = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    assert.match(text, /= function\* \(\.\.\.args\) \{/, 'a generator function is passed');
    assert.match(text, /if \(typeof done === 'function'\)\s+(setImmediate\()?done\(/, 'a task calls back');
    for (let i = 0; i < 3; i++) {
      const run = await runTests('mocha', dir, files, { binDir: REPO });
      assert.equal(run.failed, 0, run.output.slice(-3000));
      assert.ok(run.passed >= 4, run.output.slice(-3000));
    }
  });

  for (const fw of ['mocha', 'jest'] as const) {
    it(`${fw}: the kept sequence tests pass 3 of 3`, async () => {
      const { dir, files, summary } = generate(fw);
      assert.ok((summary.characterization as { sequences: { kept: number } }).sequences.kept >= 5);
      assert.ok(existsSync(join(dir, files[0])));
      for (let i = 0; i < 3; i++) {
        const run = await runTests(fw, dir, files, { binDir: REPO });
        assert.equal(run.failed, 0, run.output.slice(-3000));
        assert.ok(run.passed >= 10);
      }
    });
  }
});
