// The search child's guard (server/src/frameworks/assets/amtp.search-guard.cjs): reading through a
// descriptor is allowed only for one opened here by a path. `readFileSync(path)` reads that way, and so
// does Node's own require() of an ES module (Node ≥ 20.19): refusing it left every ESM package with no
// search at all (p-limit@6.2.0: "readSync of descriptor 19, which it did not open in its folder").
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const GUARD = resolve(__dirname, '../../server/src/frameworks/assets/amtp.search-guard.cjs');

function run(dir: string, script: string): { out: string; err: string; status: number | null } {
  const r = spawnSync(process.execPath, ['--require', GUARD, '-e', script], { cwd: dir, encoding: 'utf8', input: '' });
  return { out: r.stdout, err: r.stderr, status: r.status };
}

describe('search guard: reads through descriptors', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-guard-'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, 'dep.js'), 'export const two = 2;\n');
    writeFileSync(join(dir, 'index.js'), "import { two } from './dep.js';\nexport default function double(x) { return x * two; }\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads an ES module through require() while the module loads', function () {
    if (!process.features.require_module) this.skip(); // Node before 20.19 has no require(esm)
    const r = run(
      dir,
      `const g = globalThis.__amtpGuard; g.loading = true; const m = require(${JSON.stringify(join(dir, 'index.js'))}); g.loading = false; console.log(m.default(21));`,
    );
    assert.equal(r.err, '');
    assert.equal(r.out.trim(), '42');
  });

  it('a file read by its path is read; standard input and a descriptor nobody opened by a path are refused', () => {
    const script = `
      const fs = require('node:fs');
      const g = globalThis.__amtpGuard;
      g.allowed = ${JSON.stringify(dir)};
      const text = fs.readFileSync(${JSON.stringify(join(dir, 'dep.js'))});
      console.log('read', text.length);
      for (const fd of [0, 9]) {
        try { fs.readFileSync(fd); console.log('no refusal', fd); } catch (e) { console.log(e.code, fd); }
      }
      const fd = fs.openSync(${JSON.stringify(join(dir, 'dep.js'))}, 'r');
      fs.closeSync(fd);
      try { fs.readSync(fd, Buffer.alloc(4)); console.log('no refusal after close'); } catch (e) { console.log(e.code, 'closed'); }
    `;
    const r = run(dir, script);
    assert.equal(r.err, '');
    assert.deepEqual(r.out.trim().split('\n'), ['read 22', 'EAMTPGUARD 0', 'EAMTPGUARD 9', 'EAMTPGUARD closed']);
  });
});
