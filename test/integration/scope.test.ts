// Scoped runs on a git fixture: --only PATH[#SYMBOL] and --changed-since REF plan only what they name.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';

const LIB = `/**
 * Clamps a number.
 * @example clamp(5, 0, 3) // => 3
 */
function clamp(n, lo, hi) {
  return Math.min(Math.max(n, lo), hi);
}

/**
 * Adds two numbers.
 * @example add(2, 3) // => 5
 */
function add(a, b) {
  return a + b;
}

module.exports = { clamp, add };
`;

async function gitFixture(): Promise<string> {
  const ws = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-scope-')), 'lib-repo');
  await fsp.mkdir(path.join(ws, 'lib'), { recursive: true });
  await fsp.writeFile(
    path.join(ws, 'package.json'),
    JSON.stringify({ name: 'lib-repo', version: '1.0.0', main: 'lib/index.js', scripts: { test: 'node --test' } }),
  );
  await fsp.writeFile(path.join(ws, 'lib/index.js'), LIB);
  const g = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: ws,
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
    });
  g('init', '-q');
  g('add', '-A');
  g('commit', '-q', '-m', 'init');
  return ws;
}

describe('scoped runs (git fixture)', function () {
  this.timeout(120_000);
  let ws: string;
  beforeEach(async () => {
    ws = await gitFixture();
  });
  afterEach(() => fsp.rm(path.dirname(ws), { recursive: true, force: true }));

  async function plannedSymbols(args: string[]): Promise<string[]> {
    // --no-characterize: the plan is what is asserted; characterizing the documented module would wait for tests.run approval.
    const r = await runCli(['generate', ws, '--provider', 'offline', '--no-verify', '--no-characterize', '--json', ...args]);
    assert.equal(r.code, 0, r.stderr);
    const { runId } = JSON.parse(r.stdout) as { runId: string };
    const plan = JSON.parse(
      await fsp.readFile(path.join(ws, '.amtp/artifacts', runId, await artifactOf(runId, 'generator_output')), 'utf8'),
    ).content;
    return [
      ...new Set((plan.cases as { target: { file: string; symbol: string } }[]).map((c) => `${c.target.file}#${c.target.symbol}`)),
    ].sort();
  }

  async function artifactOf(runId: string, kind: string): Promise<string> {
    const dir = path.join(ws, '.amtp/artifacts', runId);
    for (const name of await fsp.readdir(dir)) if (JSON.parse(await fsp.readFile(path.join(dir, name), 'utf8')).kind === kind) return name;
    throw new Error(`no ${kind} artifact`);
  }

  it('--only lib/index.js#clamp plans only clamp', async () => {
    assert.deepEqual(await plannedSymbols(['--only', 'lib/index.js#clamp']), ['lib/index.js#clamp']);
  });

  it('--changed-since HEAD plans only the new, untracked file and the changed symbol of a changed file', async () => {
    await fsp.writeFile(
      path.join(ws, 'lib/fresh.js'),
      '/**\n * Doubles.\n * @example double(2) // => 4\n */\nfunction double(x) {\n  return x * 2;\n}\nmodule.exports = { double };\n',
    );
    assert.deepEqual(
      await plannedSymbols(['--changed-since', 'HEAD']),
      ['lib/fresh.js#double'],
      'only the untracked file: nothing tracked changed',
    );
    await fsp.writeFile(path.join(ws, 'lib/index.js'), LIB.replace('return a + b;', 'return b + a;'));
    assert.deepEqual(
      await plannedSymbols(['--changed-since', 'HEAD']),
      ['lib/fresh.js#double', 'lib/index.js#add'],
      'the changed symbol, not its unchanged neighbour',
    );
  });

  it('a scope that names no file, or a ref that names no commit, is a usage error', async () => {
    const r1 = await runCli(['generate', ws, '--only', 'lib/nope.js', '--json']);
    assert.equal(r1.code, 2);
    assert.match(r1.stderr, /no such file/);
    const r2 = await runCli(['generate', ws, '--only', '../outside.js', '--json']);
    assert.equal(r2.code, 2);
    const r3 = await runCli(['generate', ws, '--changed-since', 'no-such-ref', '--json']);
    assert.equal(r3.code, 2);
    assert.match(r3.stderr, /names no commit/);
  });
});
