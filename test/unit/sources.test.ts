// Source in every request that judges behaviour: the crawler gives each symbol its declaration's
// lines and the same module's names it uses (jsSpans.ts, pySpans.ts); the generator's views and the
// engineer's batches carry each target's whole source and its helpers (agents/sources.ts), packed
// by measured size, and a batch splits before a source is cut.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateTokens } from '../../server/src/agents/budget';
import { extractJsSymbols } from '../../server/src/agents/crawler/jsSymbols';
import { loadJsParser } from '../../server/src/util/jsParser';
import { loadPython } from '../../server/src/frameworks/pyGrammar';
import { extractPySymbols } from '../../server/src/agents/crawler/pySymbols';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { crawlerBatching } from '../../server/src/agents/crawler/batches';
import { scopeMap } from '../../server/src/agents/crawler/scope';
import { engineerBatching, symbolInfo } from '../../server/src/agents/engineer/batches';
import { generatorBatching } from '../../server/src/agents/generator/batches';
import { projectBlock } from '../../server/src/agents/generator/project';
import type { CrawlerOutput, TestCase } from '../../server/src/contracts/types';

const ARRAY_TS = `/** Default size. */
const SIZE = 2;

function check(n: number): void {
  if (n < 0) throw new RangeError('negative');
}

/**
 * Splits an array into chunks.
 * @example chunk([1, 2, 3], 2) // => [[1, 2], [3]]
 */
export function chunk<T>(xs: T[], size = SIZE): T[][] {
  check(size);
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) {
    out.push(xs.slice(i, i + size));
  }
  return out;
}

export class Stack<T> {
  private items: T[] = [];
  push(x: T): number {
    check(this.items.length);
    return this.items.push(x);
  }
  peek(): T | undefined {
    return this.items[this.items.length - 1];
  }
}

export const first = <T>(xs: T[]): T | undefined => xs[0];
`;

const linesOf = (text: string, from: number, to: number) =>
  text
    .split('\n')
    .slice(from - 1, to)
    .join('\n');

describe('sources: spans and helpers from the syntax tree', () => {
  it('JavaScript/TypeScript: each symbol ends where its declaration ends and names the helpers it uses', async () => {
    const facts = extractJsSymbols(await loadJsParser(), ARRAY_TS, 'src/array.ts', 'array');
    const by = (n: string) => facts.symbols.find((s) => s.name === n)!;
    assert.equal(
      linesOf(ARRAY_TS, by('chunk').line!, by('chunk').end_line!),
      ARRAY_TS.slice(ARRAY_TS.indexOf('export function chunk'), ARRAY_TS.indexOf('\n\nexport class')),
    );
    assert.deepEqual(
      by('chunk').calls,
      ['check', 'SIZE'].filter((n) => by('chunk').calls!.includes(n)),
    );
    assert.deepEqual(new Set(by('chunk').calls), new Set(['check', 'SIZE']));
    assert.deepEqual(by('Stack.push').calls, ['check']);
    assert.equal(by('Stack.peek').calls, undefined, 'a member name is no use of a top-level name');
    assert.equal(linesOf(ARRAY_TS, by('first').line!, by('first').end_line!), 'export const first = <T>(xs: T[]): T | undefined => xs[0];');
    assert.deepEqual(
      facts.helpers?.map((h) => [h.name, linesOf(ARRAY_TS, h.line, h.end_line)]),
      [
        ['SIZE', 'const SIZE = 2;'],
        ['check', "function check(n: number): void {\n  if (n < 0) throw new RangeError('negative');\n}"],
      ],
    );
  });

  it('Python: a function or method ends with its block and names the module functions and constants it uses', async () => {
    const text = `LIMIT = 10\n\n\ndef _clip(x):\n    return min(x, LIMIT)\n\n\ndef scale(x, k=2):\n    """Scales x."""\n    return _clip(x * k)\n\n\nclass Box:\n    def fill(self, x):\n        self.x = _clip(x)\n        return self\n`;
    const facts = extractPySymbols(await loadPython(), text);
    const scale = facts.symbols.find((s) => s.name === 'scale')!;
    assert.equal(linesOf(text, scale.line!, scale.end_line!), 'def scale(x, k=2):\n    """Scales x."""\n    return _clip(x * k)');
    assert.deepEqual(scale.calls, ['_clip'], "what it uses directly: _clip, not _clip's LIMIT");
    assert.deepEqual(facts.symbols.find((s) => s.name === 'Box.fill')!.calls, ['_clip']);
    assert.deepEqual(
      facts.helpers?.map((h) => h.name),
      ['LIMIT', '_clip'],
    );
  });
});

describe('sources: the generator and the engineer get whole sources within the budget', () => {
  let dir: string;
  let map: CrawlerOutput;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-sources-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'arr', main: 'src/array.ts', scripts: { test: 'jest' } }));
    writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }');
    writeFileSync(join(dir, 'jest.config.js'), "module.exports = { preset: 'ts-jest', testEnvironment: 'node' };\n");
    writeFileSync(join(dir, 'src/array.ts'), ARRAY_TS + bigFunction());
    map = (await crawlWorkspace(dir)).map;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('each generator view holds the whole code of its symbols and their helpers, and fits its budget', () => {
    const budget = { payloadTokens: 1500, outputTokens: 4000 };
    const batches = generatorBatching.plan(map, { budget, depth: 'standard', framework: 'auto' });
    assert.equal(batches.length, 1, 'the one declaration too large for any batch is an outline; the rest fits one view');
    for (const b of batches)
      assert.ok(estimateTokens(b.payload) <= budget.payloadTokens, `batch ${b.key}: ${estimateTokens(b.payload)} tokens`);
    const withChunk = batches.find((b) => b.payload.key_files.some((f) => f.symbols.some((s) => s.name === 'chunk')))!.payload;
    const code = (n: string) => withChunk.sources?.find((s) => s.name === n);
    assert.ok(code('chunk')!.code.startsWith('export function chunk') && code('chunk')!.code.endsWith('  return out;\n}'));
    assert.equal(code('check')?.helper, true);
    assert.equal(code('SIZE')?.code, 'const SIZE = 2;');
    assert.equal(withChunk.samples, undefined, 'no file sample cut mid-function');
    // The one declaration too large for any batch is an outline (its first line), never a cut body.
    const huge = batches.flatMap((b) => b.payload.sources ?? []).find((s) => s.name === 'huge')!;
    assert.equal(huge.outline, true);
    assert.match(huge.code, /^export function huge\(n: number\): number \{\n {2}\/\/ … \d+ line\(s\) left out: too large for one batch$/);
    // With room for it alone, the large declaration goes whole into a batch of its own: the batch splits, the source is not cut.
    const roomy = { payloadTokens: 6500, outputTokens: 4000 };
    const split = generatorBatching.plan(map, { budget: roomy, depth: 'standard', framework: 'auto' });
    assert.equal(split.length, 2);
    for (const b of split) assert.ok(estimateTokens(b.payload) <= roomy.payloadTokens, `${estimateTokens(b.payload)} tokens`);
    const whole = split.flatMap((b) => b.payload.sources ?? []).find((s) => s.name === 'huge')!;
    assert.equal(whole.outline, undefined);
    assert.ok(whole.code.endsWith('  return -1;\n}'));
  });

  it("the crawler's views leave out the derived calls and helpers, and its merged map has them back", () => {
    const ctx = { budget: { payloadTokens: 3000, outputTokens: 4000 }, depth: 'standard' as const, framework: 'auto' as const };
    const views = crawlerBatching.plan(map, ctx);
    assert.ok(views.every((v) => v.payload.key_files.every((k) => !k.helpers && k.symbols.every((x) => !x.calls))));
    const merged = crawlerBatching.merge(
      map,
      views.map((v) => ({ payload: v.payload, output: { schema_version: '1' as const, patch: [] } })),
      ctx,
    );
    assert.deepEqual(merged.key_files, map.key_files);
  });

  it('a view cut in two keeps, in each half, exactly the sources its symbols need', () => {
    const [batch] = generatorBatching.plan(map, {
      budget: { payloadTokens: 100_000, outputTokens: 100_000 },
      depth: 'standard',
      framework: 'auto',
    });
    const halves = generatorBatching.split(batch.payload)!;
    const names = halves.map((h) => (h.sources ?? []).map((s) => s.name).sort());
    assert.ok(names[0].includes('chunk') && names[0].includes('check') && !names[0].includes('huge'), names[0].join());
    assert.ok(names[1].includes('huge') && !names[1].includes('chunk'), names[1].join());
  });

  it('the engineer gets the whole source and helpers; a batch splits before a source is cut', () => {
    const info = symbolInfo(map, 'src/array.ts', 'chunk');
    assert.equal(info.source_truncated, undefined);
    assert.ok(info.source!.includes('for (let i = 0; i < xs.length; i += size)'));
    assert.deepEqual(info.helpers?.map((h) => h.name).sort(), ['SIZE', 'check']);
    const cases = ['chunk', 'first', 'Stack.push'].flatMap((symbol) => [1, 2].map((k) => testCase(symbol, k)));
    const plan = { schema_version: '1' as const, depth_level: 'standard' as const, project: projectBlock(map), cases };
    const budget = { payloadTokens: 1400, outputTokens: 4000 };
    const batches = engineerBatching.plan({ plan, map }, { budget, depth: 'standard', framework: 'jest' });
    assert.ok(batches.length >= 2);
    for (const b of batches) {
      assert.ok(estimateTokens(b.payload) <= budget.payloadTokens, `${estimateTokens(b.payload)} tokens`);
      for (const s of b.payload.symbols) assert.ok(!s.source_truncated, `${s.name} was reduced though a smaller batch would hold it`);
    }
    assert.deepEqual(batches.flatMap((b) => b.payload.cases.map((c) => c.case.id)).sort(), cases.map((c) => c.id).sort());
  });

  it('the conventions say how sources are imported exactly as the import lines AMTP writes do, and that ts-jest type-checks', () => {
    for (const module_system of ['esm', 'cjs'] as const) {
      const project = { ...projectBlock(map), module_system };
      const plan = { schema_version: '1' as const, depth_level: 'standard' as const, project, cases: [testCase('chunk', 1)] };
      const [b] = engineerBatching.plan(
        { plan, map },
        { budget: { payloadTokens: 8000, outputTokens: 4000 }, depth: 'standard', framework: 'jest' },
      );
      const imports = b.payload.files[0].imports.join('\n');
      if (module_system === 'esm') {
        assert.match(imports, /'\.\.\/\.\.\/src\/array\.js'|'\.\.\/src\/array\.js'|'\.\/array\.js'/);
        assert.match(b.payload.conventions!, /imported with a `\.js` extension/);
      } else {
        assert.doesNotMatch(imports, /array\.js'/);
        assert.match(imports, /array'/);
        assert.match(b.payload.conventions!, /imported without an extension/);
      }
      assert.doesNotMatch(b.payload.conventions!, /'\.\/x\.js'/);
      assert.match(
        b.payload.conventions!,
        /type-checks each test file \(jest\.config\.js: ts-jest .*\) under tsconfig strict: one type error fails every test of the file/,
      );
    }
  });

  it('the project block tells the engineer that ts-jest type-checks under strict', () => {
    assert.deepEqual(map.test_setup.typecheck, {
      checked: true,
      strict: true,
      evidence: 'jest.config.js: ts-jest reports type errors (diagnostics on), failing the whole test file',
    });
    assert.equal(projectBlock(map).test_setup.typecheck?.strict, true);
  });
});

function bigFunction(): string {
  const body = Array.from({ length: 400 }, (_, i) => `  if (n === ${i}) return ${i * 3}; // case ${i} of the big table`).join('\n');
  return `\nexport function huge(n: number): number {\n${body}\n  return -1;\n}\n`;
}

function testCase(symbol: string, k: number): TestCase {
  return {
    id: `tc_${symbol === 'chunk' ? 'a' : symbol === 'first' ? 'b' : 'c'}${k}0000000000`.slice(0, 15),
    title: `${symbol} case ${k}`,
    target: { file: 'src/array.ts', symbol, export_style: 'named' },
    kind: 'example',
    priority: 'P2',
    preconditions: [],
    steps: [`call ${symbol}`],
    expected: ['a value'],
    rationale: 'the source',
  };
}

// Callees from the package's other modules (the relay runs, F3): `isPrimitive` calls `getType` and
// `isString` imported from their own files; their sources travel with it, in the generator's view
// and the engineer's symbol, and a scoped map keeps the files they come from.
describe('sources: callees imported from the package’s other modules', () => {
  let dir: string;
  let map: CrawlerOutput;
  const GET_TYPE =
    '/** The type name. */\nexport function getType(payload: unknown): string {\n  return Object.prototype.toString.call(payload).slice(8, -1);\n}\n';
  const IS_STRING =
    "import { getType } from './getType.js';\n\nexport function isString(payload: unknown): payload is string {\n  return getType(payload) === 'String';\n}\n";
  const IS_PRIMITIVE =
    "import { getType as typeOf } from './getType.js';\nimport { isString } from './isString.js';\n\n/** Whether a value is a primitive. */\nexport function isPrimitive(payload: unknown): boolean {\n  return isString(payload) || typeOf(payload) === 'Number';\n}\n";
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-callees-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'iswhat', type: 'module', main: 'src/index.ts', scripts: { test: 'vitest run' } }),
    );
    writeFileSync(join(dir, 'src/getType.ts'), GET_TYPE);
    writeFileSync(join(dir, 'src/isString.ts'), IS_STRING);
    writeFileSync(join(dir, 'src/isPrimitive.ts'), IS_PRIMITIVE);
    writeFileSync(
      join(dir, 'src/index.ts'),
      "export * from './getType.js';\nexport * from './isString.js';\nexport * from './isPrimitive.js';\n",
    );
    map = (await crawlWorkspace(dir)).map;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the crawler names the callees with the module they are declared in', () => {
    const prim = map.key_files.find((k) => k.path === 'src/isPrimitive.ts')!;
    assert.deepEqual(prim.symbols[0].calls?.sort(), ['isString', 'typeOf']);
    assert.deepEqual(prim.helpers?.map((h) => [h.name, h.path, h.line, h.end_line]).sort(), [
      ['isString', 'src/isString.ts', 3, 5],
      ['typeOf', 'src/getType.ts', 2, 4],
    ]);
  });

  it("the generator's view and the engineer's symbol carry the callees' whole sources; a scoped map keeps their files", () => {
    const scoped = scopeMap(map, { files: [{ path: 'src/isPrimitive.ts' }], only: ['src/isPrimitive.ts'] });
    const [view] = generatorBatching.plan(scoped, {
      budget: { payloadTokens: 6000, outputTokens: 4000 },
      depth: 'standard',
      framework: 'auto',
    });
    const sources = view.payload.sources ?? [];
    assert.deepEqual(
      view.payload.key_files.map((k) => k.path),
      ['src/isPrimitive.ts'],
    );
    assert.equal(sources.find((s) => s.name === 'typeOf')?.code, GET_TYPE.split('\n').slice(1).join('\n').trimEnd());
    assert.equal(sources.find((s) => s.name === 'isString')?.path, 'src/isString.ts');
    assert.ok(sources.find((s) => s.name === 'isString')!.code.startsWith('export function isString'));
    const info = symbolInfo(scoped, 'src/isPrimitive.ts', 'isPrimitive');
    assert.deepEqual(info.helpers?.map((h) => h.name).sort(), ['isString', 'typeOf']);
  });
});
