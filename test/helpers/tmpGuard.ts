// Loaded first by `npm run test:unit` (--require): the unit tests run with a temporary folder of
// their own (TMPDIR, which os.tmpdir() and the children read), and must leave it as they found it:
// a test that leaves a fixture behind fails the run, naming what it left. The folder is removed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Context } from 'mocha';

const own = fs.mkdtempSync(path.join(os.tmpdir(), 'amtp-unit-'));
// Sticky and open to all like /tmp: a test runs a child as `nobody` (crawlerBadInput's EACCES case).
fs.chmodSync(own, 0o1777);
process.env.TMPDIR = process.env.TMP = process.env.TEMP = own;

/** The caches of tools the tests run (tsx's compile cache, pytest's base folder): one per user, not per test. */
const TOOL_CACHE = /^(tsx-\d+|pytest-of-.+)$/;

/** What the tests left in `dir`, its first level, tool caches aside. */
export function leftIn(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => !TOOL_CACHE.test(n))
        .sort()
    : [];
}

function checkLeftovers(): void {
  const left = leftIn(own);
  fs.rmSync(own, { recursive: true, force: true });
  if (left.length)
    throw new Error(
      `the unit tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temporary folder: ${left.join(', ')}`,
    );
}

export const mochaHooks = {
  beforeAll(this: Context): void {
    // Appended now, after the test files registered their own root `after` hooks: the check runs last.
    this.test?.parent?.afterAll('the unit tests leave the temporary folder as they found it', checkLeftovers);
  },
};
