// The same suite under desktop VS Code, for machines that can download it (needs update.code.visualstudio.com).
// Here, use `npm run test:vscode:code-server` (code-server, offline) instead.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'amtp-vscode-ws-'));
  fs.cpSync(path.join(root, 'examples', 'sample-lib'), ws, { recursive: true });
  try {
    await runTests({
      version: process.env.AMTP_VSCODE_VERSION ?? '1.91.0', // engines.vscode minimum; set "stable" to test the latest
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(__dirname, 'suite', 'index.js'),
      launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    });
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
