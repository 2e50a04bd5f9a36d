// "Load what the project loads" (docs/test-cases.md): a package that ships its source next to its
// build, where the source cannot load until the project's build step runs (moment@2.29.4's
// src/lib/*.js import './utils/hooks' without an extension; test/fixtures/unbuilt-src mirrors it), is
// tested through its built entry: the crawler leaves that source out and says why, and every
// written test loads under mocha.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crawlWorkspace } from '../../server/src/agents/crawler/staticMap';

const REPO = resolve(__dirname, '../..');
const FIXTURE = join(REPO, 'test/fixtures/unbuilt-src');

describe('source that needs its build step, beside a built output', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('the crawler targets the built entry, leaves the unbuildable source out, and says why', async () => {
    const { map } = await crawlWorkspace(FIXTURE);
    assert.deepEqual(
      map.entry_points.map((e) => e.path),
      ['dist/unbuilt.js'],
    );
    const keys = map.key_files.map((k) => k.path);
    assert.ok(keys.includes('dist/unbuilt.js'), keys.join(' '));
    for (const p of ['src/unbuilt.js', 'src/lib/format.js']) assert.ok(!keys.includes(p), `${p} needs the build: ${keys.join(' ')}`);
    const note = map.omitted?.find((o) => /build step/.test(o.what));
    assert.equal(note?.count, 2);
    assert.match(note?.reason ?? '', /src\/unbuilt\.js imports '\.\/lib\/format'.*built entry dist\/unbuilt\.js/);
  });

  it('every written test loads under mocha, and the README examples pass through the built file', () => {
    mkdirSync(join(REPO, 'test-output'), { recursive: true });
    const dir = mkdtempSync(join(REPO, 'test-output', 'unbuilt-'));
    dirs.push(dir);
    cpSync(FIXTURE, dir, { recursive: true });
    const r = spawnSync(
      process.execPath,
      [join(REPO, 'dist/cli.js'), 'generate', dir, '--provider', 'offline', '--framework', 'mocha', '--yes', '--json'],
      { encoding: 'utf8', timeout: 170_000 },
    );
    const s = JSON.parse(r.stdout) as { status: string; verification: { results: { caseId: string; outcome: string; reason?: string }[] } };
    assert.equal(s.status, 'completed', r.stdout.slice(0, 3000));
    const notLoading = s.verification.results.filter((x) => /does not load/.test(x.reason ?? ''));
    assert.deepEqual(notLoading, []);
    assert.ok(s.verification.results.filter((x) => x.outcome === 'passing').length >= 2, JSON.stringify(s.verification.results));
  });
});
