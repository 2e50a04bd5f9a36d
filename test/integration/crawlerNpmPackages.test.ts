import { strict as assert } from 'node:assert';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';
import { validate } from '../../server/src/contracts/validate';
import { unpackNpmPackage } from '../helpers/npmPack';

// Real packages from the npm registry (npm pack; tarballs cached in the OS temp dir).
describe('crawler on real npm packages', function () {
  this.timeout(180_000);

  it('ms@2.1.3: the default export and its README examples', async () => {
    const { map } = await crawlWorkspace(await unpackNpmPackage('ms@2.1.3'));
    assert.ok(validate('crawler-output', map).ok);
    const [kf] = map.key_files;
    assert.equal(kf.path, 'index.js');
    assert.equal(kf.import_specifier, 'ms');
    assert.equal(kf.module_system, 'cjs');
    const ms = kf.symbols.find((s) => s.name === 'ms')!;
    assert.equal(ms.export_style, 'module.exports');
    assert.deepEqual(
      ms.params?.map((p) => p.name),
      ['val', 'options'],
    );
    assert.match(ms.throws?.[0] ?? '', /^Error: /);
    const ex = map.usage_examples.find((e) => e.code.includes("ms('2 days')  // 172800000"));
    assert.ok(ex, 'README example found');
    assert.deepEqual(ex.symbols, ['ms']);
    assert.equal(ex.source, 'readme.md');
  });

  it('bytes@3.1.2: module.exports plus format/parse properties, each linked to its examples', async () => {
    const { map } = await crawlWorkspace(await unpackNpmPackage('bytes@3.1.2'));
    const syms = Object.fromEntries(map.key_files[0].symbols.map((s) => [s.name, s]));
    assert.equal(syms.bytes.export_style, 'module.exports');
    assert.equal(syms.format.export_style, 'exports.property');
    assert.equal(syms.parse.export_style, 'exports.property');
    assert.equal(syms.parse.returns, 'number|null');
    const linked = (name: string) => map.usage_examples.filter((e) => e.symbols.includes(name)).map((e) => e.code);
    assert.ok(linked('format').some((c) => c.includes('bytes.format(1024);')));
    assert.ok(linked('parse').some((c) => c.includes("bytes.parse('1KB');")));
    assert.ok(linked('bytes').some((c) => c.includes('bytes(1024);')));
    assert.ok(!linked('parse').some((c) => c.includes('bytes.format(1024);')));
  });

  it('slugify@1.6.6: a UMD build described by its typings', async () => {
    const { map } = await crawlWorkspace(await unpackNpmPackage('slugify@1.6.6'));
    const kf = map.key_files.find((k) => k.path === 'slugify.js')!;
    assert.equal(kf.import_specifier, 'slugify');
    const names = kf.symbols.map((s) => s.name);
    assert.deepEqual(names, ['slugify', 'slugify.extend']);
    assert.equal(kf.symbols[0].export_style, 'module.exports');
    assert.match(kf.symbols[0].signature!, /^slugify\(string: string, options\?:/);
    assert.equal(map.test_setup.framework, 'mocha');
    assert.ok(map.usage_examples.some((e) => e.code.includes("slugify('some string')") && e.symbols.includes('slugify')));
    assert.ok(map.usage_examples.some((e) => e.symbols.includes('slugify.extend')));
  });
});
