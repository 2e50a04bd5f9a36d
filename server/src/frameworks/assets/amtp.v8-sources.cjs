// Preloaded (NODE_OPTIONS --require) into test processes measured with NODE_V8_COVERAGE
// (server/src/coverage/v8.ts). vitest (vite-node) runs each module it transformed through
// vm.runInThisContext under the file's own name: V8's offsets are then offsets into that transformed
// code, which is on no disk and in no Node source-map cache. This records the code (with its inline
// source map) so the coverage can be mapped back to the file, as vitest's own coverage does.
'use strict';
const vm = require('node:vm');
const { writeFileSync } = require('node:fs');
const { join, isAbsolute } = require('node:path');
const { threadId } = require('node:worker_threads');

const dir = process.env.AMTP_V8_SOURCES;
if (dir) {
  const run = vm.runInThisContext;
  let n = 0;
  vm.runInThisContext = function runInThisContext(code, options) {
    const file = typeof options === 'string' ? options : options && options.filename;
    if (typeof code === 'string' && typeof file === 'string' && isAbsolute(file) && !file.includes('/node_modules/'))
      if (code.includes('sourceMappingURL=data:application/json'))
        try {
          writeFileSync(join(dir, `${process.pid}-${threadId}-${n++}.json`), JSON.stringify({ file, code }));
        } catch {
          // No record: this module's coverage is read as before.
        }
    return run.apply(this, arguments);
  };
}
