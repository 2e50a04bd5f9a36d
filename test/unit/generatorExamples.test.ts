// Each generator view carries the documented examples of its own symbols (the is-what relay run,
// F4): the README's usage block names functions of many modules; it used to travel whole with one
// view only, so the views planning the others never saw their documented results (isIterable's
// wrong README line among them).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { generatorBatching } from '../../server/src/agents/generator/batches';
import type { CrawlerOutput } from '../../server/src/contracts/types';

const NAMES = ['isMap', 'isSet', 'isIterable', 'isDate'];
const README = `# iswhat

\`\`\`js
import { isMap, isSet, isIterable, isDate } from 'iswhat'

isMap(new Map()) // true
isSet(new Set()) // true
isIterable([1]) // true
isIterable(function* generator() {}) // true
isDate(new Date()) // true
\`\`\`
`;

describe('generator views: the documented examples of their own symbols', () => {
  let dir: string;
  let map: CrawlerOutput;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'amtp-examples-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'iswhat', main: 'src/index.js' }));
    writeFileSync(join(dir, 'README.md'), README);
    for (const n of NAMES)
      writeFileSync(
        join(dir, `src/${n}.js`),
        `/** Whether it is one. */\nexport function ${n}(payload) {\n${'  // a long body that fills the budget\n'.repeat(40)}  return !!payload;\n}\n`,
      );
    writeFileSync(join(dir, 'src/index.js'), NAMES.map((n) => `export * from './${n}.js';`).join('\n') + '\n');
    map = (await crawlWorkspace(dir)).map;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('each view shows the lines of the usage block that name its symbols, the block cited where the README has it', () => {
    const views = generatorBatching.plan(map, {
      budget: { payloadTokens: 1200, outputTokens: 4000 },
      depth: 'standard',
      framework: 'auto',
    });
    assert.ok(views.length >= 3, `${views.length} views`);
    for (const n of NAMES) {
      const view = views.find((v) => v.payload.key_files.some((k) => k.symbols.some((s) => s.name === n)))!.payload;
      const ex = view.usage_examples.find((e) => e.source === 'README.md');
      assert.ok(ex, `the view planning ${n} has the README block`);
      assert.equal(ex.line, map.usage_examples.find((e) => e.source === 'README.md')!.line);
      assert.ok(ex.code.includes(`${n}(`), `${n}: ${ex.code}`);
      const others = NAMES.filter((o) => !view.key_files.some((k) => k.symbols.some((s) => s.name === o)));
      for (const o of others) assert.ok(!ex.code.includes(`${o}(`), `${o} is another view's: ${ex.code}`);
    }
    const iterable = views.find((v) => v.payload.key_files.some((k) => k.symbols.some((s) => s.name === 'isIterable')))!.payload;
    assert.match(
      iterable.usage_examples.find((e) => e.source === 'README.md')!.code,
      /isIterable\(function\* generator\(\) \{\}\) \/\/ true/,
    );
  });
});
