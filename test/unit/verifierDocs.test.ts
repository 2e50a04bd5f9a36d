// docs/verifier.md may only name settings, flags and files that exist: its settings table is read
// row by row against the CLI flag table, the VS Code settings and the verifier's defaults, and every
// source path it cites must be in the repository.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flagsOf } from '../../server/src/cli/flags';
import { DEFAULT_VERIFY } from '../../server/src/core/run';
import { SETTING_KEYS } from '../../server/src/core/settings';

const ROOT = path.resolve(__dirname, '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/verifier.md'), 'utf8');

/** The rows of the table under "## When it runs (defaults)": [what, CLI, VS Code setting, default]. */
function settingsRows(): string[][] {
  const section = DOC.slice(DOC.indexOf('## When it runs'), DOC.indexOf('Verification is on'));
  return section
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[-| ]+\|$/.test(l))
    .slice(1)
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

describe('docs/verifier.md: only what exists', () => {
  it('every CLI flag in the settings table is a flag of amtp generate', () => {
    const flags = new Set(flagsOf('generate').map((f) => `--${f}`));
    const named = settingsRows().flatMap((r) => [...r[1].matchAll(/--[a-z-]+/g)].map((m) => m[0]));
    assert.deepEqual(named, ['--verify', '--no-verify', '--runs', '--test-timeout', '--rounds', '--round-tokens']);
    for (const f of named) assert.ok(flags.has(f), `${f} is not a flag of generate`);
  });

  it('every VS Code setting in the table is a setting (core/settings.ts)', () => {
    const named = settingsRows()
      .flatMap((r) => [...r[2].matchAll(/`(\w+)`/g)].map((m) => m[1]))
      .filter((n) => n !== 'ServerSettings');
    assert.deepEqual(named, ['verify', 'verifyRuns', 'testTimeoutSeconds']);
    for (const n of named) assert.ok((SETTING_KEYS as string[]).includes(n), `${n} is not a setting`);
  });

  it('the defaults in the table are the verifier defaults', () => {
    const byWhat = new Map(settingsRows().map((r) => [r[0], r[3]]));
    assert.equal(byWhat.get('runs a test must pass in a row'), String(DEFAULT_VERIFY.runs));
    assert.equal(byWhat.get('limit of one runner invocation'), `${DEFAULT_VERIFY.timeoutSeconds} s`);
    assert.match(byWhat.get('repair sessions per failing test')!, new RegExp(`^${DEFAULT_VERIFY.repairAttempts} `));
    assert.match(byWhat.get('per-test coverage measurement')!, new RegExp(`up to ${DEFAULT_VERIFY.maxCoverageRuns} tests`));
    assert.match(byWhat.get('coverage rounds after verification')!, new RegExp(`^${DEFAULT_VERIFY.rounds} `));
    assert.equal(byWhat.get('prompt tokens all rounds share'), String(DEFAULT_VERIFY.roundTokens));
  });

  it('every source file it cites exists', () => {
    const cited = [...new Set([...DOC.matchAll(/`((?:server|schemas|test)\/[\w./-]+\.(?:ts|json))`/g)].map((m) => m[1]))];
    assert.ok(cited.length >= 5, cited.join(' '));
    for (const f of cited) assert.ok(fs.existsSync(path.join(ROOT, f)), `${f} does not exist`);
    for (const f of ['runPhase.ts', 'judgePhase.ts', 'repairLoop.ts', 'coveragePhase.ts', 'rewritePhase.ts', 'classify.ts', 'verify.ts'])
      assert.ok(fs.existsSync(path.join(ROOT, 'server/src/verifier', f)), f);
  });
});
