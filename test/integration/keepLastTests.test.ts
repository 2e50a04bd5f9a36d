// The keep rule never leaves a function under test without a test (the is-what relay run, F11):
// `isShout` calls `isString`, so the shout tests cover all of `isString`'s code and kill its
// mutants, and `isString`'s own documented tests added nothing. They used to be dropped, all of
// them (per test, and per file above maxCoverageRuns), leaving a public, documented function with
// no test and its documented values unasserted. Now its best documented test (its file, per file) stays.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_VERIFY } from '../../server/src/core/run';
import { resolveParams } from '../../server/src/pipeline/config';
import { startRun } from '../../server/src/pipeline/orchestrator';
import { offlineDeps } from '../helpers/pipelineDeps';

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'shoutkit', version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' } }),
  'index.js': "module.exports = { ...require('./lib/str'), ...require('./lib/shout') };\n",
  'lib/str.js':
    "/**\n * Whether a value is a string.\n * @example isString('a') // => true\n */\nfunction isString(value) {\n  return typeof value === 'string';\n}\nmodule.exports = { isString };\n",
  'lib/shout.js':
    "const { isString } = require('./str');\n/**\n * Whether a value is a shouted string.\n * @example isShout('HEY') // => true\n * @example isShout('hey') // => false\n * @example isShout(5) // => false\n */\nfunction isShout(value) {\n  return isString(value) && value === value.toUpperCase();\n}\nmodule.exports = { isShout };\n",
};

describe("verifier: a function's last test is never dropped for adding no coverage", function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => fsp.rm(d, { recursive: true, force: true }))));

  async function verify(maxCoverageRuns: number) {
    const ws = await fsp.mkdtemp(path.join(tmpdir(), 'amtp-last-'));
    dirs.push(ws);
    for (const [p, text] of Object.entries(FILES)) {
      await fsp.mkdir(path.dirname(path.join(ws, p)), { recursive: true });
      await fsp.writeFile(path.join(ws, p), text);
    }
    const run = await startRun(offlineDeps(ws), {
      ...resolveParams({ provider: 'offline' }),
      verify: { ...DEFAULT_VERIFY, runs: 1, maxCoverageRuns },
      characterize: false,
    });
    assert.equal(run.status, 'completed', run.reason);
    return run.verification!;
  }

  for (const [mode, max] of [
    ['per test', 60],
    ['per file', 1],
  ] as const) {
    it(`${mode}: isString keeps its documented test, though isShout's tests cover its code`, async () => {
      const v = await verify(max);
      const passing = v.results.filter((r) => r.outcome === 'passing').map((r) => r.test);
      assert.ok(
        passing.some((t) => /isString/.test(t ?? '')),
        `a test of isString is kept: ${JSON.stringify(v.results.map((r) => [r.test, r.outcome, r.reason]))}`,
      );
      assert.ok(passing.filter((t) => /isShout/.test(t ?? '')).length >= 1);
    });
  }
});
