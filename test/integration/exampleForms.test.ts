import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { copyWorkspace } from '../helpers/workspaces';

// A package whose README and JSDoc use every example form (docs/test-cases.md): offline generate
// with verification, then the written tests pass under node:test, each form's call among them.
describe('example forms end to end (test/fixtures/example-forms)', function () {
  this.timeout(90_000);

  it('plans behaviour tests from each form and they pass under node:test', async () => {
    const ws = await copyWorkspace(path.join(__dirname, '../fixtures/example-forms'));
    try {
      const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json']);
      assert.equal(r.code, 0, r.stderr + r.stdout.slice(0, 2000));
      const s = JSON.parse(r.stdout);
      assert.equal(s.status, 'completed');
      // No export checks: the class and the method its documented call only uses as setup
      // (store.set) would get one, but characterization (which now runs for documented modules too)
      // replaces both with what running them did.
      const shapeOnly = s.cases.filter((c: { existenceOnly: boolean }) => c.existenceOnly).map((c: { title: string }) => c.title);
      assert.deepEqual(shapeOnly, []);
      assert.equal(s.existenceOnlyShare, 0);
      assert.equal(s.characterization.replaced, 2);
      const pinned = s.cases.map((c: { title: string }) => c.title).filter((t: string) => t.startsWith('pins current behaviour: '));
      assert.ok(
        pinned.some((t: string) => /new Store\(\)/.test(t)),
        `no characterization test of Store:\n${pinned.join('\n')}`,
      );
      assert.ok(
        pinned.some((t: string) => /store\.set\(/.test(t)),
        `no characterization test of store.set:\n${pinned.join('\n')}`,
      );
      const failing = s.verification.results.filter((x: { outcome: string }) => x.outcome !== 'passing' && x.outcome !== 'dropped');
      assert.deepEqual(failing, []);
      const titles = s.cases.map((c: { title: string }) => c.title).join('\n');
      for (const form of [
        "isJs('a.js') returns true",
        "isJs('a.md') returns true",
        'lib.pretty(1337) prints 1.34 kB',
        'lib.capitalize(null) throws TypeError',
        "store.get('a') returns { deep: [1, 2] }",
        'lib.add(1, 1) returns 2',
        "lib.capitalize('x') returns 'X'",
        'add(2, 3) returns 5',
        `capitalize('abc') returns "Abc"`,
      ]) {
        assert.ok(titles.includes(form), `${form} not planned:\n${titles}`);
      }
      const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'test/'], { cwd: ws, encoding: 'utf8' });
      assert.equal(Number(/^# fail (\d+)/m.exec(run.stdout)?.[1]), 0, run.stdout.slice(-3000));
      assert.ok(Number(/^# pass (\d+)/m.exec(run.stdout)?.[1]) >= 5, run.stdout.slice(-2000));
    } finally {
      await fsp.rm(path.dirname(ws), { recursive: true, force: true });
    }
  });
});
