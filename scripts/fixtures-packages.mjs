// Refreshes the vendored npm tarballs the tests unpack (test/helpers/npmPack.ts): `npm pack`s every
// spec of test/fixtures/packages/packages.txt into test/fixtures/packages/. The only step that uses
// the registry; tests read the tarballs offline.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'packages');
const specs = readFileSync(join(dir, 'packages.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
for (const spec of specs) {
  const out = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', dir], { encoding: 'utf8' });
  console.log(`${spec} -> ${out.trim().split('\n').pop()}`);
}
