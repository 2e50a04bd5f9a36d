import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyToView, planViews, splitView } from '../../server/src/agents/crawler/batches';
import { estimateTokens } from '../../server/src/agents/budget';
import { generatorBatching } from '../../server/src/agents/generator/batches';
import type { CrawlerOutput, KeyFile } from '../../server/src/contracts/types';

const ms = JSON.parse(readFileSync(join(__dirname, '../fixtures/crawler-maps/ms.json'), 'utf8')) as CrawlerOutput;

/** A map shaped like a functional-utility package: one index re-exporting `n` documented functions, plus `modules` small modules. */
function bigMap(n: number, modules: number): CrawlerOutput {
  const proto = ms.key_files[0].symbols[0];
  const index: KeyFile = {
    ...ms.key_files[0],
    path: 'src/index.js',
    symbols: Array.from({ length: n }, (_, i) => ({ ...proto, name: `fn${i}`, line: i + 1 })),
  };
  const files: KeyFile[] = Array.from({ length: modules }, (_, i) => ({
    ...ms.key_files[0],
    path: `src/m${i}.js`,
    symbols: [{ ...proto, name: `m${i}` }],
  }));
  return { ...ms, key_files: [index, ...files], usage_examples: [], samples: [] };
}

const symbolsOf = (views: CrawlerOutput[]) => views.flatMap((v) => v.key_files.flatMap((f) => f.symbols.map((s) => `${f.path}#${s.name}`)));

describe('batch plans: every request and expected reply within budget, nothing dropped or sent twice', () => {
  it('a 270-export index is cut into parts whose expected plans fit the output bound', () => {
    const map = bigMap(270, 40);
    const views = planViews(map, 6000, { perSymbol: 450, perExample: 0 }, 4000);
    const all = symbolsOf(views);
    assert.equal(all.length, 310);
    assert.equal(new Set(all).size, 310, 'no symbol twice');
    for (const v of views) {
      const symbols = v.key_files.reduce((n, f) => n + f.symbols.length, 0);
      assert.ok(symbols * 450 <= 4000, `view ${v.view?.batch} expects ${symbols * 450} reply tokens`);
      assert.ok(estimateTokens(v) <= 6000 + 64, `view ${v.view?.batch} is ${estimateTokens(v)} tokens`);
    }
    assert.equal(views[0].view?.of, views.length);
  });

  it('the generator batches the same map at the run budget, and a view split in two keeps every symbol once', () => {
    const map = bigMap(270, 0);
    const batches = generatorBatching.plan(map, {
      budget: { payloadTokens: 6000, outputTokens: 4000 },
      depth: 'standard',
      framework: 'auto',
    });
    assert.ok(batches.length >= 30, `${batches.length} batches`);
    const halves = splitView(batches[0].payload);
    assert.ok(halves);
    assert.deepEqual(symbolsOf(halves), symbolsOf([batches[0].payload]));
    assert.ok(symbolsOf([halves[0]]).length > 0 && symbolsOf([halves[1]]).length > 0);
  });

  it('without an output estimate (the crawler) a module is cut only by the input room', () => {
    const views = planViews(bigMap(270, 0), 100_000);
    assert.equal(views.length, 1);
    assert.equal(symbolsOf(views).length, 270);
  });
});

describe('a crawler patch is applied one operation at a time', () => {
  it("an operation that breaks the map's shapes or does not apply is dropped with a note; the others land", () => {
    const view = planViews(ms, 6000)[0];
    const patch = [
      { op: 'add', path: '/key_files/0/symbols/0/throws/-', value: { type: 'TypeError', message: 'val is not a string' } },
      { op: 'add', path: '/key_files/0/symbols/0/throws/-', value: 'Error: val is an empty string' },
      { op: 'replace', path: '/key_files/9/path', value: 'x.js' },
      { op: 'add', path: '/notes', value: ['the README documents ms(val, { long: true })'] },
    ];
    const out = applyToView(view, patch as never);
    assert.deepEqual(out.key_files[0].symbols[0].throws, [...(view.key_files[0].symbols[0].throws ?? []), 'Error: val is an empty string']);
    assert.equal(out.notes?.[0], 'the README documents ms(val, { long: true })');
    assert.equal(out.notes?.length, 3);
    assert.match(out.notes![1], /^patch operation 0 \(add \/key_files\/0\/symbols\/0\/throws\/-\) was dropped: .*must be string/);
    assert.match(out.notes![2], /^patch operation 2 \(replace \/key_files\/9\/path\) was dropped: /);
    assert.deepEqual(view.key_files[0].symbols[0].throws, ms.key_files[0].symbols[0].throws, 'the view itself is untouched');
  });
});
