// Inspector observers of the search child (server/src/frameworks/assets/amtp.search-inspect.cjs):
// zero-argument methods are observers only when two calls agree and change nothing, judged by what
// they do, never by their names; the first that changes something ends the inspection and leaves no
// trace in the run's records.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the child's own CommonJS asset
const { inspectMethods, snapshot } = require(join(__dirname, '../../server/src/frameworks/assets/amtp.search-inspect.cjs')) as {
  inspectMethods: (values: unknown[], seen: unknown[], ctx: unknown, env: unknown, bound: number, volatile: string[]) => boolean;
  snapshot: (v: unknown) => string;
};

class Queue {
  items: number[];
  constructor(items: number[]) {
    this.items = [...items];
  }
  size() {
    return this.items.length;
  }
  peek() {
    return this.items[0];
  }
  shift() {
    return this.items.shift();
  }
  // named like an observer, changes the state
  isEmpty() {
    this.items.push(0);
    return false;
  }
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the child's own CommonJS asset
const { tryEncode } = require(join(__dirname, '../../server/src/frameworks/assets/amtp.search-observe.cjs')) as {
  tryEncode: (v: unknown, bound: number, volatile: string[]) => { ok: boolean; v?: unknown; why?: string };
};

function run(value: object) {
  const seen = [{ shape: { t: 'object' }, obs: [] as { expr: string; v: unknown }[] }];
  const calls = [[1]];
  const ctx = { callbacks: [{ calls, phases: ['sync'] }], events: [] };
  const env = { pending: () => 0, guard: { tries: [] as string[] } };
  const clean = inspectMethods([value], seen, ctx, env, 200, []);
  return { clean, obs: seen[0].obs, calls };
}

describe('search inspectors: side-effect-free zero-argument methods', () => {
  it('keeps the methods two calls of which agree and change nothing, and stops at the first that changes something', () => {
    const q = new Queue([3, 1]);
    const r = run(q);
    assert.equal(r.clean, false);
    assert.deepEqual(r.obs, [
      { expr: '.size()', v: 2 },
      { expr: '.peek()', v: 3 },
    ]);
    // isEmpty() (a reader's name, so tried before shift()) changed the state on its first call and ended
    // the inspection: judged by what it did, not by its name; shift() was never called
    assert.deepEqual(q.items, [3, 1, 0]);
  });

  it('a method that calls back is not an observer, and its calls are taken out of the record', () => {
    class Notifier {
      fire() {
        calls.push([2]);
        return true;
      }
    }
    const calls = [[1]];
    const seen = [{ shape: { t: 'object' }, obs: [] as unknown[] }];
    const ctx = { callbacks: [{ calls, phases: ['sync'] }], events: [] };
    const env = { pending: () => 0, guard: { tries: [] } };
    assert.equal(inspectMethods([new Notifier()], seen, ctx, env, 200, []), false);
    assert.deepEqual(calls, [[1]]);
    assert.deepEqual(seen[0].obs, []);
  });

  it('a snapshot sees nested state, Map and Set contents', () => {
    const a = { m: new Map([[1, { x: [1, 2] }]]), s: new Set(['a']) };
    const before = snapshot(a);
    a.m.get(1)!.x.push(3);
    assert.notEqual(snapshot(a), before);
    const b = { s: new Set(['a']) };
    const at = snapshot(b);
    b.s.add('b');
    assert.notEqual(snapshot(b), at);
  });
});

describe('search inspectors: private state', () => {
  it('a method that changes private fields is seen through the observers recorded before it', () => {
    class Queue {
      #items: number[] = [5, 6];
      get size() {
        return this.#items.length;
      }
      dequeue() {
        return this.#items.shift();
      }
      clear() {
        this.#items = [];
      }
      peek() {
        return this.#items[0];
      }
    }
    const q = new Queue();
    const seen = [{ shape: { t: 'object' }, obs: [{ expr: '.size', v: 2 }] as { expr: string; v: unknown }[] }];
    const ctx = { callbacks: [], events: [] };
    const env = { pending: () => 0, guard: { tries: [] } };
    assert.equal(inspectMethods([q], seen, ctx, env, 200, []), false);
    // peek() reads (tried first); dequeue() changed the size on its first call and ended the inspection
    assert.deepEqual(seen[0].obs, [
      { expr: '.size', v: 2 },
      { expr: '.peek()', v: 5 },
    ]);
    assert.equal(q.size, 1);
  });

  it('a method that clears private fields and returns the same each time is not an observer', () => {
    class Bag {
      #items: number[] = [1, 2];
      get count() {
        return this.#items.length;
      }
      reset() {
        this.#items = [];
      }
      first() {
        return this.#items[0];
      }
    }
    const b = new Bag();
    const seen = [{ shape: { t: 'object' }, obs: [{ expr: '.count', v: 2 }] as { expr: string; v: unknown }[] }];
    const ctx = { callbacks: [], events: [] };
    const env = { pending: () => 0, guard: { tries: [] } };
    // first() reads (tried first); reset() returns undefined twice, but `count` went from 2 to 0
    assert.equal(inspectMethods([b], seen, ctx, env, 200, []), false);
    assert.deepEqual(seen[0].obs, [
      { expr: '.count', v: 2 },
      { expr: '.first()', v: 1 },
    ]);
  });

  it('an array with named properties or holes is not pinned: deepStrictEqual would compare them', () => {
    const conf: unknown[] & { maxListeners?: number } = ['leak detected. '];
    assert.equal(tryEncode(conf, 200, []).ok, true);
    // eventemitter2's setMaxListeners(5) on the array it keeps as its config
    conf.maxListeners = 5;
    assert.deepEqual(tryEncode(conf, 200, []), { ok: false, why: 'an array with named properties' });
    // eslint-disable-next-line no-sparse-arrays -- a hole, as the code under test may leave one
    assert.equal(tryEncode([1, , 3], 200, []).ok, false);
  });
});
