#!/usr/bin/env node
// Starts PostgreSQL and Redis from Debian's packages (`apt-get install postgresql redis-server`) on
// free loopback ports in a temporary folder, and stops them: no system service is used or needed.
// The integration tests of the Postgres store, the Redis cache and the queue start them through
// this script (test/helpers/services.ts); a person can too:
//
//   node scripts/services.mjs start [--no-postgres] [--no-redis]   prints {dir, postgres, redis} as JSON
//   node scripts/services.mjs restart-redis DIR                      stops Redis and starts it on the same port (empty)
//   node scripts/services.mjs restart-postgres DIR                   crashes Postgres (immediate stop) and starts it again
//   node scripts/services.mjs stop DIR                               stops both and removes DIR
//
// Postgres refuses to run as root: as root, initdb and pg_ctl run as the `postgres` user (runuser),
// and the folder is made readable for it. Data is thrown away on stop; fsync is off (tests only).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STATE = 'services.json';

function pgBin(name) {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error(`no ${name} under ${root}: install Debian's postgresql (apt-get install postgresql)`);
  return join(root, versions[0], 'bin', name);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Runs a Postgres tool as the postgres user when we are root (it refuses root), else as ourselves. */
function asPostgres(file, args) {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${file} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

function postgresUid() {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error("no postgres user: install Debian's postgresql (apt-get install postgresql)");
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function startPostgres(dir) {
  const data = join(dir, 'pg');
  const sock = join(dir, 'pgsock');
  mkdirSync(data, { mode: 0o700 });
  mkdirSync(sock);
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresUid();
    chownSync(data, uid, gid);
    chownSync(sock, uid, gid);
  }
  asPostgres(pgBin('initdb'), ['-D', data, '-A', 'trust', '-U', 'amtp', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  startPostgresOn(dir, port);
  return { port, url: `postgres://amtp@127.0.0.1:${port}/postgres` };
}

function startPostgresOn(dir, port) {
  const sock = join(dir, 'pgsock');
  const opts = `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  asPostgres(pgBin('pg_ctl'), ['-D', join(dir, 'pg'), '-l', join(sock, 'postgres.log'), '-w', '-t', '60', '-o', opts, 'start']);
}

/** `-m immediate`: every backend ends at once with no checkpoint, as in a crash; the start runs crash recovery. */
function stopPostgres(dir) {
  asPostgres(pgBin('pg_ctl'), ['-D', join(dir, 'pg'), '-m', 'immediate', '-w', 'stop']);
}

function redisPidFile(dir) {
  return join(dir, 'redis.pid');
}

function startRedisOn(dir, port) {
  execFileSync('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'yes',
    '--dir',
    dir,
    '--pidfile',
    redisPidFile(dir),
    '--logfile',
    join(dir, 'redis.log'),
  ]);
  waitFor(() => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG', 'redis to answer');
  return { port, url: `redis://127.0.0.1:${port}` };
}

function stopRedis(dir) {
  const file = redisPidFile(dir);
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8').trim());
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return; // already gone
  }
  waitFor(() => !alive(pid), `redis ${pid} to stop`);
  rmSync(file, { force: true });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls a condition (these are child processes coming up or going away) for at most 30 s. */
function waitFor(ok, what) {
  const end = Date.now() + 30_000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

export async function start({ postgres = true, redis = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'amtp-services-'));
  chmodSync(dir, 0o755); // the postgres user must reach its data folder inside
  const state = { dir };
  writeFileSync(join(dir, STATE), JSON.stringify(state));
  try {
    if (postgres) state.postgres = await startPostgres(dir);
    writeFileSync(join(dir, STATE), JSON.stringify(state));
    if (redis) state.redis = startRedisOn(dir, await freePort());
    writeFileSync(join(dir, STATE), JSON.stringify(state));
    return { dir, postgres: state.postgres?.url, redis: state.redis?.url };
  } catch (e) {
    stop(dir);
    throw e;
  }
}

export function restartRedis(dir) {
  const state = JSON.parse(readFileSync(join(dir, STATE), 'utf8'));
  stopRedis(dir);
  startRedisOn(dir, state.redis.port);
}

/** Crashes Postgres and starts it again on the same port, its data kept (crash recovery). */
export function restartPostgres(dir) {
  const state = JSON.parse(readFileSync(join(dir, STATE), 'utf8'));
  stopPostgres(dir);
  startPostgresOn(dir, state.postgres.port);
}

export function stop(dir) {
  if (!existsSync(join(dir, STATE))) return;
  stopRedis(dir);
  if (existsSync(join(dir, 'pg', 'postmaster.pid'))) {
    try {
      stopPostgres(dir);
    } catch (e) {
      process.stderr.write(`services: ${e.message}\n`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

async function cli(argv) {
  const [command, arg] = argv;
  if (command === 'start') {
    process.stdout.write(
      JSON.stringify(await start({ postgres: !argv.includes('--no-postgres'), redis: !argv.includes('--no-redis') })) + '\n',
    );
  } else if (command === 'restart-redis' && arg) restartRedis(arg);
  else if (command === 'restart-postgres' && arg) restartPostgres(arg);
  else if (command === 'stop' && arg) stop(arg);
  else {
    process.stderr.write('usage: services.mjs start [--no-postgres] [--no-redis] | restart-redis DIR | restart-postgres DIR | stop DIR\n');
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  cli(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`services: ${e.message}\n`);
    process.exitCode = 1;
  });
}
