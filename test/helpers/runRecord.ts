import type { RunRecord } from '../../server/src/core/run';
import { resolveParams } from '../../server/src/pipeline/config';
import { ownerMark } from '../../server/src/store/ownership';

/** A fresh run record of this person in `ws`, as startRun makes it (version 0, nothing done). */
export function newRun(id: string, ws: string, created = new Date()): RunRecord {
  const now = created.toISOString();
  return {
    schema_version: 1,
    id,
    version: 0,
    status: 'running',
    stage: 'crawler',
    createdAt: now,
    updatedAt: now,
    params: resolveParams({}),
    owner: ownerMark(id, ws),
    activities: [{ agent: 'crawler', status: 'pending', attempts: 0, errors: [] }],
    files: [],
    approvals: [],
    audit: [],
  };
}
