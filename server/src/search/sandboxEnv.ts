// What every child AMTP starts to run workspace code shares beside its environment (util/childEnv.ts)
// and its confinement (frameworks/run/confine.ts): the variables set for it (its tree is killed with
// util/killTree.ts killChildTree).

/** What a sandbox child gets beside childEnv's allow-list: UTC, so pinned dates do not depend on the machine. */
export const SANDBOX_VARS = { TZ: 'UTC', FORCE_COLOR: '0', NO_COLOR: '1' };
