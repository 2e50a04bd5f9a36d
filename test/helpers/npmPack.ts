// Unpacks a real npm package from the tarballs vendored under test/fixtures/packages/ (no network in
// tests). `npm run fixtures:packages` (scripts/fixtures-packages.mjs) packs the specs listed in
// test/fixtures/packages/packages.txt into that folder. Unpacked dirs are cached per process.
import { execFile } from 'node:child_process';
import { existsSync, promises as fsp, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const PACKAGES_DIR = path.join(__dirname, '..', 'fixtures', 'packages');
const unpacked = new Map<string, Promise<string>>();
/** The temporary folders of this process's unpacked packages: shared by every test that asks, so removed when the process ends. */
const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Returns the directory of the unpacked package (`spec` like `ms@2.1.3`); cached per process. */
export async function unpackNpmPackage(spec: string): Promise<string> {
  let p = unpacked.get(spec);
  if (!p) {
    p = doUnpack(spec);
    unpacked.set(spec, p);
    p.catch(() => unpacked.delete(spec));
  }
  return p;
}

/** The vendored tarball of `name@version` (npm names it `name-version.tgz`, scope `@a/b` as `a-b-`). */
export function vendoredTarball(spec: string): string {
  const at = spec.lastIndexOf('@');
  if (at <= 0) throw new Error(`npmPack: "${spec}" is not name@version (an exact version is needed to vendor it)`);
  const name = spec.slice(0, at).replace(/^@/, '').replace('/', '-');
  const file = path.join(PACKAGES_DIR, `${name}-${spec.slice(at + 1)}.tgz`);
  if (!existsSync(file)) {
    throw new Error(
      `npmPack: ${spec} is not vendored (${path.relative(process.cwd(), file)} is missing); add it to test/fixtures/packages/packages.txt and run \`npm run fixtures:packages\``,
    );
  }
  return file;
}

async function doUnpack(spec: string): Promise<string> {
  const tarball = vendoredTarball(spec);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `amtp-pkg-${spec.replace(/[^A-Za-z0-9._-]/g, '_')}-`));
  made.push(dir);
  await run('tar', ['-xzf', tarball, '-C', dir]);
  // npm tarballs put everything under `package/`.
  return path.join(dir, 'package');
}
