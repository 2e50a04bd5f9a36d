// A scoped run (one function, as the CodeLens asks) merges into the test file an earlier run wrote:
// the rest of the file, a person's own test included, is kept; no overwrite approval is needed; a
// test the person deleted from it stays deleted.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { SAMPLE_LIB, copyWorkspace, removeWorkspace } from '../helpers/workspaces';

const FILE = 'test/sample-lib.amtp.test.js';

describe('scoped runs merge into the test file an earlier run wrote', function () {
  this.timeout(180_000);
  let ws: string;
  before(async () => {
    ws = await copyWorkspace(SAMPLE_LIB);
    // --no-characterize throughout: the tests are about merging documented cases; characterization would bind the
    // module value in the written file and ask its own tests.run approval before the write.
    const full = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--yes', '--json']);
    assert.equal(full.code, 0, full.stderr);
  });
  after(() => removeWorkspace(ws));

  it("--only FILE#clamp replaces and adds clamp tests, keeps every other test and the person's own, and asks for no approval", async () => {
    const abs = path.join(ws, FILE);
    const written = await fsp.readFile(abs, 'utf8');
    const dropped = /\n {2}it\('clamp\([^']*\) returns [^']*', \(\) => \{ \/\/ (tc_\w+)\n[\s\S]*?\n {2}\}\);\n/.exec(written);
    assert.ok(dropped, 'the full run kept a documented clamp example');
    // The person deletes one AMTP test and the name it imported (one import statement per module), and adds a test of their own.
    const importLine = /^const \{ .* \} = require\('\.\.\/src\/index\.js'\);$/m.exec(written)?.[0];
    assert.ok(importLine && importLine.includes('clamp, '), written);
    const edited = written
      .replace(dropped[0], '\n')
      .replace(importLine, importLine.replace('clamp, ', ''))
      .replace(/\}\);\n$/, "  it('my own test', () => {\n    assert.strictEqual(1 + 1, 2);\n  });\n});\n");
    await fsp.writeFile(abs, edited);
    const others = (edited.match(/^ {2}it\('/gm) ?? []).length;

    // No --yes: a merge needs no approval; running the tests still does (exit 4, tests.run pending).
    const r = await runCli(['generate', ws, '--provider', 'offline', '--no-characterize', '--only', 'src/index.js#clamp', '--json']);
    assert.equal(r.code, 4, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.deepEqual(s.files, [{ path: FILE, action: 'merged' }]);
    assert.deepEqual(
      s.approvals.map((a: { tool: string }) => a.tool),
      ['tests.run'],
    );

    const merged = await fsp.readFile(abs, 'utf8');
    // Every clamp case the scoped run planned is in the file (those the full run's verifier had dropped
    // for adding no coverage come back), except the one the person deleted: that one is held back.
    assert.deepEqual(s.decisions.detectedDeletions, [dropped[1]]);
    assert.deepEqual(s.decisions.heldBack, [{ caseId: dropped[1], verdict: 'deleted' }]);
    const clampIds = (s.cases as { id: string; title: string }[]).filter((c) => /^clamp\(/.test(c.title)).map((c) => c.id);
    assert.ok(!clampIds.includes(dropped[1]), 'the deleted case is not planned for this run');
    const added = clampIds.filter((id) => !edited.includes(id)).length;
    assert.equal((merged.match(/^ {2}it\('/gm) ?? []).length, others + added, 'the clamp tests are back, nothing else changed in number');
    assert.ok(merged.includes("it('my own test'"), "the person's test is kept");
    assert.ok(!merged.includes(dropped[1]), 'the test the person deleted is not written back');
    // clamp is back in the file's one import of the module, once
    const imports = merged.match(/^.*require\('\.\.\/src\/index\.js'\).*$/gm) ?? [];
    assert.equal(imports.length, 1, merged);
    assert.equal(imports[0].match(/\bclamp\b/g)?.length, 1, imports[0]);
    const editedImport = importLine.replace('clamp, ', '');
    assert.ok(
      edited.split('\n').every((line) => line === editedImport || merged.includes(line)),
      'every other line of the edited file is still there',
    );

    const out = execFileSync(process.execPath, ['--test', FILE], { cwd: ws, encoding: 'utf8' });
    assert.match(out, new RegExp(`# pass ${others + added}\\n# fail 0`));

    // Again, verified: the merge changes nothing; the verifier judges only this run's cases (it may drop
    // a clamp test that adds no coverage) and leaves every other line as it was.
    const again = await runCli([
      'generate',
      ws,
      '--provider',
      'offline',
      '--no-characterize',
      '--only',
      'src/index.js#clamp',
      '--yes',
      '--json',
    ]);
    assert.equal(again.code, 0, again.stderr);
    const s2 = JSON.parse(again.stdout);
    assert.deepEqual(s2.files, [{ path: FILE, action: 'unchanged' }]);
    assert.deepEqual(
      s2.approvals.map((a: { tool: string }) => a.tool),
      ['tests.run'],
      'nothing but the test run asked for',
    );
    const verified = await fsp.readFile(abs, 'utf8');
    assert.ok(
      edited.split('\n').every((line) => line === editedImport || verified.includes(line)),
      "the earlier tests and the person's own are untouched",
    );
  });

  it('a file no earlier run of this person wrote is still a whole-file overwrite that waits for approval', async () => {
    const fresh = await copyWorkspace(SAMPLE_LIB);
    try {
      await fsp.mkdir(path.join(fresh, 'test'), { recursive: true });
      await fsp.writeFile(path.join(fresh, FILE), "const assert = require('node:assert');\nit('theirs', () => assert.ok(true));\n");
      const r = await runCli(['generate', fresh, '--provider', 'offline', '--no-characterize', '--only', 'src/index.js#clamp', '--json']);
      const s = JSON.parse(r.stdout);
      assert.deepEqual(
        s.approvals.map((a: { tool: string }) => a.tool),
        ['fs.overwrite'],
      );
      assert.deepEqual(s.files, [{ path: FILE, action: 'pending' }]);
    } finally {
      await removeWorkspace(fresh);
    }
  });
});
