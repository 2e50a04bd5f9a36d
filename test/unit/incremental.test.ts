// Incremental runs (server/src/app/incremental.ts, server/src/util/importGraph.ts): what a change
// reaches through relative imports, and the plan against the latest finished run with the same settings.
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { planIncremental, settingsKey, sourceHashes } from '../../server/src/app/incremental';
import { AMTP_ENGINE } from '../../server/src/core/engine';
import type { RunParams, RunRecord } from '../../server/src/core/run';
import type { RunStore } from '../../server/src/store/types';
import { reachedBy } from '../../server/src/util/importGraph';

const PARAMS = { depth: 'standard', framework: 'mocha', provider: 'offline', seed: 1 } as unknown as RunParams;

function earlier(id: string, sources: Record<string, string>, over: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    status: 'completed',
    createdAt: id,
    params: PARAMS,
    sources,
    files: [{ path: 'test/a.amtp.test.js', action: 'created' }],
    approvals: [],
    verification: { status: 'done' },
    engine: AMTP_ENGINE,
    ...over,
  } as unknown as RunRecord;
}

const storeWith = (ws: string, runs: RunRecord[]) => ({ workspace: ws, listRuns: async () => runs }) as unknown as RunStore;

describe('incremental runs', () => {
  let ws: string;
  beforeEach(() => {
    ws = mkdtempSync(path.join(tmpdir(), 'amtp-incr-'));
    mkdirSync(path.join(ws, 'lib'));
    mkdirSync(path.join(ws, 'test'));
    mkdirSync(path.join(ws, 'pkg'));
    writeFileSync(path.join(ws, 'index.js'), "module.exports = require('./lib/a');\n");
    writeFileSync(path.join(ws, 'lib/a.js'), "const b = require('./b.js');\nexports.a = () => b.b() + 1;\n");
    writeFileSync(path.join(ws, 'lib/b.js'), 'exports.b = () => 1;\n');
    writeFileSync(path.join(ws, 'lib/c.mjs'), "import { x } from './d';\nexport const c = x;\n");
    writeFileSync(path.join(ws, 'lib/d.ts'), 'export const x = 1;\n');
    writeFileSync(path.join(ws, 'test/a.amtp.test.js'), "require('../lib/a');\n");
    writeFileSync(path.join(ws, 'pkg/__init__.py'), 'from .core import f\n');
    writeFileSync(path.join(ws, 'pkg/core.py'), 'def f():\n    return 1\n');
    writeFileSync(path.join(ws, 'pkg/other.py'), 'from . import core\n');
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  it('a change reaches the file and every file that imports it, directly or not (JavaScript, TypeScript, Python); tests reach nothing', () => {
    const sources = sourceHashes(ws)!;
    assert.deepEqual(reachedBy(ws, sources, ['lib/b.js']), ['index.js', 'lib/a.js', 'lib/b.js']);
    assert.deepEqual(reachedBy(ws, sources, ['lib/d.ts']), ['lib/c.mjs', 'lib/d.ts']);
    assert.deepEqual(reachedBy(ws, sources, ['pkg/core.py']), ['pkg/__init__.py', 'pkg/core.py', 'pkg/other.py']);
    assert.deepEqual(reachedBy(ws, sources, ['lib/c.mjs']), ['lib/c.mjs']);
  });

  it('nothing changed: the earlier results stand; one file changed: scoped to what it reaches; other settings or --only: a full run', async () => {
    const before = sourceHashes(ws)!;
    const run = earlier('r_1', before);
    const same = await planIncremental(storeWith(ws, [run]), PARAMS, sourceHashes(ws));
    assert.equal(same.kind, 'unchanged');
    assert.equal(same.kind === 'unchanged' && same.from.id, 'r_1');

    appendFileSync(path.join(ws, 'lib/b.js'), '// changed\n');
    const one = await planIncremental(storeWith(ws, [run]), PARAMS, sourceHashes(ws));
    assert.equal(one.kind, 'scoped');
    if (one.kind !== 'scoped') return;
    assert.deepEqual(one.reuse.changed, ['lib/b.js']);
    assert.deepEqual(
      one.scope.files.map((f) => f.path),
      ['index.js', 'lib/a.js', 'lib/b.js'],
    );
    assert.equal(one.reuse.reused, Object.keys(before).filter((f) => !f.startsWith('test/')).length - 3);
    // After a run whose tests wait for review, a change means a full run: a scoped one would gate only its own tests.
    const waiting = await planIncremental(storeWith(ws, [earlier('r_9', before, { status: 'awaiting_input' })]), PARAMS, sourceHashes(ws));
    assert.deepEqual(waiting, { kind: 'full', why: 'tests of the earlier run r_9 still wait for review' });

    const other = { ...PARAMS, depth: 'deep' } as RunParams;
    assert.notEqual(settingsKey(other), settingsKey(PARAMS));
    assert.equal((await planIncremental(storeWith(ws, [run]), other, sourceHashes(ws))).kind, 'full');
    const scoped = { ...PARAMS, scope: { files: [{ path: 'lib/a.js' }] } } as RunParams;
    assert.equal((await planIncremental(storeWith(ws, [run]), scoped, sourceHashes(ws))).kind, 'full');
    // A run that failed is no base; a changed decision means a full run.
    assert.equal((await planIncremental(storeWith(ws, [earlier('r_2', before, { status: 'failed' })]), PARAMS, before)).kind, 'full');
    const decided = {
      ...PARAMS,
      decided: { decisions: [{ caseId: 'tc_aaaaaaaaaaaa', verdict: 'rejected' }], detected: [], ignored: 0 },
    } as RunParams;
    assert.equal((await planIncremental(storeWith(ws, [run]), decided, before)).kind, 'full');
  });

  it('only the latest run with these settings is a base, and only when all it set out to do was done', async () => {
    const before = sourceHashes(ws)!;
    const plan = async (...runs: RunRecord[]) => planIncremental(storeWith(ws, runs), PARAMS, before);
    const why = async (...runs: RunRecord[]) => {
      const p = await plan(...runs);
      assert.equal(p.kind, 'full');
      return p.kind === 'full' ? p.why : '';
    };
    // The person rejected running the tests: the next run asks again instead of reusing "rejected".
    const rejected = earlier('r_2', before, {
      verification: { status: 'rejected' } as RunRecord['verification'],
      approvals: [{ tool: 'tests.run', decision: 'rejected' }] as RunRecord['approvals'],
    });
    assert.match(await why(rejected), /r_2 had an action rejected/);
    assert.match(
      await why(earlier('r_2', before, { verification: { status: 'awaiting_approval' } as RunRecord['verification'] })),
      /verification awaiting_approval/,
    );
    assert.match(
      await why(earlier('r_2', before, { files: [{ path: 'test/a.amtp.test.js', action: 'rejected' }] as RunRecord['files'] })),
      /left test\/a\.amtp\.test\.js rejected/,
    );
    assert.match(
      await why(earlier('r_2', before, { characterization: { status: 'rejected' } as RunRecord['characterization'] })),
      /characterization rejected/,
    );
    // A finished run that kept no hashes (recorded) after a finished one that did: the older one's results
    // may have been undone since (a review drop, then its decision forgotten), so it is no base either.
    const recorded = earlier('r_3', before, { sources: undefined });
    assert.match(await why(earlier('r_1', before), recorded), /r_3 kept no source hashes/);
    // Another AMTP made it (an upgrade, a rebuild): what this one would find may differ.
    assert.match(await why(earlier('r_5', before, { engine: '0.0.9+abc' })), /r_5 was made by AMTP 0\.0\.9\+abc; this is AMTP /);
    assert.match(await why(earlier('r_6', before, { engine: undefined })), /r_6 was made by an older AMTP/);
    // needs_review after a done verification left its results: it stands.
    assert.equal((await plan(earlier('r_4', before, { status: 'needs_review' }))).kind, 'unchanged');
    // So did a run whose low-confidence tests wait for review (its files are written): a rerun with
    // nothing changed waits for the same review instead of running everything again (node-forge: 96 s).
    assert.equal((await plan(earlier('r_7', before, { status: 'awaiting_input' }))).kind, 'unchanged');
    // One that stopped before verifying did not.
    assert.match(
      await why(earlier('r_8', before, { status: 'awaiting_input', verification: { status: 'running' } as RunRecord['verification'] })),
      /r_8 ended awaiting_input/,
    );
  });
});
