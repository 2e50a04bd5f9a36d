// ava and node-tap are found from package.json (devDependencies, scripts.test, config keys and
// files), and the vendored-package helper names the refresh script when a tarball is missing.
import { strict as assert } from 'node:assert';
import { detectTestSetup } from '../../server/src/agents/crawler/testSetup';
import { RENDERERS } from '../../server/src/frameworks';
import { vendoredTarball } from '../helpers/npmPack';

const setup = (json: Record<string, unknown>, files: string[] = []) =>
  detectTestSetup({ files, rootPkg: { dir: '', manifest: 'package.json', json }, pyDeps: [], isPython: false });

describe('ava and node-tap detection', () => {
  it('ava from devDependencies, the test script, its config key and ava.config.*', () => {
    assert.equal(setup({ devDependencies: { ava: '^6.0.0' } }).framework, 'ava');
    assert.equal(setup({ scripts: { test: 'xo && ava' } }).framework, 'ava');
    assert.equal(setup({ ava: { files: ['test/**'] } }).framework, 'ava');
    const s = setup({}, ['ava.config.mjs', 'test/a.test.js']);
    assert.equal(s.framework, 'ava');
    assert.deepEqual(s.config_files, ['ava.config.mjs']);
  });

  it('node-tap from the tap devDependency, `tap` in the test script, .taprc; not from tap-spec or tape', () => {
    assert.equal(setup({ devDependencies: { tap: '^21.0.0' } }).framework, 'node-tap');
    assert.equal(setup({ scripts: { test: 'npm run lint && tap test/*.js' } }).framework, 'node-tap');
    assert.equal(setup({}, ['.taprc']).framework, 'node-tap');
    assert.equal(setup({ scripts: { test: 'node test.js | tap-spec' } }).framework, 'none');
    assert.equal(setup({ scripts: { test: 'tape test/*.js' }, devDependencies: { tape: '^5.0.0' } }).framework, 'none');
  });

  it('the test script outranks a dependency: mocha declared but `ava` run', () => {
    const s = setup({ scripts: { test: 'ava' }, devDependencies: { mocha: '^10.0.0', ava: '^6.0.0' } });
    assert.equal(s.framework, 'ava');
    assert.deepEqual(s.others, ['mocha']);
  });

  it('the renderers detect what the crawler found', () => {
    const project = (framework: string) => ({ test_setup: { framework, test_dirs: [], config_files: [] } }) as never;
    assert.equal(RENDERERS.ava.detect(project('ava')), true);
    assert.equal(RENDERERS['node-tap'].detect(project('node-tap')), true);
    assert.equal(RENDERERS['node-tap'].detect(project('ava')), false);
  });
});

describe('vendored npm packages (test/helpers/npmPack.ts)', () => {
  it('finds a vendored tarball; a missing one names the refresh script', () => {
    assert.match(vendoredTarball('ms@2.1.3'), /test[\\/]fixtures[\\/]packages[\\/]ms-2\.1\.3\.tgz$/);
    assert.throws(
      () => vendoredTarball('left-pad@1.3.0'),
      /left-pad@1\.3\.0 is not vendored[\s\S]*packages\.txt[\s\S]*npm run fixtures:packages/,
    );
    assert.throws(() => vendoredTarball('ms'), /not name@version/);
  });
});
