// Older runners that projects still pin (issue 27): tap 16, jest 24 and mocha 5 (twice: its default
// layout, and spec/ named in test/mocha.opts), each from its cached install (scripts/old-runners.sh,
// pinned by the lock files beside this file). A copy of
// examples/sample-lib is made a project of that runner, as one would be: its package.json names the
// runner in devDependencies and `scripts.test`, it has a test of its own, and its node_modules is a
// link to the cached install. Then `amtp generate --yes` runs offline and the project's own
// `npm test` must run AMTP's kept tests and pass. Not part of `npm test`: `npm run test:old-runners`.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { testsInFile } from '../../server/src/frameworks/caseMap';
import { runCli } from '../helpers/cli';
import { copyWorkspace, removeWorkspace, SAMPLE_LIB } from '../helpers/workspaces';

/** Where scripts/old-runners.sh installs (the same default and variable). */
const CACHE = process.env.AMTP_OLD_RUNNERS_CACHE ?? join(homedir(), '.cache', 'amtp-old-runners');

interface OldRunner {
  /** its folder here and in the cache */
  dir: string;
  framework: 'node-tap' | 'jest' | 'mocha';
  pkg: string;
  /** package.json fields of the project pinned to it */
  project: Record<string, unknown>;
  /** what sets this project apart from the runner's first one, for the test's title */
  variant?: string;
  /** the project's own test file */
  own: { path: string; text: string; name: string };
  /** more files of the project (its runner's config) */
  config?: Record<string, string>;
  /** where the crawler must read the files the runner runs from, when it is not its defaults */
  runsFrom?: string;
  /** where AMTP's file must land for the runner's config to find it */
  written: string;
  /** `npm test -- …`: a report that names each passing test */
  testArgs: string[];
  /** the names of the passing tests in that report */
  passed: RegExp;
}

const RUNNERS: OldRunner[] = [
  {
    dir: 'tap16',
    framework: 'node-tap',
    pkg: 'tap',
    // tap 16 checks 100 % coverage by default; the sample's kept tests reach it (a drop below shows here).
    project: { scripts: { test: 'tap' }, devDependencies: { tap: '^16.3.10' } },
    own: {
      path: 'test/own.test.js',
      text: "const t = require('tap');\nconst { clamp } = require('../src');\n\nt.test('own test: clamp keeps a value inside', async (t) => {\n  t.equal(clamp(2, 0, 3), 2);\n});\n",
      name: 'own test: clamp keeps a value inside',
    },
    written: 'test/sample-lib.amtp.test.js',
    testArgs: ['-R', 'tap'],
    passed: /^\s*ok \d+ - (.+?)(?: # time=\S+)?$/gm,
  },
  {
    dir: 'jest24',
    framework: 'jest',
    pkg: 'jest',
    // jest 24's default environment is jsdom; a Node library's project says node. testMatch is where AMTP must write.
    project: {
      scripts: { test: 'jest' },
      devDependencies: { jest: '^24.9.0' },
      jest: { testEnvironment: 'node', testMatch: ['**/__tests__/**/*.js'] },
    },
    own: {
      path: '__tests__/own.js',
      text: "const { clamp } = require('../src');\n\ntest('own test: clamp keeps a value inside', () => {\n  expect(clamp(2, 0, 3)).toBe(2);\n});\n",
      name: 'own test: clamp keeps a value inside',
    },
    written: '__tests__/sample-lib.amtp.js',
    testArgs: ['--verbose'],
    passed: /^\s*✓ (.+?)(?: \(\d+ ?ms\))?$/gm,
  },
  {
    dir: 'mocha5',
    framework: 'mocha',
    pkg: 'mocha',
    // mocha 5's default spec: the .js files of ./test
    project: { scripts: { test: 'mocha' }, devDependencies: { mocha: '^5.2.0' } },
    own: {
      path: 'test/own.js',
      text: "const assert = require('assert');\nconst { clamp } = require('../src');\n\nit('own test: clamp keeps a value inside', () => {\n  assert.strictEqual(clamp(2, 0, 3), 2);\n});\n",
      name: 'own test: clamp keeps a value inside',
    },
    // named like the project's own test file (frameworks/layout.ts)
    written: 'test/sample-lib.amtp.js',
    testArgs: ['--reporter', 'spec'],
    passed: /^\s*✓ (.+?)(?: \(\d+ms\))?$/gm,
  },
  {
    dir: 'mocha5',
    framework: 'mocha',
    pkg: 'mocha',
    variant: 'spec/ from test/mocha.opts',
    project: { scripts: { test: 'mocha' }, devDependencies: { mocha: '^5.2.0' } },
    own: {
      path: 'spec/unit/own.js',
      text: "const assert = require('assert');\nconst { clamp } = require('../../src');\n\nit('own test: clamp keeps a value inside', () => {\n  assert.strictEqual(clamp(2, 0, 3), 2);\n});\n",
      name: 'own test: clamp keeps a value inside',
    },
    // mocha 5 puts these words before the command's: it runs spec/ and its subfolders, never test/ (crawler/mochaOpts.ts)
    config: { 'test/mocha.opts': '# the specs live in spec/\n--recursive\nspec\n' },
    runsFrom: 'test/mocha.opts',
    written: 'spec/sample-lib.amtp.js',
    testArgs: ['--reporter', 'spec'],
    passed: /^\s*✓ (.+?)(?: \(\d+ms\))?$/gm,
  },
];

interface Verification {
  status: string;
  runs: number;
  filters: { step: string; kept: number; dropped: number; quarantined?: number }[];
  results: { caseId: string; outcome: string }[];
  mutation: { status: string; score?: number; excludedTests: { caseId: string; reason: string }[] };
}

/** The cached install of `r`, or a failure naming the script that makes it (never a skip: a skipped test proves nothing). */
function cachedInstall(r: OldRunner): string {
  const dest = join(CACHE, r.dir);
  const lock = (dir: string) => readFileSync(join(dir, 'package-lock.json'), 'utf8');
  if (!existsSync(join(dest, '.complete')) || lock(dest) !== lock(join(__dirname, r.dir)))
    assert.fail(`${r.pkg} (${r.dir}) is not installed in ${dest}, or not the pinned version: run bash scripts/old-runners.sh`);
  return join(dest, 'node_modules');
}

/** A copy of sample-lib made a project of `r`'s runner, its node_modules the cached install. */
async function project(r: OldRunner, modules: string): Promise<string> {
  const ws = await copyWorkspace(SAMPLE_LIB);
  const pkg = JSON.parse(readFileSync(join(ws, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(ws, 'package.json'), JSON.stringify({ ...pkg, ...r.project }, null, 2) + '\n');
  mkdirSync(dirname(join(ws, r.own.path)), { recursive: true });
  writeFileSync(join(ws, r.own.path), r.own.text);
  for (const [path, text] of Object.entries(r.config ?? {})) {
    mkdirSync(dirname(join(ws, path)), { recursive: true });
    writeFileSync(join(ws, path), text);
  }
  symlinkSync(modules, join(ws, 'node_modules'), 'dir');
  return ws;
}

function npmTest(ws: string, args: string[]) {
  const r = spawnSync('npm', ['test', '--', ...args], {
    cwd: ws,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_offline: 'true', CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('older runners that projects still pin (cached by scripts/old-runners.sh)', function () {
  this.timeout(600_000);

  for (const r of RUNNERS) {
    const pinned = (JSON.parse(readFileSync(join(__dirname, r.dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
      .devDependencies[r.pkg];

    it(`${r.pkg} ${pinned}${r.variant ? ` (${r.variant})` : ''}: detected, its kept tests stable, written where it looks, and \`npm test\` runs them`, async () => {
      const ws = await project(r, cachedInstall(r));
      try {
        const installed = JSON.parse(readFileSync(join(ws, 'node_modules', r.pkg, 'package.json'), 'utf8')) as { version: string };
        assert.equal(installed.version, pinned);

        const crawl = await runCli(['crawl', ws, '--json']);
        assert.equal(crawl.code, 0, crawl.stderr);
        const setup = (JSON.parse(crawl.stdout) as { test_setup: { framework: string; runs?: { runner: string; source: string } } })
          .test_setup;
        assert.equal(setup.framework, r.framework);
        assert.equal(setup.runs?.runner, r.pkg);
        if (r.runsFrom) assert.equal(setup.runs?.source, r.runsFrom);

        const gen = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json']);
        assert.equal(gen.code, 0, `amtp generate exited ${gen.code}: ${gen.stderr}`);
        const s = JSON.parse(gen.stdout) as { status: string; files: { path: string; action: string }[]; verification: Verification };
        assert.equal(s.status, 'completed');
        assert.deepEqual(
          s.files.map((f) => [f.path, f.action]),
          [[r.written, 'created']],
        );
        const v = s.verification;
        assert.equal(v.status, 'done');
        assert.equal(v.runs, 3);
        const stable = v.filters.find((f) => f.step === 'passes_every_run');
        assert.ok(stable && stable.kept > 0 && stable.dropped === 0 && !stable.quarantined, JSON.stringify(v.filters));
        // Every kept test also ran under the mutation sandbox's drivers (jest 24 once could not load them).
        assert.equal(v.mutation.status, 'done');
        assert.deepEqual(v.mutation.excludedTests, []);
        assert.ok((v.mutation.score ?? 0) > 50, `mutation score ${v.mutation.score}`);

        const kept = v.results.filter((x) => x.outcome === 'passing').map((x) => x.caseId);
        const file = testsInFile(r.written, readFileSync(join(ws, r.written), 'utf8')).filter((t) => t.caseId);
        assert.deepEqual(file.map((t) => t.caseId).sort(), [...kept].sort(), 'the file holds exactly the kept tests');

        const t = npmTest(ws, r.testArgs);
        assert.equal(t.status, 0, t.out);
        const passed = new Set([...t.out.matchAll(r.passed)].map((m) => m[1]));
        const ours = file.filter((x) => passed.has(x.name));
        assert.equal(ours.length, kept.length, `npm test passed ${ours.length} of AMTP's ${kept.length} kept tests:\n${t.out}`);
        assert.ok(passed.has(r.own.name), `npm test did not run the project's own test:\n${t.out}`);
        console.log(`      ${r.pkg} ${pinned}: ${kept.length} kept of ${stable.kept} stable; npm test passed ${ours.length} of them`);
      } finally {
        await removeWorkspace(ws);
      }
    });
  }
});
