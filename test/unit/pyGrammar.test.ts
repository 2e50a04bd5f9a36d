import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { firstError, withPythonTree } from '../../server/src/frameworks/pyTree';

const ROOT = path.resolve(__dirname, '..', '..');
const TREE = path.join(ROOT, 'server/src/frameworks/pyTree.ts');

/** A fresh node that parses Python with `script` run first; its stderr and status. */
function parseInFreshProcess(script: string): { status: number | null; stderr: string } {
  const code = `${script}; Promise.resolve(loaded).then(() => console.log(require(${JSON.stringify(TREE)}).withPythonTree('x = 1', (r) => r.type)))`;
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', code], { timeout: 30_000, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr + r.stdout };
}

describe('Python grammar loading (frameworks/pyGrammar.ts)', () => {
  it('a process that never loaded the grammar fails its first parse loudly, naming the missing preload', function () {
    this.timeout(60_000);
    const r = parseInFreshProcess('const loaded = undefined');
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /the Python grammar is not loaded: the entry point that led here must await loadPython\(\)/);
  });

  it('after loadPython() the same parse is synchronous', function () {
    this.timeout(60_000);
    const r = parseInFreshProcess(
      `const loaded = require(${JSON.stringify(path.join(ROOT, 'server/src/frameworks/pyGrammar.ts'))}).loadPython()`,
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /^module$/m);
  });

  it("each process's entry point loads it before any command or request runs", () => {
    for (const entry of ['server/src/cli/main.ts', 'server/src/server.ts', 'server/src/agents/crawler/pyWorker.ts'])
      assert.match(readFileSync(path.join(ROOT, entry), 'utf8'), /await loadPython\(\)|loadPython\(\)\.catch|= loadPython\(\)/, entry);
  });

  it('reports the first syntax error, where CPython would (bare `yield` is valid)', () => {
    assert.equal(withPythonTree('def f():\n    yield\n', firstError), undefined);
    assert.equal(
      withPythonTree('x = (1,\ny = 2\n', (root) => firstError(root) !== undefined),
      true,
    );
  });
});
