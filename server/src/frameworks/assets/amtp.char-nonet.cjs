// Preloaded (--require) into every characterization child (server/src/characterize/sandbox.ts):
// any connection, request or DNS lookup to a host that is not loopback throws, so code AMTP runs to
// characterize it cannot reach the network. Loopback stays open (local test servers, IPC).
'use strict';
const net = require('node:net');
const dns = require('node:dns');
const http = require('node:http');
const https = require('node:https');

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '0:0:0:0:0:0:0:1']);
function isLoopback(host) {
  if (host === undefined || host === null || host === '') return true;
  const h = String(host).replace(/^\[|\]$/g, '').toLowerCase();
  return LOOPBACK.has(h) || /^127\./.test(h);
}
// How many times code tried to leave the machine: the harness pins no call that tried, since its test
// would reach the network when it runs outside the sandbox, whatever the call made of the refusal.
globalThis.__amtpNetworkTries = 0;
function refuse(host) {
  globalThis.__amtpNetworkTries++;
  const e = new Error(`AMTP sandbox: network access to ${host} is blocked while characterizing`);
  e.code = 'EAMTPNONET';
  return e;
}
function hostOfConnectArgs(args) {
  const a = args[0];
  if (a && typeof a === 'object') return a.path ? 'localhost' : a.host;
  if (typeof a === 'string' && isNaN(Number(a))) return 'localhost'; // a unix socket path
  return typeof args[1] === 'string' ? args[1] : 'localhost';
}
for (const name of ['connect', 'createConnection']) {
  const orig = net[name];
  net[name] = function (...args) {
    const host = hostOfConnectArgs(args);
    if (!isLoopback(host)) throw refuse(host);
    return orig.apply(this, args);
  };
}
const origSocketConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : undefined;
  const host = first ? hostOfConnectArgs([first]) : hostOfConnectArgs(args);
  if (!isLoopback(host)) throw refuse(host);
  return origSocketConnect.apply(this, args);
};
for (const mod of [http, https]) {
  for (const name of ['request', 'get']) {
    const orig = mod[name];
    mod[name] = function (...args) {
      const a = args[0];
      let host;
      if (typeof a === 'string' || a instanceof URL) host = new URL(String(a)).hostname;
      else if (a && typeof a === 'object') host = a.hostname ?? a.host;
      if (!isLoopback(host)) throw refuse(host);
      return orig.apply(this, args);
    };
  }
}
for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) {
  const orig = dns[name];
  if (typeof orig !== 'function') continue;
  dns[name] = function (host, ...rest) {
    if (!isLoopback(host)) throw refuse(host);
    return orig.call(this, host, ...rest);
  };
}
if (dns.promises) {
  for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) {
    const orig = dns.promises[name];
    if (typeof orig !== 'function') continue;
    dns.promises[name] = function (host, ...rest) {
      if (!isLoopback(host)) return Promise.reject(refuse(host));
      return orig.call(this, host, ...rest);
    };
  }
}
// fetch (undici) does not go through net.connect's JS wrapper.
if (typeof globalThis.fetch === 'function') {
  const origFetch = globalThis.fetch;
  globalThis.fetch = function (input, init) {
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input && input.url;
    let host;
    try { host = new URL(url).hostname; } catch { host = undefined; }
    if (!isLoopback(host)) return Promise.reject(refuse(host));
    return origFetch.call(this, input, init);
  };
}
