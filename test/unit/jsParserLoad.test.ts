import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const PARSER = path.join(ROOT, 'server/src/util/jsParser.ts');

/** A fresh node that parses `x = 1` synchronously with `script` run first; its output and status. */
function parseInFreshProcess(script: string): { status: number | null; out: string } {
  const code = `${script}; Promise.resolve(loaded).then(() => console.log(require(${JSON.stringify(PARSER)}).jsParser().parse('a.js', 'x = 1').program.body[0].type))`;
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', code], { timeout: 30_000, encoding: 'utf8' });
  return { status: r.status, out: r.stderr + r.stdout };
}

describe('JavaScript parser loading (util/jsParser.ts)', () => {
  it('a process that never loaded oxc fails its first synchronous parse loudly, naming the missing preload', function () {
    this.timeout(60_000);
    const r = parseInFreshProcess('const loaded = undefined');
    assert.notEqual(r.status, 0);
    assert.match(r.out, /the JavaScript parser is not loaded: the entry point that led here must await loadJsParser\(\)/);
  });

  it('after loadJsParser() the same parse is synchronous', function () {
    this.timeout(60_000);
    const r = parseInFreshProcess(`const loaded = require(${JSON.stringify(PARSER)}).loadJsParser()`);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /^ExpressionStatement$/m);
  });

  it("each process's entry point loads it before any command or request runs", () => {
    for (const entry of ['server/src/cli/main.ts', 'server/src/server.ts'])
      assert.match(readFileSync(path.join(ROOT, entry), 'utf8'), /loadJsParser\(\)\.catch/, entry);
  });
});
