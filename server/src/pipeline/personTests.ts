// Whether the person's own test file exists, for runs that add cases to it (`intoExisting`):
// agents/engineer/filePlan.ts asks about the one path beside each AMTP test file. A symbolic link
// or anything outside the workspace is not the person's test file; writeStage.ts checks the path
// again, on the resolved file, when it writes.
import { lstatSync } from 'node:fs';
import * as path from 'node:path';

export function ownTestFileIn(workspace: string): (rel: string) => boolean {
  return (rel) => {
    if (!rel || path.isAbsolute(rel) || rel.split(/[\\/]/).some((part) => part === '..' || part === '')) return false;
    try {
      return lstatSync(path.join(workspace, rel)).isFile();
    } catch {
      return false;
    }
  };
}
