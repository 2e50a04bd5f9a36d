// The offline generator's output validates for every layout it may meet (a run whose own plan
// breaks the schema ends in needs_review with no tests): crawled fixture workspaces (JS, TS ESM,
// dist-only, a Python package) and built maps with classes, static and nested methods, nested modules.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { CrawlerOutput, KeyFile, TestCases } from '../../server/src/contracts/types';
import { validate } from '../../server/src/contracts/validate';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { generateCases } from '../../server/src/agents/generator/offline';
import { existenceShare, isExistenceOnly } from '../../server/src/agents/generator/existence';
import { crawlerMap } from './generator.test';
import { mapOf } from './exampleForms.test';

function assertValidEverywhere(name: string, map: CrawlerOutput): TestCases[] {
  return (['smoke', 'standard', 'deep'] as const).map((depth) => {
    const doc = generateCases(map, depth);
    const full = validate('test-cases', doc);
    assert.ok(full.ok, `${name} ${depth}: ${JSON.stringify(!full.ok && full.errors.slice(0, 3))}`);
    const plan = validate('case-plan', {
      schema_version: '1',
      cases: doc.cases,
      ...(doc.not_planned ? { not_planned: doc.not_planned } : {}),
    });
    assert.ok(plan.ok, `${name} ${depth} case-plan: ${JSON.stringify(!plan.ok && plan.errors.slice(0, 3))}`);
    assert.ok(doc.cases.length > 0, `${name} ${depth}: no cases`);
    return doc;
  });
}

const cls = (file: string, lang: 'python' | 'typescript' | 'javascript'): KeyFile => ({
  path: file,
  language: lang,
  rank: 100,
  module_system: lang === 'python' ? undefined : 'esm',
  symbols: [
    { name: 'Store', kind: 'class', exported: true, export_style: lang === 'python' ? 'python' : 'named', line: 1 },
    {
      name: 'Store.get',
      kind: 'method',
      exported: true,
      export_style: lang === 'python' ? 'python' : 'named',
      line: 2,
      params: [{ name: 'key' }],
    },
    { name: 'Store.create', kind: 'method', exported: true, export_style: lang === 'python' ? 'python' : 'named', line: 3, params: [] },
    { name: 'Store.Inner.walk', kind: 'method', exported: true, export_style: lang === 'python' ? 'python' : 'named', line: 4, params: [] },
    { name: 'VERSION', kind: 'constant', exported: true, export_style: lang === 'python' ? 'python' : 'named', line: 5 },
  ],
});

describe('offline generator output validates for every layout', () => {
  for (const fixture of ['ts-esm-units', 'dist-only', 'py-textkit']) {
    it(`crawled fixture ${fixture}`, async () => {
      const { map } = await crawlWorkspace(join(__dirname, '../fixtures', fixture));
      assertValidEverywhere(fixture, map);
    });
  }

  for (const name of ['ms', 'bytes', 'slugify', 'py-textkit', 'ts-esm-units']) {
    it(`stored crawler map ${name}`, () => {
      const [, standard] = assertValidEverywhere(name, crawlerMap(name));
      // README-documented packages: an export check only where the docs show no result for it
      const shapeOnly: Record<string, string[]> = { ms: [], bytes: [], slugify: ['slugify.extend is a function'] };
      if (shapeOnly[name])
        assert.deepEqual(
          standard.cases.filter(isExistenceOnly).map((c) => c.title),
          shapeOnly[name],
        );
      if (name === 'ms') assert.equal(existenceShare(standard.cases), 0);
    });
  }

  it('classes with instance, static and nested-class methods (Python, TypeScript, CommonJS)', () => {
    assertValidEverywhere(
      'python classes',
      mapOf('storepkg', [cls('storepkg/__init__.py', 'python'), cls('storepkg/sub/deep.py', 'python')], [], 'python'),
    );
    assertValidEverywhere(
      'ts classes',
      mapOf('store', [cls('src/index.ts', 'typescript'), cls('src/nested/more.ts', 'typescript')], [], 'esm'),
    );
    const cjs = { ...cls('lib/store.js', 'javascript'), module_system: 'cjs' as const };
    cjs.symbols = [
      { ...cjs.symbols[0], export_style: 'module.exports' },
      ...cjs.symbols.slice(1).map((s) => ({ ...s, export_style: 'exports.property' as const })),
    ];
    assertValidEverywhere('cjs class', mapOf('store', [cjs], [], 'cjs'));
  });

  it("the methods of a module's default-exported class are reached through its prototype (tinyqueue)", () => {
    const file: KeyFile = {
      path: 'index.js',
      language: 'javascript',
      rank: 100,
      module_system: 'esm',
      symbols: [
        { name: 'TinyQueue', kind: 'class', exported: true, export_style: 'default', line: 1 },
        { name: 'TinyQueue.push', kind: 'method', exported: true, export_style: 'default', line: 2, params: [{ name: 'item' }] },
      ],
    };
    const [smoke] = assertValidEverywhere('default class', mapOf('tinyqueue', [file], [], 'esm'));
    const push = smoke.cases.find((c) => c.target.symbol === 'TinyQueue.push');
    assert.match(JSON.stringify(push?.oracle), /TinyQueue\.prototype\.push/, JSON.stringify(push?.oracle));
  });

  it('a symbol name no binding can carry is moved to not_planned, never breaking the plan', () => {
    const odd: KeyFile = {
      path: 'weird.py',
      language: 'python',
      rank: 1,
      symbols: [
        { name: '1bad-name', kind: 'function', exported: true, export_style: 'python', line: 1 },
        { name: 'good', kind: 'function', exported: true, export_style: 'python', line: 2 },
      ],
    };
    const [smoke] = assertValidEverywhere('odd names', mapOf('weird', [odd], [], 'python'));
    assert.deepEqual(
      smoke.cases.map((c) => c.target.symbol),
      ['good'],
    );
    assert.match(smoke.not_planned?.map((n) => n.reason).join('\n') ?? '', /broke the test-cases schema \(\/oracle\/bindings\/0\/local/);
  });
});
