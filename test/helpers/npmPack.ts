// Fetches a real package from the npm registry with `npm pack` and unpacks it.
// Tarballs are cached in a temp dir shared by the whole test run (and across runs on this machine),
// unpacked dirs are cached per process, so each spec costs one download at most.
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CACHE_DIR = path.join(os.tmpdir(), 'amtp-npm-pack-cache');
const unpacked = new Map<string, Promise<string>>();

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

async function doUnpack(spec: string): Promise<string> {
  const tarball = await packTarball(spec);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `amtp-pkg-${safeName(spec)}-`));
  await run('tar', ['-xzf', tarball, '-C', dir]);
  // npm tarballs put everything under `package/`.
  return path.join(dir, 'package');
}

async function packTarball(spec: string): Promise<string> {
  const specDir = path.join(CACHE_DIR, safeName(spec));
  await fsp.mkdir(specDir, { recursive: true });
  const existing = (await fsp.readdir(specDir)).find((f) => f.endsWith('.tgz'));
  if (existing) return path.join(specDir, existing);
  // Pack into a private temp dir then rename, so a concurrent process never sees half a tarball.
  const tmp = await fsp.mkdtemp(path.join(CACHE_DIR, '.tmp-'));
  try {
    const { stdout } = await run('npm', ['pack', spec, '--silent', '--pack-destination', tmp], {
      cwd: tmp,
      timeout: 120_000,
    });
    const name = stdout.trim().split('\n').pop()!.trim();
    const target = path.join(specDir, name);
    await fsp.rename(path.join(tmp, name), target);
    return target;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

function safeName(spec: string): string {
  return spec.replace(/[^A-Za-z0-9._-]/g, '_');
}
