// Bundles the extension-host mocha suite and the @vscode/test-electron runner to out/test/vscode
// (extension hosts load JavaScript). mocha, vscode and the runner's deps stay external.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: 'inline', logLevel: 'warning', external: ['vscode', 'mocha', '@vscode/test-electron'] };
await Promise.all([
  build({ ...common, entryPoints: ['test/vscode/suite/index.ts', 'test/vscode/suite/extension.test.ts'], outdir: 'out/test/vscode/suite' }),
  build({ ...common, entryPoints: ['test/vscode/runTest.ts'], outfile: 'out/test/vscode/runTest.js' }),
]);
