// Inputs of the offline search (server/src/search/hints.ts, inputs.ts): what a function's syntax tree
// says about its parameters (property reads, defaults, compared literals, use as a callback), declared
// types, and arguments drawn from all of it with a fixed seed.
import { strict as assert } from 'node:assert';
import { loadJsParser, type EsNode, type JsParser } from '../../server/src/util/jsParser';
import { walk } from '../../server/src/util/esTree';
import { eventNames, functionHints } from '../../server/src/search/hints';
import { literalsIn } from '../../server/src/search/sourceLiterals';
import { argsFor, kindsOfType, paramHints, valueFor, type InputContext } from '../../server/src/search/inputs';
import { makeRng } from '../../server/src/search/rng';
import type { Arg } from '../../server/src/search/types';

let parser: JsParser;
before(async () => {
  parser = await loadJsParser();
});

function firstFunction(code: string, p: JsParser = parser): EsNode {
  const { program } = p.parse('m.js', code);
  let fn: EsNode | undefined;
  walk(program, (n) => {
    if (!fn && /Function/.test(n.type)) fn = n;
  });
  return fn!;
}

function ctx(seed = 1): InputContext {
  return { rng: makeRng(seed), numbers: [7], strings: ['own'], constants: [], refs: [], callbacks: { next: 0 }, files: new Map() };
}

describe('search inputs: what the code says about its parameters', () => {
  it('reads the properties a function takes from an options object, with the literals they are compared with', () => {
    const h = functionHints(
      firstFunction(`function f(opts, cb) {
        if (opts.mode === 'strict') return cb(null, opts.base);
        const { depth = 3, label } = opts;
        if (opts.limit > 10) cb(new Error('too many'));
      }`),
    );
    const [opts, cb] = h.params;
    assert.equal(opts.name, 'opts');
    assert.deepEqual(Object.keys(opts.props), ['mode', 'base', 'depth', 'label', 'limit']);
    assert.deepEqual(opts.props.mode.literals, ['strict']);
    assert.deepEqual(opts.props.depth.literals, [3]);
    assert.deepEqual(opts.props.limit.literals, [10]);
    assert.ok(opts.props.limit.kinds.includes('number'));
    assert.ok(opts.kinds.includes('object'));
    assert.deepEqual(cb.kinds, ['function']);
  });

  it('takes default values, destructured keys with their defaults, and rest parameters', () => {
    const h = functionHints(
      firstFunction(`function g(text, times = 2, { sep = ', ', trim } = {}, ...rest) { return text.repeat(times); }`),
    );
    assert.deepEqual(
      h.params.map((p) => [p.name, p.hasDefault ?? false, p.rest ?? false, p.literals]),
      [
        ['text', false, false, []],
        ['times', true, false, [2]],
        [undefined, true, false, [{ $: 'obj', v: {} }]],
        ['rest', false, true, []],
      ],
    );
    assert.deepEqual(Object.keys(h.params[2].props), ['sep', 'trim']);
    assert.deepEqual(h.params[2].props.sep.literals, [', ']);
    // `text.repeat(...)` is a string method: the parameter is a string
    assert.ok(h.params[0].kinds.includes('string'));
  });

  it('tells kinds from typeof checks, instanceof, switch cases, Array.isArray and the name', () => {
    const h = functionHints(
      firstFunction(`function k(value, list, pattern, done) {
        if (typeof value === 'number') return 1;
        if (Array.isArray(list)) return 2;
        if (pattern instanceof RegExp) return 3;
        switch (value) { case 'a': case 4: return 4; }
      }`),
    );
    assert.ok(h.params[0].kinds.includes('number'));
    assert.deepEqual(h.params[0].literals, ['a', 4]);
    assert.ok(h.params[1].kinds.includes('array'));
    assert.ok(h.params[2].kinds.includes('regexp'));
    assert.deepEqual(h.params[3].kinds, ['function']);
  });

  it('collects the literals of a function and the event names of a module', () => {
    const code = `function e(x) { this.emit('change', x); if (x === 3 || x === 'three') this.on('reset', () => 0); return 0.5; }`;
    const fn = firstFunction(code, parser);
    assert.deepEqual(literalsIn(fn.body), { numbers: [3, 0, 0.5], strings: ['change', 'three', 'reset'] });
    assert.deepEqual(eventNames(parser.parse('m.js', code).program), ['change', 'reset']);
  });

  it('a function that reads `arguments` and declares no parameter gets optional ones, described by its use of `arguments[i]`', () => {
    const h = functionHints(
      firstFunction(
        `function deepExtend(/*obj_1, [obj_2]*/) { if (typeof arguments[0] !== 'object') return false; return Object.keys(arguments[1]); }`,
      ),
    );
    assert.equal(h.params.length, 3);
    assert.ok(
      h.params.every((p) => p.rest && p.kinds.includes('object')),
      JSON.stringify(h.params),
    );
    const arrow = functionHints(firstFunction(`const f = () => arguments.length;`));
    assert.equal(arrow.params.length, 0, "an arrow's `arguments` are its enclosing function's");
  });

  it('declared types become kinds, and a union of string literals gives values', () => {
    assert.deepEqual(kindsOfType('string | undefined'), ['string']);
    assert.deepEqual(kindsOfType('number[]'), ['array']);
    assert.deepEqual(kindsOfType('(err: Error) => void'), ['function']);
    assert.deepEqual(kindsOfType('Record<string, number>'), ['object']);
    const [h] = paramHints(undefined, { types: ["'asc' | 'desc'"], names: ['order'] }, 1);
    assert.ok(h.kinds.includes('string'));
    assert.deepEqual(h.literals, ['asc', 'desc']);
  });
});

describe('search inputs: arguments', () => {
  it('draws the same arguments for the same seed, and other ones for another seed', () => {
    const params = paramHints(functionHints(firstFunction(`function f(opts, count) { return opts.base + count; }`)), undefined, 2);
    const draw = (seed: number) => JSON.stringify(Array.from({ length: 20 }, () => argsFor(params, 2, undefined, ctx(seed))));
    assert.equal(draw(3), draw(3));
    assert.notEqual(draw(3), draw(4));
  });

  it('an options object carries the keys the function reads; a callback parameter gets a recording callback', () => {
    const params = paramHints(functionHints(firstFunction(`function f(opts, cb) { if (opts.base) cb(null, opts.depth); }`)), undefined, 2);
    const c = ctx(9);
    const drawn = Array.from({ length: 60 }, () => valueFor(params[0], c));
    const objects = drawn.filter((a): a is Extract<Arg, { obj: unknown }> => 'obj' in a);
    assert.ok(objects.length > 10);
    assert.ok(objects.every((o) => Object.keys(o.obj).every((k) => k === 'base' || k === 'depth')));
    assert.ok(objects.some((o) => Object.keys(o.obj).length === 2));
    const cbs = Array.from({ length: 30 }, () => valueFor(params[1], c)).filter((a) => 'cb' in a);
    assert.ok(cbs.length > 20, `callbacks: ${cbs.length} of 30`);
  });

  it('a list whose items the code calls gets items that are callbacks, and tasks call back their last argument', () => {
    const code = `function series(tasks, cb) { var i = 0; function each(err) { if (err || ++i === tasks.length) return cb(err); tasks[i](each); } tasks[0](each); }`;
    const h = functionHints(firstFunction(code));
    assert.deepEqual(h.params[0].items?.kinds, ['function'], 'tasks[i](each): each item is a function');
    const params = paramHints(h, undefined, 2);
    const c = ctx(11);
    const lists = Array.from({ length: 60 }, () => valueFor(params[0], c)).filter((a): a is Extract<Arg, { arr: Arg[] }> => 'arr' in a);
    const ofTasks = lists.filter((l) => l.arr.length > 0 && l.arr.every((x) => 'cb' in x));
    assert.ok(ofTasks.length >= 10, `lists of callbacks: ${ofTasks.length} of ${lists.length} lists`);
    const tasks = ofTasks.flatMap((l) => l.arr.map((x) => (x as Extract<Arg, { cb: unknown }>).cb));
    assert.ok(tasks.some((t) => t.cont === 'ok') && tasks.some((t) => t.cont === 'err'), JSON.stringify(tasks));
    assert.ok(
      tasks.some((t) => !t.cont),
      'some tasks never call back (the code that waits for ever is a case too)',
    );
    // a string key is a property, not an item
    assert.equal(functionHints(firstFunction(`function f(o) { return o['base'] + 1; }`)).params[0].props.base?.name, 'base');
  });

  it('code that runs generator functions gets generator callbacks, whose promises resolve or reject', () => {
    const code = `function run(gen) { var it = gen.apply(this); if (typeof it.next !== 'function') return it; return it.next(); }`;
    const params = paramHints(functionHints(firstFunction(code)), undefined, 1);
    const c = { ...ctx(4), strings: ['GeneratorFunction'] };
    const cbs = Array.from({ length: 60 }, () => valueFor(params[0], c)).flatMap((a) => ('cb' in a ? [a.cb] : []));
    assert.ok(cbs.filter((cb) => cb.gen === 'ok').length >= 10, JSON.stringify(cbs));
    assert.ok(cbs.some((cb) => cb.gen === 'err'));
    assert.deepEqual(
      [...new Set(cbs.map((cb) => cb.yields ?? 'promise'))].sort(),
      ['array', 'object', 'promise', 'thunk'],
      'each form a runner takes',
    );
    assert.ok(
      cbs.every((cb) => !(cb.gen && (cb.cont || cb.async))),
      'a generator neither calls back nor is async',
    );
    const plain = Array.from({ length: 60 }, () => valueFor(params[0], ctx(4))).flatMap((a) => ('cb' in a ? [a.cb] : []));
    assert.ok(
      plain.every((cb) => !cb.gen),
      'no generators for code that does not run them',
    );
  });

  it('trivial values are drawn rarely, never by default', () => {
    const params = paramHints(functionHints(firstFunction(`function f(name) { return name.toUpperCase(); }`)), undefined, 1);
    const c = ctx(5);
    const trivial = Array.from({ length: 400 }, () => valueFor(params[0], c)).filter(
      (a) => 'lit' in a && (a.lit === '' || a.lit === null || (typeof a.lit === 'object' && !Array.isArray(a.lit) && a.lit?.$ === 'undef')),
    );
    assert.ok(trivial.length > 0 && trivial.length < 40, `${trivial.length} trivial of 400`);
  });

  it('documented argument lists are used as they are now and then', () => {
    const c = ctx(2);
    const lists = Array.from({ length: 40 }, () => argsFor(paramHints(undefined, undefined, 1), 1, { examples: [['1.5 kB']] }, c));
    assert.ok(lists.some((l) => JSON.stringify(l) === JSON.stringify([{ lit: '1.5 kB' }])));
  });

  it('a path parameter gets a path inside the sequence folder, and the files it may name are created there', () => {
    const [h] = paramHints(functionHints(firstFunction(`function f(dir) { return dir; }`)), undefined, 1);
    const c = ctx(11);
    const args = Array.from({ length: 30 }, () => valueFor(h, c));
    assert.ok(args.filter((a) => 'tmp' in a).length > 15);
    assert.ok([...c.files.keys()].every((f) => !f.startsWith('/') && !f.includes('..')));
  });
});
