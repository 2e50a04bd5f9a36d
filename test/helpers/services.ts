// Real PostgreSQL and Redis for a test suite, started by the project's script (scripts/services.mjs)
// on free loopback ports in a temporary folder, and stopped by it: no system service, no mock.
// Use in a suite: `const svc = useServices();` then `svc.postgres`, `svc.redis` in its tests.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { existsSync } from 'node:fs';

/** scripts/services.mjs, found upwards from here (this file is also bundled into bench/.work/). */
const SCRIPT = ((): string => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const f = path.join(dir, 'scripts', 'services.mjs');
    if (existsSync(f)) return f;
  }
  throw new Error('scripts/services.mjs not found');
})();

export interface Services {
  dir: string;
  postgres: string;
  redis: string;
}

export function startServices(opts: { postgres?: boolean; redis?: boolean } = {}): Services {
  const args = [SCRIPT, 'start', ...(opts.postgres === false ? ['--no-postgres'] : []), ...(opts.redis === false ? ['--no-redis'] : [])];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as Services;
}

export function stopServices(s: Services | undefined): void {
  if (s) execFileSync(process.execPath, [SCRIPT, 'stop', s.dir], { stdio: 'inherit' });
}

/** Stops Redis (SIGKILL) and starts it again, empty, on the same port. */
export function restartRedis(s: Services): void {
  execFileSync(process.execPath, [SCRIPT, 'restart-redis', s.dir], { stdio: 'inherit' });
}

/** Crashes Postgres (`pg_ctl stop -m immediate`: every connection ends, no checkpoint) and starts it again on the same port with its data. */
export async function restartPostgres(s: Services): Promise<void> {
  // Not execFileSync: a test's loopback model answers from this process's event loop meanwhile.
  await promisify(execFile)(process.execPath, [SCRIPT, 'restart-postgres', s.dir]);
}

/** Starts the services before the suite and stops them after it, failures included. */
export function useServices(opts: { postgres?: boolean; redis?: boolean } = {}): Services {
  const live = {} as Services;
  before(function () {
    this.timeout(120_000);
    Object.assign(live, startServices(opts));
  });
  after(function () {
    this.timeout(60_000);
    stopServices(live.dir ? live : undefined);
  });
  return live;
}

/** A fresh database on the suite's server, so tests do not see each other's runs. */
export async function newDatabase(s: Services): Promise<string> {
  const pg = (await import('pg')).default;
  const name = `amtp_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: s.postgres });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
  return s.postgres.replace(/\/[^/]*$/, `/${name}`);
}
