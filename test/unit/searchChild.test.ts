// The search child (server/src/search/child.ts with server/src/frameworks/assets/amtp.search-*.cjs):
// the sandbox rules for code the search runs, and what it records of a sequence. These run the real
// child on test/fixtures/charlib and test/fixtures/seqlib.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_SEARCH_LIMITS, SearchChild, type ChildJob } from '../../server/src/search/child';
import type { RunReply, SeqOutcome, Sequence } from '../../server/src/search/types';
import { jsLiteral, tag } from '../../server/src/search/values';

const CHARLIB = resolve(__dirname, '..', 'fixtures', 'charlib');
const SEQLIB = resolve(__dirname, '..', 'fixtures', 'seqlib');
const LIMITS = { ...DEFAULT_SEARCH_LIMITS, sequenceMs: 4000 };

const job = (root: string, file: string): ChildJob => ({ module: join(root, file), root, limits: LIMITS });
const call = (id: string, name: string, ...args: unknown[]): Sequence => ({
  id,
  steps: [{ op: 'call', path: [name], args: args.map((a) => ({ lit: tag(a) })) }],
});

async function withChild<T>(j: ChildJob, fn: (child: SearchChild) => Promise<T>): Promise<T> {
  const { child, load } = await SearchChild.open(j);
  assert.equal(load, undefined);
  try {
    return await fn(child);
  } finally {
    child.close();
  }
}

function ran(r: SeqOutcome): RunReply {
  assert.equal(r.kind, 'ran', JSON.stringify(r));
  return r as RunReply;
}

describe('search child: the sandbox', function () {
  this.timeout(60_000);

  it('a connection to a host other than loopback is refused and counted, whatever the code made of it; loopback stays open', async () => {
    await withChild(job(CHARLIB, 'index.js'), async (child) => {
      const far = ran(await child.run(call('far', 'dial', '93.184.215.14'), 1));
      assert.equal(far.net, 1);
      const near = ran(await child.run(call('near', 'dial', '127.0.0.1'), 1));
      assert.equal(near.net, 0);
      assert.deepEqual(near.obs.values[0]?.v, 'connected');
    });
  });

  it('a sequence that loops forever ends its child at the deadline; a fresh child runs the next', async () => {
    const started = Date.now();
    const first = await SearchChild.open({ ...job(CHARLIB, 'index.js'), limits: { ...LIMITS, sequenceMs: 800 } });
    assert.deepEqual(await first.child.run(call('spin', 'spin'), 1), { kind: 'timeout' });
    assert.equal(first.child.alive, false);
    await withChild(job(CHARLIB, 'index.js'), async (child) => {
      assert.deepEqual(ran(await child.run(call('g', 'grade', 95), 1)).obs.values[0]?.v, 'A');
    });
    assert.ok(Date.now() - started < 20_000);
  });

  it('waiting for promises does not count against the time limit: only computing does', async () => {
    const root = mkdtempSync(join(tmpdir(), 'amtp-waits-'));
    try {
      writeFileSync(join(root, 'index.js'), 'exports.later = (ms, v) => new Promise((r) => setTimeout(() => r(v), ms));\n');
      const limits = { ...LIMITS, sequenceMs: 300, awaitMs: 250 };
      await withChild({ module: join(root, 'index.js'), root, limits }, async (child) => {
        const step = (v: string) => ({ op: 'call' as const, path: ['later'], args: [{ lit: tag(200) }, { lit: tag(v) }] });
        // three waits of 200 ms: 600 ms in all, twice the limit, and each within awaitMs
        const r = ran(await child.run({ id: 'w', steps: [step('a'), step('b'), step('c')] }, 1));
        assert.deepEqual(
          r.obs.values.map((v) => v?.v),
          ['a', 'b', 'c'],
        );
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("HOME is the child's temporary folder (so a value naming it is never pinned); the env has no secrets", async () => {
    process.env.AMTP_TEST_API_KEY = 'sk-must-not-leak';
    let folder = '';
    try {
      await withChild(job(CHARLIB, 'index.js'), async (child) => {
        // this child's own folder (other processes may make and remove amtp-search-* folders meanwhile)
        folder = (child as unknown as { home: string }).home;
        assert.ok(existsSync(folder) && folder.startsWith(join(tmpdir(), 'amtp-search-')));
        const home = ran(await child.run(call('h', 'home'), 1)).obs.values[0];
        assert.deepEqual([home?.v, home?.why], [undefined, 'holds a temporary path']);
        assert.deepEqual(ran(await child.run(call('s', 'secret'), 1)).obs.values[0]?.v, 'absent');
      });
    } finally {
      delete process.env.AMTP_TEST_API_KEY;
    }
    assert.equal(existsSync(folder), false, 'the temporary HOME is removed');
    assert.notEqual(process.env.HOME, undefined);
  });

  it('writes go only into the sequence folder: a write elsewhere (the cwd, the project) is refused and recorded, a child process or an exit too', async () => {
    const before = readdirSync(SEQLIB).sort();
    await withChild(job(SEQLIB, 'fsutil.js'), async (child) => {
      const inTmp = ran(
        await child.run(
          { id: 'in', steps: [{ op: 'call', path: ['writeJson'], args: [{ tmp: 'out' }, { lit: 'a.json' }, { lit: [1] }] }] },
          1,
        ),
      );
      assert.deepEqual(inTmp.guard, []);
      assert.deepEqual(inTmp.obs.values[0]?.v, ['a.json']);
      const here = ran(await child.run(call('here', 'touchHere', 'stray.txt'), 1));
      assert.deepEqual(here.guard, ['writeFileSync stray.txt']);
      const project = ran(
        await child.run(
          { id: 'p', steps: [{ op: 'call', path: ['writeJson'], args: [{ lit: SEQLIB }, { lit: 'x.json' }, { lit: 1 }] }] },
          1,
        ),
      );
      assert.equal(project.guard.length, 1);
      assert.match(project.guard[0], /^mkdirSync /);
    });
    assert.deepEqual(readdirSync(SEQLIB).sort(), before, 'nothing was written into the project');
  });

  it('a module that does not load is reported, with the error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-search-load-'));
    try {
      writeFileSync(join(dir, 'bad.js'), "require('./missing-thing');\n");
      const { child, load } = await SearchChild.open(job(dir, 'bad.js'));
      child.close();
      assert.match(load ?? '', /Cannot find module '\.\/missing-thing'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('search child: what it records', function () {
  this.timeout(60_000);

  it('finds exported functions and classes with their methods, where they are defined, and plain constants', async () => {
    const { child, discovery } = await SearchChild.open(job(SEQLIB, 'stack.js'));
    child.close();
    const stack = discovery!.exports.find((e) => e.path.join('.') === 'Stack')!;
    assert.equal(stack.ctor, true);
    assert.deepEqual(
      stack.proto.map((m) => `${m.kind}:${m.name}`),
      ['method:push', 'method:pop', 'method:peek', 'get:size', 'method:isEmpty', 'method:toString'],
    );
    assert.deepEqual(stack.at?.file, 'stack.js');
    assert.ok(stack.proto.find((m) => m.name === 'push')?.at, 'a method is located too');
  });

  it('runs a sequence on an instance and observes its state; the first throw ends the sequence', async () => {
    await withChild(job(SEQLIB, 'stack.js'), async (child) => {
      const r = ran(
        await child.run(
          {
            id: 's',
            steps: [
              { op: 'new', path: ['Stack'], args: [{ lit: [1] }] },
              { op: 'method', recv: 0, name: 'pop', args: [] },
              { op: 'method', recv: 0, name: 'pop', args: [] },
              { op: 'method', recv: 0, name: 'peek', args: [] },
            ],
          },
          1,
        ),
      );
      assert.equal(r.obs.steps.length, 3, 'the step after the throw never runs');
      const end = r.obs.steps[2];
      assert.ok('ok' in end && !end.ok && end.error.name === 'EmptyStackError' && end.error.own && !end.error.engine);
      assert.deepEqual(r.obs.values[0]?.obs, [
        { expr: 'spread', v: { $: 'obj', v: { items: [] } } },
        { expr: '.size', v: 0 },
        { expr: 'String', v: 'Stack()' },
        // inspectors: names that usually read are tried first; pop() then throws and ends the inspection
        { expr: '.peek()', v: { $: 'undef' } },
        { expr: '.isEmpty()', v: true },
      ]);
      assert.ok(Object.keys(r.cover).includes('stack.js'));
    });
  });

  it('awaits promises, records rejections, a callback called later and the arguments a call changed', async () => {
    await withChild(job(SEQLIB, 'index.js'), async (child) => {
      const settled = ran(await child.run(call('p', 'settle', 'x'), 1));
      assert.deepEqual(settled.obs.steps[0], { ok: true, async: true });
      const rejected = ran(await child.run(call('r', 'settle'), 1)).obs.steps[0];
      assert.ok('ok' in rejected && !rejected.ok && rejected.async && rejected.error.name === 'RangeError');
      const each = ran(
        await child.run(
          { id: 'e', steps: [{ op: 'call', path: ['eachSeries'], args: [{ lit: [1, 2] }, { cb: { id: 0 } }, { cb: { id: 1 } }] }] },
          1,
        ),
      );
      assert.deepEqual(
        each.obs.callbacks.map((c) => [c.id, c.args, c.phases, c.settledAt]),
        [
          [0, [[{ v: 1 }], [{ v: 2 }]], ['later', 'later'], 2],
          [1, [[{ v: null }, { v: 2 }]], ['later'], 1],
        ],
      );
      const sorted = ran(await child.run(call('m', 'sortInPlace', [3, 1, 2], 'desc'), 1));
      assert.deepEqual(sorted.obs.mutated, [{ step: 0, arg: 0, v: [3, 2, 1] }]);
    });
  });

  it('consumes an iterator and a stream, and records the events an emitter emits', async () => {
    await withChild(job(SEQLIB, 'emitter.js'), async (child) => {
      const r = ran(
        await child.run(
          {
            id: 'i',
            steps: [
              { op: 'call', path: ['range'], args: [{ lit: 0 }, { lit: 3 }] },
              { op: 'iter', recv: 0 },
              { op: 'call', path: ['letters'], args: [{ lit: 'ab' }] },
              { op: 'aiter', recv: 2 },
              { op: 'new', path: ['Counter'], args: [{ lit: 9 }] },
              { op: 'listen', recv: 4, events: ['change', 'limit'] },
              { op: 'method', recv: 4, name: 'increment', args: [] },
            ],
          },
          1,
        ),
      );
      assert.deepEqual(r.obs.values[1]?.v, [0, 1, 2]);
      assert.deepEqual(r.obs.values[3]?.v, ['a', 'b']);
      assert.deepEqual(r.obs.events, [
        {
          step: 5,
          list: [
            [{ v: 'change' }, { v: 10 }],
            [{ v: 'limit' }, { v: 10 }],
          ],
          phases: ['sync', 'sync'],
        },
      ]);
    });
  });

  it('runs TypeScript sources, compiled in memory', async () => {
    const root = resolve(__dirname, '..', 'fixtures', 'seqts');
    await withChild(job(root, 'src/queue.ts'), async (child) => {
      const r = ran(
        await child.run(
          {
            id: 't',
            steps: [
              { op: 'new', path: ['Queue'], args: [{ lit: { $: 'obj', v: { capacity: 1 } } }] },
              { op: 'method', recv: 0, name: 'enqueue', args: [{ lit: 'a' }] },
              { op: 'method', recv: 0, name: 'enqueue', args: [{ lit: 'b' }] },
            ],
          },
          1,
        ),
      );
      const end = r.obs.steps[2];
      assert.ok('ok' in end && !end.ok && end.error.message === 'queue is full (1)');
      assert.ok(Object.keys(r.cover).includes('src/queue.ts'));
    });
  });

  it('an argument with a key named __proto__ reaches the code as a key, and is written as one', async () => {
    const arg = JSON.parse('{"__proto__": 1, "a": 2}') as object;
    await withChild(job(CHARLIB, 'index.js'), async (child) => {
      const r = ran(
        await child.run({ id: 'x', steps: [{ op: 'call', path: ['clamp'], args: [{ lit: 5 }, { lit: tag(arg) }, { lit: tag(arg) }] }] }, 1),
      );
      assert.deepEqual(r.obs.values[0]?.v, 5);
    });
    const literal = jsLiteral(tag(arg));
    assert.equal(literal, '{ ["__proto__"]: 1, a: 2 }');
    assert.deepEqual(Object.keys(eval(`(${literal})`) as object), ['__proto__', 'a']);
  });
});

describe("search child: a slow machine's clock (the stability run)", function () {
  this.timeout(60_000);
  let root = '';
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'amtp-slowclock-'));
    writeFileSync(
      join(root, 'index.js'),
      [
        '// whether two reads of each clock, one right after the other, are less than `ms` apart',
        'exports.freshFor = (ms) => {',
        '  const t = Date.now();',
        '  const u = performance.now();',
        '  return Date.now() - t < ms && performance.now() - u < ms;',
        '};',
        'exports.later = (v) => new Promise((r) => setTimeout(() => r(v), 50));',
        '',
      ].join('\n'),
    );
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('each read is later by the step, so behaviour that depends on how long calls took changes; the harness keeps the real clock, and the next run has it back', async () => {
    await withChild(job(root, 'index.js'), async (child) => {
      assert.equal(ran(await child.run(call('real', 'freshFor', 5), 1)).obs.values[0]?.v, true);
      assert.equal(ran(await child.run(call('slow', 'freshFor', 5), 1, { clockStepMs: 25 })).obs.values[0]?.v, false);
      // 25 ms a read is still within a minute: only short spans change.
      assert.equal(ran(await child.run(call('slowLong', 'freshFor', 60_000), 1, { clockStepMs: 25 })).obs.values[0]?.v, true);
      // The harness's own waits read the real clock: a promise that settles after 50 ms is still awaited.
      const awaited = ran(await child.run(call('later', 'later', 'v'), 1, { clockStepMs: 1000 }));
      assert.equal(awaited.obs.settled, true);
      assert.equal(awaited.obs.values[0]?.v, 'v');
      assert.equal(ran(await child.run(call('again', 'freshFor', 5), 1)).obs.values[0]?.v, true);
    });
  });
});
