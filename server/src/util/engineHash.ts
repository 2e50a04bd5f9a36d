// The running AMTP, as a hash of its bundle (or of this file, run from source): caches of results AMTP
// computed (characterize/cache.ts, mutation/cache.ts) key on it, so a new AMTP never reads an older
// one's results.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

let engine: string | undefined;

export function engineHash(): string {
  if (engine === undefined) {
    try {
      engine = createHash('sha1')
        .update(readFileSync(require.main?.filename ?? __filename))
        .update(readFileSync(__filename))
        .digest('hex');
    } catch {
      engine = 'unknown';
    }
  }
  return engine;
}
