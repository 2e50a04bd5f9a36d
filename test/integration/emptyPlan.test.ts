// A run that plans nothing (server/src/pipeline/emptyPlan.ts). Before, a package whose crawler found
// no export planned no generator batch, the stage read the missing batch list and the run failed
// with "Cannot read properties of undefined (reading 'filter')", exit 4. Now it stops as
// needs_review, exit 3, with a reason that says what was found; and Debian's python3-parse, whose
// `__all__` is `'…'.split()`, gets its exports planned.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../helpers/cli';

const PARSE = resolve(__dirname, '..', 'fixtures', 'py-parse');

describe('a run that plans nothing', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'amtp-empty-'));
    dirs.push(d);
    return d;
  };

  for (const [kind, files] of [
    ['Python', { 'secret.py': 'def _hidden(x):\n    return x\n' }],
    ['JavaScript', { 'package.json': '{"name":"quiet","version":"1.0.0","main":"index.js"}', 'index.js': 'function hidden() {}\n' }],
  ] as const) {
    it(`${kind}: ends as needs_review (exit 3) with the reason, not a crash`, async () => {
      const ws = fresh();
      for (const [name, text] of Object.entries(files)) writeFileSync(join(ws, name), text);
      const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json']);
      assert.equal(r.code, 3, r.stderr);
      const out = JSON.parse(r.stdout) as { status: string; reason?: string; error?: unknown };
      assert.equal(out.status, 'needs_review');
      assert.equal(out.error, undefined);
      assert.match(
        out.reason ?? '',
        /^nothing to test: no test case was planned \(the crawler found 0 exported symbol\(s\) in 1 \w+ file\(s\)/,
      );
    });
  }

  it("python3-parse's exports are found and planned; the run completes", async () => {
    const ws = fresh();
    cpSync(PARSE, ws, { recursive: true });
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json', '--no-verify', '--no-characterize']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { status: string; cases: { title: string }[] };
    assert.equal(out.status, 'completed');
    const titles = out.cases.map((c) => c.title).join('\n');
    for (const name of ['parse', 'search', 'findall', 'with_pattern']) assert.match(titles, new RegExp(`\\b${name}\\b`));
  });
});
