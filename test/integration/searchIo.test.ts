// The offline search on test/fixtures/seqio, two causes of the 2026-11-25 reported set:
// - a class that extends EventEmitter and binds its methods in its constructor (node-cache@5.1.2):
//   every kept test pinned node's own `_events`, a null-prototype object no `{}` deep-equals, and all
//   failed under mocha; its own state (`options`, a null-prototype `data`) is what a test checks;
// - a function that reads a file descriptor or standard input (jsonfile@6.1.0's readFileSync(0)):
//   such a sequence is never pinned, and the kept tests pass with standard input an open pipe (as
//   under a terminal or a CI runner that never closes it), where reading it would block.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadJsParser } from '../../server/src/util/jsParser';
import { searchModule, type ModuleSearch } from '../../server/src/search/engine';

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/cli.js');
const SEQIO = join(REPO, 'test/fixtures/seqio');
const WORK = join(REPO, 'test-output');

async function search(root: string, runs: number): Promise<ModuleSearch> {
  const parser = await loadJsParser();
  return searchModule(
    {
      modulePath: join(root, 'index.js'),
      root,
      file: 'index.js',
      language: 'javascript',
      binding: { local: 'lib', import: 'module' },
      seeds: new Map(),
    },
    { parser, executions: runs },
  );
}

const textOf = (m: ModuleSearch) =>
  m.cases.map((c) => `${c.title}\n${c.oracle?.setup ?? ''}\n${c.oracle?.call}\n${JSON.stringify(c.oracle?.checks ?? [])}`).join('\n---\n');

/** Runs mocha on `files` in `dir` with standard input a pipe that stays open; resolves with its exit and output. */
function mochaWithOpenStdin(dir: string, files: string[]): Promise<{ code: number | null; output: string; killed: boolean }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO, 'node_modules/mocha/bin/mocha.js'), '--no-config', '--reporter', 'dot', ...files], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let killed = false;
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output, killed });
    });
  });
}

describe('search: node-internal state and standard input (test/fixtures/seqio)', function () {
  this.timeout(600_000);
  let m: ModuleSearch;
  before(async () => {
    m = await search(SEQIO, 900);
  });

  it("a class extending EventEmitter with bound methods: its own state is pinned, never node's `_events`", () => {
    const text = textOf(m);
    assert.ok(
      m.cases.some((c) => /new lib\.Store\(/.test(`${c.oracle?.setup}\n${c.oracle?.call}`)),
      text,
    );
    assert.doesNotMatch(text, /_events|_eventsCount|_maxListeners/, 'node’s own fields are not the class’s state');
    assert.match(text, /Object\.create\(null\)/, 'the null-prototype dictionary is written as one');
  });

  it('a sequence that reads standard input, a descriptor it did not open or the command line is never pinned', () => {
    const text = textOf(m);
    assert.ok(!m.cases.some((c) => /\bflags\(/.test(`${c.oracle?.setup}\n${c.oracle?.call}`)), 'process.argv is the test runner’s');
    // readFd(undefined) throws node's own TypeError before reading anything: that one may stay
    assert.ok(!m.cases.some((c) => /\b(?:readFd|readJson)\(\s*-?\d|\bask\(/.test(`${c.oracle?.setup}\n${c.oracle?.call}`)), text);
    assert.ok(m.sideEffects > 0, 'the refused reads are counted as side effects');
  });

  it('through the pipeline under mocha: the kept tests pass 3 of 3 with standard input an open pipe', async () => {
    mkdirSync(WORK, { recursive: true });
    const dir = mkdtempSync(join(WORK, 'seqio-'));
    try {
      cpSync(SEQIO, dir, { recursive: true });
      const r = spawnSync(
        process.execPath,
        [CLI, 'generate', dir, '--provider', 'offline', '--framework', 'mocha', '--yes', '--json', '--search-budget', '6'],
        {
          encoding: 'utf8',
          timeout: 540_000,
        },
      );
      assert.equal(r.status, 0, `amtp generate exited ${r.status}: ${r.stderr.slice(-2000)}`);
      const summary = JSON.parse(r.stdout) as {
        files: { path: string }[];
        verification: { results: { outcome: string; test?: string }[] };
      };
      const passing = summary.verification.results.filter((x) => x.outcome === 'passing');
      const kept = passing.length;
      // the store's tests compare its null-prototype `data` (the engineer writes them: jsChecks.ts)
      assert.ok(
        passing.some((x) => /Store\(/.test(x.test ?? '')),
        JSON.stringify(summary.verification.results),
      );
      const files = summary.files.map((f) => f.path).filter((p) => /\.test\./.test(p));
      for (let i = 0; i < 3; i++) {
        const run = await mochaWithOpenStdin(dir, files);
        assert.equal(run.killed, false, `a kept test waited for standard input:\n${run.output.slice(-2000)}`);
        assert.equal(run.code, 0, run.output.slice(-3000));
        assert.match(run.output, new RegExp(`${kept} passing`));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
