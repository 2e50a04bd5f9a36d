// Work Node runs on its thread pool (crypto's key and prime generation, pbkdf2, scrypt, hkdf, zlib's
// one-shot calls, WebCrypto) keeps the process alive until it ends, yet process.getActiveResourcesInfo()
// lists none of it. node-forge@1.3.1's rsa.generateKeyPair(16384, 65537, callback) returns at once and
// hands the key to Node's native generator: its pinned test ("returns undefined, no callback yet") kept
// mocha alive for two minutes of one core. Each such call counts as running until its callback runs
// or its promise settles, so a sequence that starts one and leaves it running is not settled.
// (async_hooks would see every kind of job, but its promise hook made awaiting ten times slower.)
'use strict';
const crypto = require('node:crypto');
const zlib = require('node:zlib');

const pool = { running: 0 };

function ended(job) {
  if (!job.open) return;
  job.open = false;
  pool.running--;
}

/** Keeps what Node hangs on the function (crypto.generateKeyPair's promisify arguments are a symbol property). */
function copySymbols(from, to) {
  for (const key of Reflect.ownKeys(from)) if (typeof key === 'symbol') Object.defineProperty(to, key, Object.getOwnPropertyDescriptor(from, key));
  return to;
}

/** A call whose last argument is a callback runs on the pool until that callback is called. */
function trackCallbacks(target, names) {
  for (const name of names) {
    const orig = target[name];
    if (typeof orig !== 'function') continue;
    target[name] = copySymbols(orig, function (...args) {
      const last = args.length - 1;
      if (typeof args[last] !== 'function') return orig.apply(this, args);
      const done = args[last];
      const job = { open: true };
      pool.running++;
      args[last] = function (...answer) {
        ended(job);
        return done.apply(this, answer);
      };
      try {
        return orig.apply(this, args);
      } catch (e) {
        ended(job); // refused at once (bad arguments): nothing was started
        throw e;
      }
    });
  }
}

/** A WebCrypto call runs on the pool until its promise settles. */
function trackPromises(target, names) {
  for (const name of names) {
    const orig = target[name];
    if (typeof orig !== 'function') continue;
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: function (...args) {
        const p = orig.apply(this, args);
        if (!p || typeof p.then !== 'function') return p;
        const job = { open: true };
        pool.running++;
        p.then(
          () => ended(job),
          () => ended(job),
        );
        return p;
      },
    });
  }
}

trackCallbacks(crypto, [
  'generateKeyPair', 'generateKey', 'generatePrime', 'checkPrime', 'pbkdf2', 'scrypt', 'hkdf',
  'randomBytes', 'randomFill', 'randomInt', 'sign', 'verify',
]);
trackCallbacks(zlib, [
  'deflate', 'deflateRaw', 'inflate', 'inflateRaw', 'gzip', 'gunzip', 'unzip', 'brotliCompress', 'brotliDecompress',
]);
if (crypto.webcrypto && crypto.webcrypto.subtle)
  trackPromises(crypto.webcrypto.subtle, [
    'encrypt', 'decrypt', 'sign', 'verify', 'digest', 'generateKey', 'deriveKey', 'deriveBits',
    'importKey', 'exportKey', 'wrapKey', 'unwrapKey',
  ]);

module.exports = { pool };
