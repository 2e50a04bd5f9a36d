// The contracts' TypeScript types come from schemas/ (server/src/contracts/generated.ts, npm run
// gen:types) and are imported from there: no file outside contracts/ declares a type under a
// contract type's name (repair.ts once restated RepairOutput and declared a different RepairInput).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const GENERATED = fs.readFileSync(path.join(ROOT, 'server/src/contracts/generated.ts'), 'utf8');
const CONTRACT_TYPES = new Set([...GENERATED.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]));

function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? tsFiles(path.posix.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.posix.join(dir, e.name)] : [],
    );
}

/** Declarations in `text` of an interface or type named like a generated contract type. */
function restated(file: string, text: string): string[] {
  return [...text.matchAll(/^\s*(?:export\s+)?(?:declare\s+)?(?:interface|type)\s+(\w+)\b/gm)]
    .filter((m) => CONTRACT_TYPES.has(m[1]))
    .map((m) => `${file}: ${m[1]}`);
}

describe('contract types: generated, imported, never restated', () => {
  it('no file outside contracts/ declares a type under a contract type name', () => {
    const files = [...tsFiles('server/src'), ...tsFiles('client/src')].filter((f) => !f.startsWith('server/src/contracts/'));
    assert.deepEqual(
      files.flatMap((f) => restated(f, fs.readFileSync(path.join(ROOT, f), 'utf8'))),
      [],
    );
  });

  it('the check fails on a planted restatement (an interface, or an alias under the contract name)', () => {
    assert.ok(CONTRACT_TYPES.has('RepairOutput') && CONTRACT_TYPES.has('TestRuns'));
    assert.deepEqual(
      restated('v.ts', 'export interface RepairOutput {\n  verdict: string;\n}\ntype TestRuns = NonNullable<X>;\ntype Mine = 1;\n'),
      ['v.ts: RepairOutput', 'v.ts: TestRuns'],
    );
  });
});
