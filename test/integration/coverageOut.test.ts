// Coverage out of a verified run (server/src/cli/coverageOut.ts): --lcov / --cobertura written from
// the kept suite's V8 coverage (no c8 in the fixture), statements/branches/beyond-import in --json,
// and --min-coverage's exit code 5 when the target is missed.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';

const REPO = path.resolve(__dirname, '../..');
const WORK = path.join(REPO, 'test-output');

interface Coverage {
  tool?: string;
  statements?: number;
  branches?: number;
  beyondImport?: number;
  target?: { min: number; met: boolean };
  written?: string[];
}

/** lcov records (SF, DA, LH, LF) per file. */
function parseLcov(text: string): Map<string, { lh: number; lf: number; da: Map<number, number> }> {
  const files = new Map<string, { lh: number; lf: number; da: Map<number, number> }>();
  for (const rec of text
    .split('end_of_record')
    .map((r) => r.trim())
    .filter(Boolean)) {
    const field = (k: string) => new RegExp(`^${k}:(.*)$`, 'm').exec(rec)?.[1];
    const da = new Map<number, number>();
    for (const m of rec.matchAll(/^DA:(\d+),(\d+)$/gm)) da.set(Number(m[1]), Number(m[2]));
    files.set(field('SF')!, { lh: Number(field('LH')), lf: Number(field('LF')), da });
  }
  return files;
}

describe('coverage out: --lcov, --cobertura, --min-coverage', function () {
  this.timeout(180_000);
  let root: string;
  before(async () => {
    await fsp.mkdir(WORK, { recursive: true });
    root = await fsp.mkdtemp(path.join(WORK, 'coverage-out-'));
  });
  after(() => fsp.rm(root, { recursive: true, force: true }));

  async function generate(name: string, extra: string[], fixture = 'buggy', edit?: (ws: string) => Promise<void>) {
    const ws = path.join(root, name, 'ws');
    await fsp.cp(path.join(REPO, `test/fixtures/verifier-${fixture}`), ws, { recursive: true });
    await edit?.(ws);
    const r = await runCli(['generate', ws, '--provider', 'offline', '--yes', '--json', ...extra]);
    return { ws, r, cov: (JSON.parse(r.stdout) as { verification: { coverage: Coverage } }).verification.coverage };
  }

  it('marks an existence-only test as adding nothing beyond import', async () => {
    // An export with no documented result gets only an existence check (characterization off, else
    // it would be pinned by running it), which loading already covers.
    const undocumented = (ws: string) =>
      fsp.appendFile(
        path.join(ws, 'index.js'),
        '\nfunction shout(text) {\n  return text.toUpperCase();\n}\nmodule.exports.shout = shout;\n',
      );
    const { r } = await generate('m', ['--no-characterize'], 'marker', undocumented);
    assert.equal(r.code, 0, r.stderr);
    const v = (JSON.parse(r.stdout) as { verification: { results: { outcome: string; reason?: string }[] } }).verification;
    assert.deepEqual(v.results.map((x) => x.outcome).sort(), ['dropped', 'passing']);
    assert.match(v.results.find((x) => x.outcome === 'dropped')!.reason!, /covers nothing beyond what loading its file covers/);
  });

  it('writes lcov and cobertura of the files under test, with statements, branches and beyond-import in --json', async () => {
    const lcov = path.join(root, 'a', 'out', 'lcov.info');
    const cob = path.join(root, 'a', 'out', 'cobertura.xml');
    // Characterization off: the search would pin zeroPad's current behaviour and cover its body.
    const { ws, r, cov } = await generate('a', ['--no-characterize', '--lcov', lcov, '--cobertura', cob]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(cov.tool, 'node (v8)');
    // padkit: upper() is tested, zeroPad()'s only test is quarantined (skipped), so zeroPad's return
    // (line 5) stays uncovered: 2 of the 3 statements nyc counts (5, 10, 13; comments and braces are
    // none); loading covers line 13, leaving 2 statements of which the tests run upper's return.
    assert.equal(cov.statements, 66.7);
    assert.equal(cov.beyondImport, 50);
    // Branches are istanbul's (if/else arms, ?:, &&/||/?? leaves, switch clauses): padkit has none.
    assert.equal(cov.branches, undefined, JSON.stringify(cov));
    assert.deepEqual(cov.written, [lcov, cob]);
    const files = parseLcov(await fsp.readFile(lcov, 'utf8'));
    assert.ok(files.size >= 1);
    for (const [sf, f] of files) {
      assert.ok(!path.isAbsolute(sf), `workspace-relative: ${sf}`);
      await fsp.access(path.join(ws, sf));
      assert.equal(f.lf, f.da.size);
      assert.equal(f.lh, [...f.da.values()].filter((n) => n > 0).length);
    }
    const index = files.get('index.js')!;
    assert.deepEqual([index.lh, index.lf], [2, 3]);
    assert.deepEqual(
      [5, 10, 13].map((l) => index.da.get(l)),
      [0, 1, 1],
      'zeroPad body uncovered',
    );
    // Cobertura: the same 2 of 3 lines.
    const xml = await fsp.readFile(cob, 'utf8');
    assert.match(xml, /^<\?xml/);
    assert.match(xml, /<class name="index.js" filename="index.js" line-rate="0.6666"/);
  });

  it('--min-coverage: met exits 0; missed exits 5 and says so; a bad value is a usage error', async () => {
    const met = await generate('b', ['--no-characterize', '--min-coverage', '60']);
    assert.equal(met.r.code, 0, met.r.stderr);
    assert.deepEqual(met.cov.target, { min: 60, met: true });
    const missed = await generate('c', ['--no-characterize', '--min-coverage', '100']);
    assert.ok(missed.cov.statements! < 100, 'the quarantined zeroPad test leaves zeroPad uncovered');
    assert.equal(missed.r.code, 5, missed.r.stderr);
    assert.deepEqual(missed.cov.target, { min: 100, met: false });
    assert.match(missed.r.stderr, /statement coverage [\d.]+% is below --min-coverage 100%/);
    const bad = await runCli(['generate', path.join(root, 'b', 'ws'), '--min-coverage', 'lots']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--min-coverage takes a percent from 0 to 100, not "lots"/);
  });
});
