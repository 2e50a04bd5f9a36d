// Mutation speed (docs/mutation.md), as ratios measured in the same run: the whole mutation phase
// (instrumenting, the sandbox, the coverage round, the batches) against one plain run of the same
// tests, and against what one runner process per mutant would cost (mutants run × one plain run),
// on the fixture with known mutants (test/fixtures/mutation-js) under three runners. With a folder
// argument (`npm run bench -- mutation` then `node bench/.work/mutation.cjs DIR FRAMEWORK TESTFILE TARGET`)
// it measures that workspace instead.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Framework } from '../server/src/core/frameworks';
import { runTests } from '../server/src/frameworks/runner';
import { runMutation } from '../server/src/mutation';

const REPO = resolve(__dirname, '..', '..');

async function measure(ws: string, framework: Framework, file: string, target: string): Promise<void> {
  const ids = [...new Set(readFileSync(join(ws, file), 'utf8').match(/tc_[0-9a-f]{12}/g) ?? [])];
  const plan = { framework, binDir: REPO, args: [], env: {} };
  let t = Date.now();
  const plain = await runTests(framework, ws, [file], { binDir: REPO });
  const oneRun = Date.now() - t;
  t = Date.now();
  const o = await runMutation({
    workspace: ws,
    plan,
    tests: ids.map((caseId) => ({ caseId, file, target })),
    targets: [target],
    budgetMs: 600_000,
    timeoutMs: 120_000,
  });
  const phase = Date.now() - t;
  const ran = o.mutants.filter((m) => ['killed', 'timeout', 'survived'].includes(m.status)).length;
  const perMutant = ran * oneRun;
  console.log(
    `${framework.padEnd(9)} ${plain.passed}/${plain.total} tests: one run ${oneRun} ms; mutation phase ${phase} ms (${(phase / oneRun).toFixed(1)}× one run), ${ran} mutants run in ${o.executions} runner invocations; one process per mutant ≈ ${perMutant} ms (${(perMutant / phase).toFixed(1)}× the phase)`,
  );
}

async function main(): Promise<void> {
  const [dir, framework, file, target] = process.argv.slice(2);
  if (dir) return measure(resolve(dir), framework as Framework, file, target);
  const work = join(REPO, 'test-output');
  mkdirSync(work, { recursive: true });
  for (const [fw, file] of [
    ['mocha', 'tests/mocha.amtp.test.js'],
    ['node-test', 'tests/node.amtp.test.js'],
    ['jest', 'tests/jest.amtp.test.js'],
  ] as const) {
    const ws = mkdtempSync(join(work, 'bench-mutation-'));
    try {
      cpSync(join(REPO, 'test/fixtures/mutation-js'), ws, { recursive: true });
      await measure(ws, fw, file, 'src/calc.js');
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  }
}

void main();
