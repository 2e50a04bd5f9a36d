// mocha 5–7's `test/mocha.opts` (server/src/agents/crawler/mochaOpts.ts): split the way mocha splits
// it, and its spec folders and `--recursive` taken into the files the project's test command runs
// (testRuns.ts), so AMTP's file lands where that mocha looks (frameworks/layout.ts).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { TestRuns } from '../../server/src/contracts/types';
import { declaredMajor, parseMochaOpts } from '../../server/src/agents/crawler/mochaOpts';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { detectTestRuns } from '../../server/src/agents/crawler/testRuns';
import { RENDERERS } from '../../server/src/frameworks';
import { testFilePlace } from '../../server/src/frameworks/layout';
import type { Project } from '../../server/src/frameworks/types';
import { makeRepo, removeRepos } from '../helpers/fixtureRepo';

after(removeRepos);

/** The runs a project of `files` (path → text) has, its package.json given apart. */
function runsOf(pkg: Record<string, unknown>, files: Record<string, string>) {
  const all: Record<string, string> = { 'src/index.js': '', ...files };
  return detectTestRuns({ pkg, files: new Set(Object.keys(all)), read: async (p) => all[p], isPython: false });
}

function project(runs: TestRuns | undefined): Project {
  return {
    name: 'sample-lib',
    language: 'javascript',
    module_system: 'cjs',
    typescript: false,
    test_setup: { framework: 'mocha', test_dirs: ['test'], config_files: ['test/mocha.opts'], ...(runs ? { runs } : {}) },
  };
}

const MOCHA5 = { scripts: { test: 'mocha' }, devDependencies: { mocha: '^5.2.0' } };

describe('mocha.opts, read as mocha 5–7 read it', () => {
  it('splits on any whitespace, drops first-column # lines and keeps an escaped space', () => {
    const text = [
      '# options for mocha',
      '--require should --require test/setup.js',
      '--reporter dot',
      '  --ui bdd   --recursive\t--timeout 5000',
      'spec/unit spec/with\\ space',
      '',
      '  # indented: mocha reads these as words',
      '--check-leaks\r',
    ].join('\n');
    assert.deepEqual(parseMochaOpts(text), [
      '--require',
      'should',
      '--require',
      'test/setup.js',
      '--reporter',
      'dot',
      '--ui',
      'bdd',
      '--recursive',
      '--timeout',
      '5000',
      'spec/unit',
      'spec/with space',
      '#',
      'indented:',
      'mocha',
      'reads',
      'these',
      'as',
      'words',
      '--check-leaks',
    ]);
  });

  it('takes the major version from the ranges package.json gives, none from an open one', () => {
    const major = (range: string) => declaredMajor({ devDependencies: { mocha: range } }, 'mocha');
    assert.deepEqual(['^5.2.0', '~6.1', '7.x', '5', '=7.2.0', '>=5', '*', 'latest'].map(major), [
      5,
      6,
      7,
      5,
      7,
      undefined,
      undefined,
      undefined,
    ]);
    assert.equal(declaredMajor({ dependencies: { mocha: '^10.0.0' } }, 'mocha'), 10);
    assert.equal(declaredMajor({}, 'mocha'), undefined);
  });
});

describe('the files a mocha 5–7 command runs, with its mocha.opts', () => {
  it('runs the spec folder the opts file names, recursively, and AMTP writes there', async () => {
    const runs = await runsOf(MOCHA5, { 'spec/unit/own.js': '', 'test/mocha.opts': '# specs\n--recursive\nspec\n' });
    assert.deepEqual(runs, { runner: 'mocha', command: 'mocha', patterns: ['spec/**/*.{js,cjs,mjs}'], source: 'test/mocha.opts' });
    assert.deepEqual(testFilePlace('src/index.js', project(runs), RENDERERS.mocha), { path: 'spec/sample-lib.amtp.test.js' });
  });

  it('when the opts file names only its own files, the layout note says which line to add to it', async () => {
    const runs = await runsOf(MOCHA5, { 'test/all.js': '', 'test/mocha.opts': '--ui bdd\ntest/all.js\n' });
    assert.deepEqual(runs?.patterns, ['test/all.js']);
    const place = testFilePlace('src/index.js', project(runs), RENDERERS.mocha);
    assert.deepEqual(place, {
      path: 'test/sample-lib.amtp.test.js',
      note:
        "the project's test command `mocha` (test/mocha.opts: test/all.js) names its files, and no new file name fits it." +
        ' To have it run them, add a line `test/sample-lib.amtp.test.js` to test/mocha.opts.',
    });
  });

  it('adds the opts words before the command words, follows --opts FILE, and its extensions', async () => {
    const both = await runsOf({ ...MOCHA5, scripts: { test: 'mocha e2e' } }, { 'test/mocha.opts': '--recursive spec', 'e2e/a.js': '' });
    assert.deepEqual(both?.patterns, ['spec/**/*.{js,cjs,mjs}', 'e2e/**/*.{js,cjs,mjs}']);
    assert.equal(both?.source, 'scripts.test and test/mocha.opts');
    const named = await runsOf(
      { ...MOCHA5, scripts: { test: 'mocha --opts ./config/mocha.opts lib/**/*.spec.js' } },
      { 'config/mocha.opts': '--compilers ts:ts-node/register\nsrc/specs\n', 'test/mocha.opts': 'ignored' },
    );
    assert.deepEqual(named?.patterns, ['src/specs/*.{js,cjs,mjs,ts}', 'lib/**/*.spec.js']);
    assert.equal(named?.source, 'scripts.test and config/mocha.opts');
    const extension = await runsOf(
      { ...MOCHA5, devDependencies: { mocha: '^7.2.0' } },
      { 'test/mocha.opts': '--extension ts --recursive' },
    );
    assert.deepEqual(extension?.patterns, ['test/**/*.{js,cjs,mjs,ts}'], 'no spec: mocha runs ./test, searched as the file says');
  });

  it('leaves the runs alone when the file says nothing about files, mocha is 8 or later, or there is no such file', async () => {
    const plain = { runner: 'mocha', command: 'mocha', patterns: ['test/*.{js,cjs,mjs}'], source: 'mocha defaults' };
    assert.deepEqual(await runsOf(MOCHA5, { 'test/mocha.opts': '--require should\n--reporter dot\n' }), plain);
    assert.deepEqual(await runsOf({ ...MOCHA5, devDependencies: { mocha: '^8.4.0' } }, { 'test/mocha.opts': '--recursive spec' }), plain);
    assert.deepEqual(await runsOf({ ...MOCHA5, scripts: { test: 'mocha --opts /etc/passwd' } }, {}), {
      ...plain,
      command: 'mocha --opts /etc/passwd',
    });
    assert.deepEqual(await runsOf({ ...MOCHA5, scripts: { test: 'mocha --opts ../x/mocha.opts' } }, {}), {
      ...plain,
      command: 'mocha --opts ../x/mocha.opts',
    });
    // no version known: the file counts, as mocha before 8 would read it
    assert.equal((await runsOf({ scripts: { test: 'mocha' } }, { 'test/mocha.opts': 'spec' }))?.source, 'test/mocha.opts');
  });
});

describe('a hostile mocha.opts, through the crawler reader', () => {
  it('a huge opts file is refused unread and a named pipe is never opened: mocha defaults stand', async () => {
    const pkg = JSON.stringify({ name: 'opts', main: 'src/index.js', ...MOCHA5 });
    const huge = await makeRepo('opts-huge', {
      'package.json': pkg,
      'src/index.js': 'exports.x = 1;\n',
      'test/mocha.opts': `--recursive\nspec\n${'# padding\n'.repeat(40_000)}`,
    });
    const started = Date.now();
    const { map } = await crawlWorkspace(huge);
    assert.deepEqual(map.test_setup.runs?.patterns, ['test/*.{js,cjs,mjs}']);
    assert.match(map.skipped.find((s) => s.path === 'test/mocha.opts')?.reason ?? '', /over the \d+-byte limit/);

    const piped = await makeRepo('opts-fifo', { 'package.json': pkg, 'src/index.js': 'exports.x = 1;\n' });
    execFileSync('mkdir', [path.join(piped, 'test')]);
    execFileSync('mkfifo', [path.join(piped, 'test', 'mocha.opts')]);
    const fifo = (await crawlWorkspace(piped)).map;
    assert.equal(fifo.test_setup.runs?.source, 'mocha defaults');
    assert.match(fifo.skipped.find((s) => s.path === 'test/mocha.opts')?.reason ?? '', /fifo/);
    assert.ok(Date.now() - started < 20_000, 'neither crawl waits on the file');
  });
});
