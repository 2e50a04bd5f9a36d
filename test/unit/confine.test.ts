// Network confinement of workspace code (server/src/frameworks/run/confine.ts), both ways: the
// loopback-only network namespace where this machine allows one, and the Node guard preloaded through
// NODE_OPTIONS (forced with AMTP_NO_NETNS=1, as on machines without user namespaces). Each runs a real
// child node that starts a grandchild node: loopback works for both, another host for neither.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { forgetConfinementProbe, confined, networkConfinement } from '../../server/src/frameworks/run/confine';
import { childEnv, inTempHome } from '../../server/src/util/childEnv';

/** A grandchild node that dials a TEST-NET address and prints how that ended, after a loopback round trip. */
const GRANDCHILD = `
const net = require('node:net');
const server = net.createServer((c) => c.end('pong')).listen(0, '127.0.0.1', () => {
  let got = '';
  const c = net.connect(server.address().port, '127.0.0.1');
  c.on('data', (d) => (got += d));
  c.on('end', () => {
    server.close();
    const out = (far) => { console.log(JSON.stringify({ loopback: got, far })); process.exit(0); };
    try {
      const s = net.connect({ host: '192.0.2.1', port: 9 });
      s.setTimeout(1500, () => out('timeout'));
      s.on('connect', () => out('connected'));
      s.on('error', (e) => out(e.code));
    } catch (e) { out(e.code); }
  });
});`;

/** The child: starts the grandchild with the environment it inherited, and passes on its report. */
const CHILD = `process.stdout.write(require('node:child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(GRANDCHILD)}]));`;

function runConfined(set: Record<string, string> = {}): { loopback: string; far: string } {
  const c = confined(process.execPath, ['-e', CHILD], set);
  const r = inTempHome((home) =>
    spawnSync(c.command, c.args, { cwd: home, env: childEnv({ home, set: c.set }), encoding: 'utf8', timeout: 20_000 }),
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { loopback: string; far: string };
}

describe('network confinement of the code AMTP runs', function () {
  this.timeout(60_000);
  const saved = process.env.AMTP_NO_NETNS;
  afterEach(() => {
    if (saved === undefined) delete process.env.AMTP_NO_NETNS;
    else process.env.AMTP_NO_NETNS = saved;
    forgetConfinementProbe();
  });

  it('AMTP_NO_NETNS=1: the guard is preloaded into every node of the tree; loopback stays open', () => {
    process.env.AMTP_NO_NETNS = '1';
    forgetConfinementProbe();
    assert.equal(networkConfinement().network, 'node-guard');
    assert.match(networkConfinement().detail, /no namespace: AMTP_NO_NETNS=1/);
    const c = confined(process.execPath, [], { NODE_OPTIONS: '--max-old-space-size=200' });
    assert.match(
      c.set.NODE_OPTIONS ?? '',
      /^--require ".*amtp\.char-nonet\.cjs" --max-old-space-size=200$/,
      'the caller’s options are kept, after the guard',
    );
    assert.deepEqual(runConfined(), { loopback: 'pong', far: 'EAMTPNONET' });
  });

  it('where user namespaces work: the tree runs in a namespace with loopback only (else the reason is given)', () => {
    delete process.env.AMTP_NO_NETNS;
    forgetConfinementProbe();
    const c = networkConfinement();
    if (c.network === 'node-guard') {
      // This machine cannot make a namespace: the summary says why, and the guard holds instead.
      assert.match(c.detail, /no namespace: .+/);
      assert.deepEqual(runConfined(), { loopback: 'pong', far: 'EAMTPNONET' });
      return;
    }
    assert.match(c.detail, /unshare -rn/);
    const cmd = confined(process.execPath, ['-e', ''], {});
    assert.ok(cmd.args.includes('-rn') && !('NODE_OPTIONS' in cmd.set), 'the namespace needs no preload');
    assert.deepEqual(runConfined(), { loopback: 'pong', far: 'ENETUNREACH' });
  });
});
