// The main job on a sample workspace: copy examples/sample-lib to .demo/, run the
// pipeline with the offline provider, then run the tests it wrote with the project's command.
import { cpSync, rmSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const ws = path.join(root, '.demo', 'sample-lib');
if (!existsSync(path.join(root, 'dist', 'cli.js'))) {
  console.error('dist/cli.js is missing: run `npm run build` first');
  process.exit(1);
}
rmSync(ws, { recursive: true, force: true });
cpSync(path.join(root, 'examples', 'sample-lib'), ws, { recursive: true });
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts }).status ?? 1;

console.log(`$ amtp generate ${path.relative(root, ws)} --provider offline --yes`);
const code = run(process.execPath, [path.join(root, 'dist', 'cli.js'), 'generate', ws, '--provider', 'offline', '--yes']);
if (code !== 0) process.exit(code);
console.log('\n$ node --test test/   (in the sample workspace)');
process.exit(run(process.execPath, ['--test', 'test/'], { cwd: ws }));
