// A later run never changes an accepted test without an approved overwrite (issue 27). The person
// keeps a pinned test (`amtp review RUN --keep ID`) and changes the code it pins, so the next run's
// test of the same case has another body. Without a TTY or --yes that change waits for approval and
// nothing is written; refused, the file is merged with the accepted test exactly as it was; with
// --yes (every overwrite approved up front) it is changed.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { SAMPLE_LIB, copyWorkspace, removeWorkspace } from '../helpers/workspaces';

const FILE = 'test/sample-lib.amtp.test.js';
const testOf = (id: string) => new RegExp(`\\n {2}it\\([^\\n]*// ${id}\\n[\\s\\S]*?\\n {2}\\}\\);\\n`);

interface Summary {
  runId: string;
  status: string;
  cases: { id: string; title: string }[];
  files: { path: string; action: string; acceptedKept?: string[] }[];
  approvals: { tool: string; decision: string; target?: string; summary?: string }[];
  verification?: {
    status: string;
    results: { caseId: string; outcome: string; reason?: string; accepted?: boolean; rule?: string }[];
    unmet: { caseId: string }[];
    repairs: unknown[];
    quarantineFiles: string[];
  };
}

async function cli(args: string[]): Promise<{ code: number | null; s: Summary; stdout: string; stderr: string }> {
  const r = await runCli([...args, '--json']);
  return { code: r.code, s: JSON.parse(r.stdout) as Summary, stdout: r.stdout, stderr: r.stderr };
}

/** A workspace after one run, with the pinned test of parseDuration("x") accepted and the code's message changed. */
async function acceptedThenChanged(): Promise<{ ws: string; id: string; accepted: string }> {
  const ws = await copyWorkspace(SAMPLE_LIB);
  const first = await cli(['generate', ws, '--provider', 'offline', '--yes']);
  assert.equal(first.code, 0, first.stderr);
  const id = first.s.cases.find((c) => c.title === 'pins current behaviour: parseDuration("x") throws TypeError')!.id;
  const accepted = testOf(id).exec(await fsp.readFile(path.join(ws, FILE), 'utf8'))![0];
  const keep = await runCli(['review', first.s.runId, ws, '--keep', id]);
  assert.equal(keep.code, 0, keep.stderr);
  const src = path.join(ws, 'src/index.js');
  await fsp.writeFile(src, (await fsp.readFile(src, 'utf8')).replace('not a duration: ', 'invalid duration: '));
  return { ws, id, accepted };
}

describe('a test the person accepted is not changed without an approved overwrite', function () {
  this.timeout(300_000);
  const workspaces: string[] = [];
  after(() => Promise.all(workspaces.map(removeWorkspace)));

  it('without approval the change waits and the file is untouched; refused, the accepted test stays as it was', async () => {
    const { ws, id, accepted } = await acceptedThenChanged();
    workspaces.push(ws);
    const before = await fsp.readFile(path.join(ws, FILE), 'utf8');
    // No TTY and no --yes: the run asks, and nobody can answer (running the tests is allowed here).
    const second = await cli(['generate', ws, '--provider', 'offline', '--risk', 'tests.run=medium']);
    assert.equal(second.s.status, 'awaiting_approval', second.stderr);
    assert.deepEqual(second.s.files, [{ path: FILE, action: 'pending' }]);
    const pending = second.s.approvals.filter((a) => a.decision === 'pending');
    assert.deepEqual(
      pending.map((a) => [a.tool, a.target]),
      [['fs.overwrite', FILE]],
    );
    assert.match(pending[0].summary ?? '', new RegExp(`Change 1 test\\(s\\) you accepted \\(${id}\\) in ${FILE}`));
    assert.equal(await fsp.readFile(path.join(ws, FILE), 'utf8'), before, 'nothing written while the change waits');

    // Refused: the other tests are merged in, the accepted one is left exactly as the person accepted it.
    const refused = await cli(['approve', second.s.runId, ws, '--reject']);
    assert.deepEqual(refused.s.files, [{ path: FILE, action: 'merged', acceptedKept: [id] }], refused.stderr);
    const merged = await fsp.readFile(path.join(ws, FILE), 'utf8');
    assert.equal(testOf(id).exec(merged)?.[0], accepted);
    assert.match(merged, /invalid duration: /, 'the run’s other new tests are written');

    // The run goes on under the --risk it started with, so running the tests does not ask again. They
    // run: the accepted test is the person's, not this run's to drop, and no goal is unmet by it.
    assert.equal(refused.code, 0, refused.stderr);
    assert.equal(refused.s.status, 'completed');
    assert.deepEqual(
      refused.s.approvals.filter((a) => a.decision === 'pending'),
      [],
    );
    assert.ok(!refused.s.verification!.results.some((r) => r.caseId === id));
    assert.equal(testOf(id).exec(await fsp.readFile(path.join(ws, FILE), 'utf8'))?.[0], accepted);
  });

  it('the text summary says the accepted test was kept', async () => {
    const { ws, id } = await acceptedThenChanged();
    workspaces.push(ws);
    const second = await runCli(['generate', ws, '--provider', 'offline', '--risk', 'tests.run=medium', '--json']);
    const runId = (JSON.parse(second.stdout) as Summary).runId;
    const refused = await runCli(['approve', runId, ws, '--reject']);
    assert.match(refused.stdout, new RegExp(`kept as you accepted them \\(the change was not approved\\): ${id}`));
  });

  it('with every overwrite approved up front (--yes) the accepted test is changed', async () => {
    const { ws, id, accepted } = await acceptedThenChanged();
    workspaces.push(ws);
    const second = await cli(['generate', ws, '--provider', 'offline', '--yes']);
    assert.equal(second.code, 0, second.stderr);
    assert.ok(second.s.approvals.some((a) => a.tool === 'fs.overwrite' && a.decision === 'approved' && a.target === FILE));
    const now = testOf(id).exec(await fsp.readFile(path.join(ws, FILE), 'utf8'))?.[0];
    assert.ok(now && now !== accepted && now.includes('invalid duration: x'), now);
  });
});

// The same promise when the later run writes the accepted test again exactly as it was: the verifier
// runs it, but never repairs, removes, quarantines or tidies it. The person accepts the documented
// slugify('Hello, World!') → 'hello-world' and clamp(5, 0, 3) → 3; slugify then stops trimming dashes,
// and the offline engine writes the same documented test, which now fails.
describe('an accepted test the later run writes again as it was is run but never changed', function () {
  this.timeout(300_000);
  let ws = '';
  after(() => removeWorkspace(ws));

  it('failing, it stays byte for byte and is reported; passing, it is kept; the other tests are judged as usual', async () => {
    ws = await copyWorkspace(SAMPLE_LIB);
    const first = await cli(['generate', ws, '--provider', 'offline', '--yes']);
    assert.equal(first.code, 0, first.stderr);
    const idOf = (title: string) => first.s.cases.find((c) => c.title === title)!.id;
    const slug = idOf("slugify('Hello, World!') returns 'hello-world'");
    const clamp = idOf('clamp(5, 0, 3) returns 3');
    const before = await fsp.readFile(path.join(ws, FILE), 'utf8');
    const [slugText, clampText] = [slug, clamp].map((id) => testOf(id).exec(before)![0]);
    const keep = await runCli(['review', first.s.runId, ws, '--keep', slug, '--keep', clamp]);
    assert.equal(keep.code, 0, keep.stderr);
    const src = path.join(ws, 'src/index.js');
    const code = await fsp.readFile(src, 'utf8');
    await fsp.writeFile(src, code.replace(".replace(/^-+|-+$/g, '')", ''));

    const second = await cli(['generate', ws, '--provider', 'offline', '--yes']);
    const v = second.s.verification!;
    const after = await fsp.readFile(path.join(ws, FILE), 'utf8');
    assert.equal(testOf(slug).exec(after)?.[0], slugText, 'the failing accepted test is still in its file, byte for byte');
    assert.equal(testOf(clamp).exec(after)?.[0], clampText);
    assert.deepEqual(v.quarantineFiles, [], 'nothing was quarantined');
    await assert.rejects(fsp.access(path.join(ws, 'test/sample-lib.amtp.quarantine.test.js')));
    assert.deepEqual(v.repairs, []);
    const result = (id: string) => v.results.find((r) => r.caseId === id);
    assert.equal(result(slug)?.outcome, 'failing', JSON.stringify(result(slug)));
    assert.equal(result(slug)?.accepted, true);
    assert.match(
      result(slug)?.reason ?? '',
      new RegExp(
        `^you accepted this test; it is left as you accepted it: it fails now \\(expected 'hello-world', got 'hello-world-'\\)\\. Reject it with \`amtp review ${second.s.runId} --reject ${slug}\`, or let a run change it with an approved overwrite$`,
      ),
    );
    assert.deepEqual(
      { outcome: result(clamp)?.outcome, accepted: result(clamp)?.accepted },
      { outcome: 'passing', accepted: true },
      'a passing accepted test counts as kept',
    );
    // A failing P1 test is an unmet goal: the run asks for review instead of completing.
    assert.equal(second.code, 3, second.stderr);
    assert.deepEqual(
      v.unmet.map((u) => u.caseId),
      [slug],
    );
    // The other tests are judged as usual: the new pin of slugify's output passes, and the coverage filter drops as before.
    const pin = second.s.cases.find((c) => c.title === 'pins current behaviour: slugify("Hello, World!") returns "hello-world-"')!.id;
    assert.equal(result(pin)?.outcome, 'passing');
    assert.ok(
      v.results.some((r) => r.outcome === 'dropped' && r.rule),
      'the keep filter still drops tests that add nothing',
    );
    assert.ok(
      v.results.filter((r) => r.accepted).every((r) => r.caseId === slug || r.caseId === clamp),
      'only the accepted tests are marked',
    );

    // The text summary shows it too.
    const text = await runCli(['resume', second.s.runId, ws]);
    assert.match(text.stdout, new RegExp(`failing +${slug}: you accepted this test; it is left as you accepted it`));
  });
});
