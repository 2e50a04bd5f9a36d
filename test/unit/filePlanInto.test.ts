// The file plan with `intoExisting`: which module's cases go into the person's own test file (the
// AMTP name without `.amtp` / `_amtp`, same folder) and which stay in AMTP's file, and why.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlerOutput, TestCases } from '../../server/src/contracts/types';
import { generateCases } from '../../server/src/agents/generator/offline';
import { isAmtpTestPath, personTestPath, planFiles } from '../../server/src/agents/engineer/filePlan';

const ms = (): TestCases =>
  generateCases(JSON.parse(readFileSync(join(__dirname, '../fixtures/crawler-maps/ms.json'), 'utf8')) as CrawlerOutput, 'standard');

describe('file plan: into the person’s own test file', () => {
  it('names the person’s file beside each AMTP name, and tells AMTP’s names from theirs', () => {
    const pairs: [string, string | undefined][] = [
      ['test/ms.amtp.test.js', 'test/ms.test.js'],
      ['src/a.amtp.spec.ts', 'src/a.spec.ts'],
      ['test/ms.amtp.js', 'test/ms.js'],
      ['tests/test_core_amtp.py', 'tests/test_core.py'],
      ['tests/core_amtp_test.py', 'tests/core_test.py'],
      ['test/ms.test.js', undefined],
    ];
    assert.deepEqual(
      pairs.map(([p]) => [p, personTestPath(p)]),
      pairs,
    );
    assert.deepEqual(
      [
        'test/ms.amtp.test.js',
        'test/ms.amtp2.test.js',
        'tests/test_x_amtp.py',
        'test/ms.amtp.quarantine.test.js',
        'test/ms.test.js',
        'tests/test_x.py',
      ].map(isAmtpTestPath),
      [true, true, true, true, false, false],
    );
  });

  it('puts the cases into the person’s file when it exists, else into AMTP’s, and says which', () => {
    const plan = ms();
    const asked: string[] = [];
    const into = planFiles(plan, 'jest', (p) => (asked.push(p), p === 'test/ms.test.js'));
    assert.deepEqual(asked, ['test/ms.test.js']);
    assert.deepEqual(
      into.groups.map((g) => [g.path, g.importPath]),
      [['test/ms.test.js', '../index.js']],
    );
    assert.deepEqual(into.intoNotes, ['index.js: its cases are added to your test/ms.test.js, whose own tests all stay.']);

    const none = planFiles(plan, 'jest', () => false);
    assert.deepEqual(
      none.groups.map((g) => g.path),
      ['test/ms.amtp.test.js'],
    );
    assert.deepEqual(none.intoNotes, ['index.js: no test file of yours at test/ms.test.js, so its cases go to test/ms.amtp.test.js.']);

    // The project's command starts ava: their test/ms.test.js is an ava file, never one for AMTP's jest tests.
    const ava = {
      ...plan,
      project: {
        ...plan.project,
        test_setup: { ...plan.project.test_setup, runs: { patterns: ['test/*.js'], source: 'scripts.test', runner: 'ava' } },
      },
    };
    const foreign = planFiles(ava, 'jest', () => true);
    assert.ok(!foreign.groups.some((g) => g.path === 'test/ms.test.js'));
    assert.deepEqual(foreign.intoNotes, [
      `index.js: your test files are run by another runner than AMTP writes for, so its cases go to ${foreign.groups[0].path}.`,
    ]);

    // Two modules with one AMTP name (a/util.js, b/util.js): whose test/util.test.js is cannot be told.
    const twin = {
      ...plan,
      cases: plan.cases.map((c, i) => ({ ...c, target: { ...c.target, file: i % 2 ? 'a/util.js' : 'b/util.js' } })),
    };
    const asked2: string[] = [];
    const both = planFiles(twin, 'jest', (p) => (asked2.push(p), true));
    assert.deepEqual(asked2, []);
    assert.deepEqual(
      both.groups.map((g) => g.path),
      ['test/util.amtp.test.js', 'test/util.amtp2.test.js'],
    );
    assert.deepEqual(both.intoNotes, [
      "b/util.js: another module's AMTP file has its name too (whose test/util.test.js is cannot be told), so its cases go to test/util.amtp.test.js.",
      "a/util.js: another module's AMTP file has its name too (whose test/util.test.js is cannot be told), so its cases go to test/util.amtp2.test.js.",
    ]);

    const off = planFiles(plan, 'jest');
    assert.deepEqual(
      off.groups.map((g) => g.path),
      ['test/ms.amtp.test.js'],
    );
    assert.deepEqual(off.intoNotes, []);
  });
});
