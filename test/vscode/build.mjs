// Bundles the extension-host mocha suite and the @vscode/test-electron runner to out/test/vscode
// (extension hosts load JavaScript). mocha, vscode and the runner's deps stay external.
import * as fs from 'node:fs';
import { build } from 'esbuild';

// Every *.test.ts of the suite is its own bundle (index.ts loads each *.test.js it finds).
const suite = 'test/vscode/suite';
const tests = fs.readdirSync(suite).filter((f) => f.endsWith('.test.ts')).map((f) => `${suite}/${f}`);

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: 'inline', logLevel: 'warning', external: ['vscode', 'mocha', '@vscode/test-electron'] };
fs.rmSync('out/test/vscode/suite', { recursive: true, force: true }); // no stale bundles of removed tests
await Promise.all([
  build({ ...common, entryPoints: [`${suite}/index.ts`, ...tests], outdir: 'out/test/vscode/suite' }),
  build({ ...common, entryPoints: ['test/vscode/runTest.ts'], outfile: 'out/test/vscode/runTest.js' }),
]);
