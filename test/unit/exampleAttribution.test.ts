// Which module a README example is attributed to, on small packages laid out like real ones: a
// minified main entry with subpath-exported plugins (colord), and files whose function is named
// after another file (underscore.string's pred.js exports `function succ`).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CrawlerOutput } from '../../server/src/contracts/types';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { modulesWithExamples } from '../../server/src/agents/crawler/batches';
import { generateCases } from '../../server/src/agents/generator/offline';
import { namespaceAliases, withoutNamespaces } from '../../server/src/agents/crawler/namespaceAliases';

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'amtp-attr-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

const examplesOf = (map: CrawlerOutput) =>
  generateCases(map, 'standard')
    .cases.filter((c) => c.evidence?.source === 'readme')
    .map((c) => [c.target.file, c.oracle?.call, c.oracle?.expected]);

describe('README examples are attributed to the module they call', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("a call of the main entry's export goes to the entry, not to a subpath plugin", async () => {
    const dir = workspace({
      'package.json': JSON.stringify({
        name: 'tint',
        version: '1.0.0',
        main: './index.js',
        exports: { '.': './index.js', './plugins/dark': './plugins/dark.js' },
      }),
      // minified: the exports are one comma expression
      'index.js': 'var t=function(r){return{hex:function(){return r}}};exports.tint=t,exports.version=function(){return"1"};\n',
      'plugins/dark.js': 'module.exports=function(o){o.prototype.dark=function(){return!0}};\n',
      'README.md': '# tint\n\n```js\nimport { tint } from "tint";\n\ntint("#fff").hex(); // "#fff"\n```\n',
    });
    dirs.push(dir);
    const { map } = await crawlWorkspace(dir);
    const names = Object.fromEntries(map.key_files.map((k) => [k.path, k.symbols.map((s) => s.name)]));
    assert.deepEqual(names['index.js'], ['tint', 'version']);
    // the plugin's default export is named by its file, not after the package
    assert.deepEqual(names['plugins/dark.js'], ['dark']);
    assert.deepEqual(examplesOf(map), [['index.js', 'tint("#fff").hex()', '"#fff"']]);
  });

  it('a call by file name goes to that file even when another file names its function the same', async () => {
    const dir = workspace({
      'package.json': JSON.stringify({ name: 'strs', version: '1.0.0', main: 'index.js' }),
      'index.js': "function s(v) { return v; }\ns.pred = require('./pred');\ns.succ = require('./succ');\nmodule.exports = s;\n",
      'pred.js': 'module.exports = function succ(str) { return String.fromCharCode(str.charCodeAt(0) - 1); };\n',
      'succ.js': 'module.exports = function succ(str) { return String.fromCharCode(str.charCodeAt(0) + 1); };\n',
      'README.md': '# strs\n\n```javascript\npred("b");\n// => "a"\n```\n\n```javascript\nsucc("a");\n// => "b"\n```\n',
    });
    dirs.push(dir);
    const { map } = await crawlWorkspace(dir);
    const owners = modulesWithExamples(map).modules.map((m) => [m.file.path, m.examples.map((e) => e.line)]);
    assert.deepEqual(
      owners.filter(([, lines]) => lines.length),
      [
        ['pred.js', [3]],
        ['succ.js', [8]],
      ],
    );
    assert.deepEqual(examplesOf(map), [
      ['pred.js', 'pred("b")', '"a"'],
      ['succ.js', 'succ("a")', '"b"'],
    ]);
  });
});

describe('README examples through an unbound namespace (`d3.min(…)`)', () => {
  const exported = new Set(['min', 'max', 'quantile', 'descending']);

  it('an unbound identifier whose called members are mostly exports is an alias; bound names and globals are not', () => {
    const blocks = [
      'd3.min([3, 2, 1]); // 1\nd3.max([1, 5]); // 5\nd3.nope(1);',
      'Math.min(1, 2);\nJSON.parse("1");',
      'x.min(1);\nx.max(2);',
    ];
    assert.deepEqual([...namespaceAliases(blocks, exported)], ['d3', 'x']);
    // `x` is bound by a snippet of the same document; one member alone is not enough on a whole document
    assert.deepEqual([...namespaceAliases([...blocks, 'const x = make();'], exported)], ['d3']);
    assert.deepEqual([...namespaceAliases(['d3.min([1]);'], exported)], []);
    assert.deepEqual([...namespaceAliases(['d3.min([1]);'], exported, 1)], ['d3']);
  });

  it('the alias is removed from calls and arguments, comments kept', () => {
    assert.equal(
      withoutNamespaces('d3.quantile(a, 0.5); // 10\nd3.rank([1, 2], d3.descending); // [1, 0]', new Set(['d3'])),
      'quantile(a, 0.5); // 10\nrank([1, 2], descending); // [1, 0]',
    );
  });

  it('plans each documented call as a call of the export, with an import binding for it', async () => {
    const dir = workspace({
      'package.json': JSON.stringify({ name: 'arr', version: '1.0.0', type: 'module', main: 'src/index.js' }),
      'src/index.js': 'export {default as min} from "./min.js";\nexport {default as quantile} from "./quantile.js";\n',
      'src/min.js': 'export default function min(values) { return Math.min(...values); }\n',
      'src/quantile.js': 'export default function quantile(values, p) { return values[Math.floor(p * (values.length - 1))]; }\n',
      'README.md': '# arr\n\n```js\nd3.min([3, 2, 1]); // 1\n```\n\n```js\nvar a = [0, 10, 30];\nd3.quantile(a, 0.5); // 10\n```\n',
    });
    try {
      const { map } = await crawlWorkspace(dir);
      const cases = generateCases(map, 'standard').cases.filter((c) => c.evidence?.source === 'readme');
      assert.deepEqual(
        cases.map((c) => [c.target.file, c.oracle?.call, c.oracle?.expected, c.oracle?.setup, c.oracle?.bindings]),
        [
          ['src/min.js', 'min([3, 2, 1])', '1', undefined, [{ local: 'min', import: 'default' }]],
          ['src/quantile.js', 'quantile(a, 0.5)', '10', 'var a = [0, 10, 30]', [{ local: 'quantile', import: 'default' }]],
        ],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
