// Did a kept test write into the project? A git-like snapshot of the package folder (every file's
// size, mtime and content hash) before and after one run of the kept tests; the files added,
// changed or removed in between. Runner caches are not the tests' writes and are left out:
// node_modules, __pycache__, .pytest_cache, tap's .tap/, vite's cache, .stryker-tmp.
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const RUNNER_CACHE = /^(node_modules|__pycache__|\.pytest_cache|\.tap|\.vite|\.stryker-tmp|\.nyc_output)$/;

/** path → "size:mtime:sha1" for every file under `dir`. */
export function snapshot(dir, rel = '', out = new Map()) {
  for (const name of readdirSync(join(dir, rel))) {
    if (RUNNER_CACHE.test(name)) continue;
    const path = rel ? `${rel}/${name}` : name;
    const st = lstatSync(join(dir, path));
    if (st.isDirectory()) snapshot(dir, path, out);
    else {
      const hash = st.isFile()
        ? createHash('sha1')
            .update(readFileSync(join(dir, path)))
            .digest('hex')
        : 'link';
      out.set(path, `${st.size}:${st.mtimeMs}:${hash}`);
    }
  }
  return out;
}

/** What changed between two snapshots: `added`, `changed` and `removed` paths. */
export function diffSnapshots(before, after) {
  const added = [...after.keys()].filter((p) => !before.has(p));
  const removed = [...before.keys()].filter((p) => !after.has(p));
  const changed = [...after.keys()].filter((p) => before.has(p) && before.get(p) !== after.get(p));
  return { added, changed, removed };
}
