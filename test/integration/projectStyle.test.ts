// Generated files pass the project's own lint and format config (issue 27 item 5): a project that
// configures Prettier (no semicolons, double quotes) and ESLint (flat config) gets test files in its
// style, through its own binaries, under the run's "run workspace code" approval; a rule the files
// cannot meet after --fix is reported with what is left. The case ids survive in their comments.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { REPO, SAMPLE_LIB, copyWorkspace, removeWorkspace } from '../helpers/workspaces';

const FILE = 'test/sample-lib.amtp.test.js';

interface Summary {
  status: string;
  approvals: { tool: string }[];
  verification: { results: { caseId: string; outcome: string }[]; style?: { tool: string; passed: boolean; problems?: string }[] };
}

/** The sample library with Prettier and ESLint configured, and the project's own copies of both (AMTP's, linked). */
async function styledWorkspace(eslintRules: Record<string, unknown>): Promise<string> {
  const ws = await copyWorkspace(SAMPLE_LIB);
  const pkg = JSON.parse(await fsp.readFile(path.join(ws, 'package.json'), 'utf8'));
  pkg.prettier = { semi: false, singleQuote: false, printWidth: 100 };
  await fsp.writeFile(path.join(ws, 'package.json'), JSON.stringify(pkg, null, 2));
  await fsp.writeFile(
    path.join(ws, 'eslint.config.cjs'),
    `module.exports = [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } }, rules: ${JSON.stringify(eslintRules)} }];\n`,
  );
  await fsp.mkdir(path.join(ws, 'node_modules'));
  for (const dep of ['prettier', 'eslint'])
    await fsp.symlink(path.join(REPO, 'node_modules', dep), path.join(ws, 'node_modules', dep), 'dir');
  return ws;
}

describe("generated files in the project's own style", function () {
  this.timeout(900_000);

  it('Prettier and ESLint (--fix) make the kept files pass; the ids stay in their comments', async () => {
    const ws = await styledWorkspace({ 'prefer-const': 'error', 'no-var': 'error' });
    try {
      const r = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout) as Summary;
      assert.deepEqual(
        s.verification.style?.map((t) => [t.tool, t.passed]),
        [
          ['prettier', true],
          ['eslint', true],
        ],
      );
      const text = await fsp.readFile(path.join(ws, FILE), 'utf8');
      assert.doesNotMatch(text, /;\n/, 'no semicolons, as the project formats');
      assert.match(text, /require\("node:assert\/strict"\)/, 'double quotes, as the project formats');
      for (const k of s.verification.results.filter((x) => x.outcome === 'passing'))
        assert.match(text, new RegExp(`// ${k.caseId}\\n`), `${k.caseId} keeps its comment`);
      // The next run reads the same tests from the restyled file: nothing counts as deleted by hand.
      const again = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes', '--json']);
      assert.deepEqual(JSON.parse(again.stdout).decisions.detectedDeletions, []);
    } finally {
      await removeWorkspace(ws);
    }
  });

  it('a rule the files cannot meet is reported with what is left, and the tests are still kept', async () => {
    // No --fix meets a 5-line cap on a test file (the kept suite is short enough for the default 50-line functions).
    const ws = await styledWorkspace({ 'no-undef': 'error', 'max-lines': ['error', { max: 5 }] });
    try {
      const r = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes', '--json']);
      const s = JSON.parse(r.stdout) as Summary;
      const eslint = s.verification.style?.find((t) => t.tool === 'eslint');
      assert.equal(eslint?.passed, false);
      assert.match(eslint?.problems ?? '', /max-lines/);
      assert.ok(s.verification.results.some((x) => x.outcome === 'passing'));
      const text = (await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes'])).stdout;
      assert.match(text, /eslint: the written files do not pass the project's own config/);
    } finally {
      await removeWorkspace(ws);
    }
  });
});
