// Bundles the extension-host mocha suite and the @vscode/test-electron runner to out/test/vscode
// (extension hosts load JavaScript). mocha, vscode and the runner's deps stay external.
import * as path from 'node:path';
import { build } from 'esbuild';
import { createVSIX } from '@vscode/vsce';

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: 'inline', logLevel: 'warning', external: ['vscode', 'mocha', '@vscode/test-electron', 'typescript'] };
await Promise.all([
  build({ ...common, entryPoints: ['test/vscode/suite/index.ts', 'test/vscode/suite/extension.test.ts', 'test/vscode/suite/vscodeLm.test.ts'], outdir: 'out/test/vscode/suite' }),
  build({ ...common, entryPoints: ['test/vscode/runTest.ts'], outfile: 'out/test/vscode/runTest.js' }),
]);
// The declaration-only extension the vscode-lm suite installs (test/vscode/fake-lm/README.md).
await createVSIX({ cwd: 'test/vscode/fake-lm', packagePath: path.resolve('out/test/vscode/fake-lm.vsix'), allowMissingRepository: true, skipLicense: true, dependencies: false });
