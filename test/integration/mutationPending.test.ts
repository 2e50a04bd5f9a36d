// Mutants that leave a promise pending for ever (test/fixtures/mutation-async/README.md), under ava and
// mocha: each is a timeout killed by the tests that await it, and every other mutant still gets its
// verdict in the same runner process. Under ava a never-settling test used to end the whole file
// (its event loop drained), so every later round was lost: 52 of 67 p-limit@6.2.0 mutants came back
// with no verdict ("none of the tests that reach it ran").
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Framework } from '../../server/src/core/frameworks';
import { runMutation, type MutantResult } from '../../server/src/mutation';

const REPO = resolve(__dirname, '../..');
const WORK = join(REPO, 'test-output');
const IDS = ['tc_b00000000001', 'tc_b00000000002'];
const NEXT_BODY = '{\n    if (active < concurrency && waiting.length > 0) {\n      active++;\n      waiting.shift()();\n    }\n  }';

const CASES: [Framework, string][] = [
  ['ava', 'tests/ava.amtp.test.js'],
  ['mocha', 'tests/mocha.amtp.test.js'],
];

describe('mutation: mutants whose promise never settles', function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const [framework, file] of CASES) {
    it(`${framework}: each is a timeout, and no later mutant loses its verdict`, async () => {
      mkdirSync(WORK, { recursive: true });
      const ws = mkdtempSync(join(WORK, 'mutation-async-'));
      dirs.push(ws);
      cpSync(join(REPO, 'test/fixtures/mutation-async'), ws, { recursive: true });
      const o = await runMutation({
        workspace: ws,
        plan: { framework, binDir: REPO, args: [], env: {} },
        tests: IDS.map((caseId) => ({ caseId, file, target: 'src/limit.js' })),
        targets: ['src/limit.js'],
        budgetMs: 240_000,
        timeoutMs: 120_000,
      });
      assert.equal(o.skipped, undefined, o.skipped);
      const find = (original: string, replacement: string): MutantResult => {
        const m = o.mutants.find((x) => x.original === original && x.replacement === replacement);
        assert.ok(m, `${original} → ${replacement} in ${JSON.stringify(o.mutants.map((x) => `${x.original} → ${x.replacement}`))}`);
        return m;
      };
      // a task never starts: its promise is pending with nothing left to run
      const never = [
        find('active < concurrency && waiting.length > 0', 'false'),
        find(NEXT_BODY, '{}'),
        find('() => resolve(task())', '() => undefined'),
      ];
      for (const m of never) {
        assert.equal(m.status, 'timeout', JSON.stringify(m));
        assert.ok(m.killedBy.length > 0 && m.killedBy.every((t) => IDS.includes(t)), JSON.stringify(m));
      }
      assert.ok(
        !o.mutants.some((m) => m.status === 'error' || m.status === 'not_run'),
        JSON.stringify(
          o.mutants.filter((m) => m.status === 'error' || m.status === 'not_run').map((m) => [m.id, m.original, m.replacement, m.reason]),
        ),
      );
      // one coverage round and one batch: no hang cost the batch its process
      assert.equal(o.executions, 2, `${o.executions} runner invocations`);
    });
  }
});
