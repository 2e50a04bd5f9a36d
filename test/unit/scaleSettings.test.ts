// The settings past one process (docs/scale.md): a flag wins over its environment variable, an empty
// store means the lowdb files, and the passwords a recording must redact are found in each URL.
import { strict as assert } from 'node:assert';
import { scaleSecrets, scaleSettings } from '../../server/src/app/scale';

describe('scale settings', () => {
  it('takes each flag, else its environment variable; an empty or "lowdb" store is the default', () => {
    const env = { AMTP_STORE: 'postgres://a@h/d', AMTP_CACHE: 'redis://c:1', AMTP_QUEUE: ' ' };
    assert.deepEqual(scaleSettings({}, env), { store: 'postgres://a@h/d', cache: 'redis://c:1', queue: undefined });
    assert.deepEqual(scaleSettings({ store: 'lowdb', cache: 'redis://mine:2' }, env), {
      store: undefined,
      cache: 'redis://mine:2',
      queue: undefined,
    });
    assert.deepEqual(scaleSettings({}, {}), { store: undefined, cache: undefined, queue: undefined });
  });

  it('finds the password of every service URL in force, as written and decoded', () => {
    const env = { AMTP_CACHE: 'redis://:cache%40pw@c:6379' };
    assert.deepEqual(scaleSecrets({ store: 'postgres://amtp:s3cret@db:5432/amtp', queue: 'valkey://user:q-pw@q:6379/0' }, env), [
      's3cret',
      'cache%40pw',
      'cache@pw',
      'q-pw',
    ]);
    assert.deepEqual(scaleSecrets({ store: 'postgres://amtp@db/amtp', cache: 'redis://c:6379' }, {}), [], 'no password, nothing to redact');
    assert.deepEqual(scaleSecrets({ store: 'postgres://a:%E0%A4%A@h/d' }, {}), ['%E0%A4%A'], 'a malformed escape is kept as written');
  });
});
