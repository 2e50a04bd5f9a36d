// What the crawl and e2e benchmarks share: a busy process beside the measurements, whole-process
// figures of a command (wall, CPU of its process tree, peak RSS), paired rounds against a reference
// command, medians, and the machine's load. Whole processes are timed from outside: CPU and memory
// come from the kernel's accounting of the finished child (GNU time, else python3's os.wait4).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const spread = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

/** "2 cores, load 15.9 14.2 13.0" */
export const machine = () =>
  `${cpus().length} cores, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`;

/**
 * One CPU-bound process beside the measurements (a node busy loop), as on a developer's laptop or a
 * CI runner with other work; stopped by the returned function, and at exit whatever happens.
 */
export function startBusy() {
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  const stop = () => busy.exitCode === null && busy.kill('SIGKILL');
  process.on('exit', stop);
  return { pid: busy.pid, stop };
}

const GNU_TIME = '/usr/bin/time';
// python3 as the fallback reporter: os.wait4 gives the child's rusage with its waited-for descendants.
const PY_RUSAGE = `
import os, sys, time, json
t = time.monotonic()
pid = os.spawnvp(os.P_NOWAIT, sys.argv[2], sys.argv[2:])
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t
with open(sys.argv[1], 'w') as f:
    json.dump({'wall': wall, 'user': ru.ru_utime, 'sys': ru.ru_stime, 'rssKb': ru.ru_maxrss, 'status': os.waitstatus_to_exitcode(status)}, f)
`;

let reporter;
function pickReporter() {
  if (reporter) return reporter;
  if (existsSync(GNU_TIME) && spawnSync(GNU_TIME, ['-f', '%e', 'true']).status === 0) reporter = 'time';
  else if (spawnSync('python3', ['-c', 'import os; os.wait4']).status === 0) reporter = 'python3';
  else throw new Error("the benchmark needs GNU time (apt-get install time) or python3 to read a finished process's CPU time");
  return reporter;
}

/**
 * Runs `cmd args` to completion and returns its whole-process figures: wall ms, cpu ms (user+sys of
 * the process and the children it waited for), rssMb (the largest single process), its exit status,
 * stdout and stderr. `opts`: cwd, env, timeoutMs, input.
 */
export function runMeasured(cmd, args, opts = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'amtp-bench-'));
  const out = join(dir, 'rusage');
  try {
    const how = pickReporter();
    const [exe, pre] = how === 'time' ? [GNU_TIME, ['-o', out, '-f', '%e %U %S %M %x']] : ['python3', ['-c', PY_RUSAGE, out]];
    const r = spawnSync(exe, [...pre, cmd, ...args], {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      encoding: 'utf8',
      maxBuffer: 512 << 20,
      timeout: opts.timeoutMs,
      input: opts.input,
    });
    if (!existsSync(out)) throw new Error(`${cmd} did not finish: ${r.error?.message ?? r.signal ?? r.stderr.slice(-500)}`);
    const text = readFileSync(out, 'utf8').trim();
    let f;
    if (how === 'time') {
      const [wall, user, sys, rssKb, status] = text.split('\n').pop().split(' ').map(Number);
      f = { wall, user, sys, rssKb, status };
    } else f = JSON.parse(text);
    return {
      wall: f.wall * 1000,
      cpu: (f.user + f.sys) * 1000,
      rssMb: f.rssKb / 1024,
      status: f.status,
      stdout: r.stdout,
      stderr: r.stderr,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `rounds` paired rounds after one warm-up: each round runs `reference()` then `subject()` (each
 * returns {wall, cpu?}), so load from elsewhere weighs on both alike. Returns the per-round figures
 * and the median of the per-round wall ratios.
 */
export async function paired(rounds, reference, subject) {
  await reference();
  await subject();
  const ref = [];
  const sub = [];
  for (let i = 0; i < rounds; i++) {
    ref.push(await reference());
    sub.push(await subject());
  }
  return { ref, sub, ratio: median(sub.map((s, i) => s.wall / ref[i].wall)), cpuRatio: median(sub.map((s, i) => s.cpu / ref[i].cpu)) };
}

/** A table row: what, then columns right-aligned. */
export const row = (what, ...cols) => console.log(`${what.padEnd(50)}${cols.map((c) => String(c).padStart(16)).join('')}`);

/** The unpacked tarball of the published package `spec` under `work`/pkg (fetched once with `npm pack`). */
export function unpackedPackage(work, spec) {
  const pkgDir = resolve(work, 'pkg', spec.replace(/[^\w.-]/g, '_'));
  if (!existsSync(join(pkgDir, 'package'))) {
    mkdirSync(pkgDir, { recursive: true });
    const tgz = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', pkgDir], { cwd: pkgDir, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', join(pkgDir, tgz), '-C', pkgDir]);
  }
  return join(pkgDir, 'package');
}
