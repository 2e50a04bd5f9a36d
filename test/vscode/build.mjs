// Bundles the extension-host mocha suite and the @vscode/test-electron runner to out/test/vscode
// (extension hosts load JavaScript). mocha, vscode and the runner's deps stay external.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { createVSIX } from '@vscode/vsce';
import { BUNDLE_ALIAS, BUNDLE_PLUGINS, RUNTIME_EXTERNALS } from '../../scripts/bundling.mjs';

// Every *.test.ts of the suite is its own bundle (index.ts loads each *.test.js it finds).
const suite = 'test/vscode/suite';
const tests = fs
  .readdirSync(suite)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `${suite}/${f}`);

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'inline',
  logLevel: 'warning',
  external: ['vscode', 'mocha', '@vscode/test-electron', ...RUNTIME_EXTERNALS],
  plugins: BUNDLE_PLUGINS,
  alias: BUNDLE_ALIAS,
};
fs.rmSync('out/test/vscode/suite', { recursive: true, force: true }); // no stale bundles of removed tests
await Promise.all([
  build({ ...common, entryPoints: [`${suite}/index.ts`, ...tests], outdir: 'out/test/vscode/suite' }),
  build({ ...common, entryPoints: ['test/vscode/runTest.ts'], outfile: 'out/test/vscode/runTest.js' }),
]);
// The declaration-only extension the vscode-lm suite installs (test/vscode/fake-lm/README.md).
await createVSIX({
  cwd: 'test/vscode/fake-lm',
  packagePath: path.resolve('out/test/vscode/fake-lm.vsix'),
  allowMissingRepository: true,
  skipLicense: true,
  dependencies: false,
});
