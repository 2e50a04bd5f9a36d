// Modules run through node:vm (vitest's vite-node): the recorded code of a V8 script is the one as long
// as the script's top-level range, read after vite-node's wrapper through its inline source map
// (server/src/coverage/vmSources.ts).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readVmSources, vmSourceOf } from '../../server/src/coverage/vmSources';

const MAP = { version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA' };
const inline = `//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(MAP)).toString('base64')}`;
const WRAPPER = "'use strict';async (__vite_ssr_import__,__vite_ssr_exports__,require)=>{{";
const BODY = `function f() { return 1; }\n${inline}\n`;
const CODE = `${WRAPPER}${BODY}\n}}`;
const top = (endOffset: number) => [{ ranges: [{ startOffset: 0, endOffset }] }];

describe('coverage of modules run through node:vm', () => {
  it("finds the script's code by its length and reads it after vite-node's wrapper with its inline map", () => {
    const sources = new Map([['/w/src/a.ts', ['other code', CODE]]]);
    const s = vmSourceOf(sources, '/w/src/a.ts', top(CODE.length));
    assert.deepEqual(s, { code: `${BODY}\n}}`, wrapper: WRAPPER.length, data: MAP });
  });

  it('no record of that length, or no inline map: undefined (the script is read as before)', () => {
    assert.equal(vmSourceOf(new Map([['/w/a.ts', [CODE]]]), '/w/a.ts', top(CODE.length + 1)), undefined);
    assert.equal(vmSourceOf(new Map([['/w/a.ts', ['x = 1']]]), '/w/a.ts', top(5)), undefined);
    assert.equal(vmSourceOf(new Map(), '/w/a.ts', top(5)), undefined);
  });

  it('reads the records a test process wrote, skipping one cut short', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-vmsrc-'));
    try {
      writeFileSync(join(dir, '1-0-0.json'), JSON.stringify({ file: '/w/a.ts', code: CODE }));
      writeFileSync(join(dir, '1-1-0.json'), '{"file": "/w/b.ts", "co');
      assert.deepEqual([...readVmSources(dir)], [['/w/a.ts', [CODE]]]);
      assert.deepEqual([...readVmSources(join(dir, 'none'))], []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
