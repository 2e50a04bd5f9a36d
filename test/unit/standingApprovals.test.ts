import { strict as assert } from 'node:assert';
import { StandingApprovals, type Memento } from '../../client/src/model/standingApprovals';

/** VS Code's global state as a map: the only place the decision lives (never a workspace file). */
function memento(): Memento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: <T>(k: string) => data.get(k) as T | undefined, update: async (k, v) => void data.set(k, v) };
}

describe('"Always allow running workspace code here"', () => {
  it('covers running workspace code in that folder only, until revoked', async () => {
    const state = memento();
    let folder: string | undefined = '/ws/a';
    const s = new StandingApprovals(state, () => folder);
    assert.equal(s.covers({ tool: 'tests.run' }), false);
    assert.equal(s.offers({ tool: 'tests.run' }), true);
    assert.equal(s.offers({ tool: 'fs.overwrite' }), false, 'an overwrite is never answered for good');
    await s.allow();
    assert.equal(s.covers({ tool: 'tests.run' }), true);
    assert.equal(s.covers({ tool: 'fs.overwrite' }), false);
    assert.equal(s.covers({ tool: 'git.branch' }), false);
    folder = '/ws/b';
    assert.equal(s.covers({ tool: 'tests.run' }), false, 'another folder asks again');
    folder = '/ws/a';
    assert.equal(await s.revoke(), true);
    assert.equal(s.covers({ tool: 'tests.run' }), false);
    assert.equal(await s.revoke(), false);
    // A value that is not a list of paths (edited by hand) grants nothing.
    state.data.set('amtp.alwaysRunWorkspaceCode', { '/ws/a': true });
    assert.equal(s.covers({ tool: 'tests.run' }), false);
  });
});
