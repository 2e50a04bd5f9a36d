// Preloaded (--require) into every search child (server/src/search/child.ts), after amtp.char-nonet.cjs.
// Code the search runs may write files only inside the temporary folder of the sequence being run (the
// folder its written test will create and remove), never into the project, the sandbox's HOME or cwd.
// A write elsewhere, a child process or process.exit/chdir is refused with an EAMTPGUARD error and
// counted, and the harness pins no sequence that tried (its test would do the same where it runs).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const childProcess = require('node:child_process');

// `fds`: descriptors opened for writing inside the allowed folder; a write to any other number
// (`writeFileSync(7, …)`) would go to whatever the process has open there.
// `own`: descriptors opened here by a path (any file but a terminal), the only ones code may read by
// number: descriptor 0 is the test process's stdin (a terminal, or a pipe nobody closes), which would
// block. `readFileSync(path)` reads through such a descriptor, and so does Node's own require() of an
// ES module (Node ≥ 20.19), so both must stay readable.
const state = { allowed: undefined, loading: false, tries: [], fds: new Set([1, 2]), own: new Set() };
globalThis.__amtpGuard = state;

function refuse(what) {
  state.tries.push(what);
  const e = new Error(`AMTP sandbox: ${what} is not allowed while searching`);
  e.code = 'EAMTPGUARD';
  return e;
}

function inside(p) {
  // Loading the module is what every test of it does too (a cache file, a log): not refused, only counted.
  if (state.loading) return true;
  if (state.allowed === undefined) return false;
  let abs;
  try {
    abs = path.resolve(String(p instanceof URL ? p.pathname : Buffer.isBuffer(p) ? p.toString() : p));
  } catch {
    return false;
  }
  return abs === state.allowed || abs.startsWith(state.allowed + path.sep);
}

const WRITE_FLAGS = /[wa+]/;
function writesByFlags(flags) {
  if (flags === undefined || flags === null) return false;
  if (typeof flags === 'number') return (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_APPEND)) !== 0;
  return WRITE_FLAGS.test(String(flags));
}

// [name, indexes of the path arguments that are written]
const PATH_WRITES = [
  ['writeFile', [0]], ['appendFile', [0]], ['mkdir', [0]], ['rm', [0]], ['rmdir', [0]], ['unlink', [0]],
  ['rename', [0, 1]], ['copyFile', [1]], ['cp', [1]], ['symlink', [1]], ['link', [1]], ['truncate', [0]],
  ['chmod', [0]], ['chown', [0]], ['lchown', [0]], ['utimes', [0]], ['lutimes', [0]], ['mkdtemp', [0]],
];

function guardPaths(target, name, indexes) {
  const orig = target[name];
  if (typeof orig !== 'function') return;
  target[name] = function (...args) {
    // a file descriptor (number) was opened through open(), which is guarded by its flags
    for (const i of indexes) {
      const ok = typeof args[i] === 'number' ? state.fds.has(args[i]) : inside(args[i]);
      if (!ok) throw refuse(`${name} ${String(args[i])}`);
    }
    return orig.apply(this, args);
  };
}

function guardOpen(target, name, flagIndex) {
  const orig = target[name];
  if (typeof orig !== 'function') return;
  target[name] = function (...args) {
    const opts = args[flagIndex];
    const flags = opts && typeof opts === 'object' ? opts.flags : opts;
    const writes = writesByFlags(flags);
    if (writes && !inside(args[0])) throw refuse(`${name} ${String(args[0])} for writing`);
    if (!writes && isTerminalPath(args[0])) throw refuse(`${name} ${String(args[0])} (standard input or a terminal)`);
    if (name === 'openSync') {
      const fd = orig.apply(this, args);
      state.own.add(fd);
      if (writes) state.fds.add(fd);
      return fd;
    }
    const cb = args[args.length - 1];
    if (name === 'open' && typeof cb === 'function')
      args[args.length - 1] = function (err, fd) {
        if (!err) {
          state.own.add(fd);
          if (writes) state.fds.add(fd);
        }
        return cb.apply(this, arguments);
      };
    return orig.apply(this, args);
  };
}

// Paths that are the process's standard input or a terminal, whatever opens them.
function isTerminalPath(p) {
  if (typeof p !== 'string' && !(p instanceof URL) && !Buffer.isBuffer(p)) return false;
  const s = String(p instanceof URL ? p.pathname : p);
  return /^\/dev\/(?:stdin|tty\w*|pts\/|console$)|^\/proc\/(?:self|thread-self|\d+)\/fd\//.test(s);
}

// reads through a descriptor (`readFileSync(0)`, `readSync(fd, …)`): only from one the sequence opened
// inside its folder
function guardFdReads(target, name) {
  const orig = target[name];
  if (typeof orig !== 'function') return;
  target[name] = function (...args) {
    const fd = args[0];
    if (typeof fd === 'number' && !state.own.has(fd)) throw refuse(`${name} of descriptor ${fd}, which it did not open in its folder`);
    if (typeof fd !== 'number' && isTerminalPath(fd)) throw refuse(`${name} ${String(fd)} (standard input or a terminal)`);
    return orig.apply(this, args);
  };
}
for (const name of ['read', 'readSync', 'readv', 'readvSync', 'readFile', 'readFileSync']) guardFdReads(fs, name);
if (fs.promises) guardFdReads(fs.promises, 'readFile');
// a closed number is reused by the next descriptor, which may be one the process did not open by a path
function forgetOnClose(name) {
  const orig = fs[name];
  fs[name] = function (fd, ...rest) {
    state.own.delete(fd);
    if (fd !== 1 && fd !== 2) state.fds.delete(fd);
    return orig.call(this, fd, ...rest);
  };
}
forgetOnClose('close');
forgetOnClose('closeSync');
const origCrs = fs.createReadStream;
fs.createReadStream = function (p, opts) {
  const fd = opts && typeof opts === 'object' ? opts.fd : undefined;
  if (typeof fd === 'number' && !state.own.has(fd)) throw refuse(`createReadStream of descriptor ${fd}, which it did not open in its folder`);
  if (fd === undefined && isTerminalPath(p)) throw refuse(`createReadStream ${String(p)} (standard input or a terminal)`);
  return origCrs.apply(this, arguments);
};
// process.stdin: reading it waits for whoever runs the test (loading the module may look at it)
const stdinDesc = Object.getOwnPropertyDescriptor(process, 'stdin');
if (stdinDesc && stdinDesc.get) {
  Object.defineProperty(process, 'stdin', {
    configurable: true,
    enumerable: stdinDesc.enumerable,
    get() {
      if (state.loading) return stdinDesc.get.call(process);
      throw refuse('process.stdin');
    },
  });
}

// process.argv: the test runner's command line where the test runs (mocha's, jest's arguments); a
// sequence that reads it is not pinned (counted, not refused: loading the module may read it)
const argv = process.argv;
Object.defineProperty(process, 'argv', {
  configurable: true,
  enumerable: true,
  get() {
    if (!state.loading && state.allowed !== undefined) state.tries.push('process.argv (the command line)');
    return argv;
  },
  set(v) {
    if (!state.loading && state.allowed !== undefined) state.tries.push('process.argv (the command line)');
    argv.splice(0, argv.length, ...v);
  },
});

// writes through a descriptor: only to one opened for writing inside the folder
for (const name of ['write', 'writeSync', 'writev', 'writevSync', 'ftruncate', 'ftruncateSync', 'fchmod', 'fchmodSync']) guardPaths(fs, name, [0]);

for (const [name, idx] of PATH_WRITES) {
  guardPaths(fs, name, idx);
  guardPaths(fs, `${name}Sync`, idx);
  if (fs.promises) guardPaths(fs.promises, name, idx);
}
guardOpen(fs, 'open', 1);
guardOpen(fs, 'openSync', 1);
if (fs.promises) guardOpen(fs.promises, 'open', 1);
// createWriteStream's default flags are 'w'
const origCws = fs.createWriteStream;
fs.createWriteStream = function (p, opts) {
  const flags = opts && typeof opts === 'object' ? opts.flags : undefined;
  if ((flags === undefined || writesByFlags(flags)) && !inside(p)) throw refuse(`createWriteStream ${String(p)}`);
  return origCws.apply(this, arguments);
};

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  if (typeof childProcess[name] !== 'function') continue;
  childProcess[name] = function () {
    throw refuse(`child_process.${name}`);
  };
}

state.exit = process.exit.bind(process);
process.exit = function (code) {
  throw refuse(`process.exit(${code === undefined ? '' : code})`);
};
process.chdir = function (dir) {
  throw refuse(`process.chdir(${dir})`);
};

module.exports = state;
