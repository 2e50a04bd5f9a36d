// Small files with one job: no source file of the server or client over 400 lines (the generated
// contract types excepted: they are written by npm run gen:types from schemas/).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const LIMIT = 400;

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return e.name.endsWith('.ts') && rel !== 'server/src/contracts/generated.ts' ? [rel] : [];
  });
}

describe('file size', () => {
  it(`no server or client source file is over ${LIMIT} lines`, () => {
    const files = [...sources('server/src'), ...sources('client/src')];
    assert.ok(files.length > 100, 'the scan finds the sources');
    const long = files
      .map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8').split('\n').length] as const)
      .filter(([, n]) => n > LIMIT);
    assert.deepEqual(long, []);
  });
});
