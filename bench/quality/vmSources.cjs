// Preloaded (NODE_OPTIONS --require) into vitest under the bench's c8 (coverage.mjs). vitest 1 runs a
// project's own modules (every `.mjs` outside node_modules included) as vite's transform of them,
// through node:vm under the file's name: V8's offsets are into that code, which is on no disk. c8's
// monocart reads each script's code from a `source-<id>.json` beside the V8 files when there is one
// (the format of monocart-coverage-reports/register, which records what Node's loaders transformed):
// this writes one per vm-run module, its code as run (the runner's wrapper and the inline source map
// included), and monocart maps it back to the file as it does for any transformed script. vite names
// the sources of its inline map relative to the file (`index.mjs`), which monocart would report as is:
// they are written resolved (file URLs), as Node's own source-map cache holds them; the map is the
// code's last line (before the wrapper's closing braces), so no offset of the code moves.
'use strict';
const vm = require('node:vm');
const { createHash } = require('node:crypto');
const { writeFileSync } = require('node:fs');
const { isAbsolute, join } = require('node:path');
const { pathToFileURL } = require('node:url');

const INLINE_MAP = /(\/\/[#@] sourceMappingURL=data:application\/json(?:;charset=[\w-]+)?;base64,)([A-Za-z0-9+/=]+)\s*$/m;

/** The code with its inline map's sources resolved against the file's URL. */
function withResolvedSources(code, url) {
  const m = INLINE_MAP.exec(code);
  if (!m) return code;
  try {
    const map = JSON.parse(Buffer.from(m[2], 'base64').toString('utf8'));
    const root = map.sourceRoot ? String(map.sourceRoot).replace(/\/?$/, '/') : '';
    map.sources = (map.sources || []).map((s) => (typeof s === 'string' ? new URL(root + s, url).href : s));
    delete map.sourceRoot;
    const rest = code.slice(m.index + m[1].length + m[2].length);
    return code.slice(0, m.index) + m[1] + Buffer.from(JSON.stringify(map)).toString('base64') + rest;
  } catch {
    return code;
  }
}

const dir = process.env.NODE_V8_COVERAGE;
if (dir) {
  const run = vm.runInThisContext;
  vm.runInThisContext = function runInThisContext(code, options) {
    const file = typeof options === 'string' ? options : options && options.filename;
    if (typeof code === 'string' && typeof file === 'string' && isAbsolute(file) && !file.includes('/node_modules/')) {
      const url = pathToFileURL(file).href;
      const id = createHash('sha1').update(url + code).digest('hex');
      try {
        writeFileSync(join(dir, `source-${id}.json`), JSON.stringify({ url, source: withResolvedSources(code, url) }));
      } catch {
        // no record: c8 reads this module from disk, as before
      }
    }
    return run.apply(this, arguments);
  };
}
