import { strict as assert } from 'node:assert';
import { mergeGuarded } from '../../server/src/verifier/acceptedMerge';
import { approvedDiffNotes } from '../../server/src/verifier/approvedDiffs';
import type { RunRecord } from '../../server/src/core/run';

const A = 'tc_0000000000a1';
const B = 'tc_0000000000a2';
const C = 'tc_0000000000a3';
const file = (tests: string) =>
  `import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { a } from '../lib.mjs';\n\ndescribe('lib (AMTP)', () => {\n${tests}});\n`;
const jsTest = (id: string, body: string) => `  it('t ${id.slice(-2)}', () => { // ${id}\n    ${body}\n  });\n`;
const P = 'test/lib.amtp.test.mjs';

describe('merging with the tests the person accepted guarded', () => {
  const disk = file(jsTest(A, 'assert.equal(a(1), 1);') + '\n' + jsTest(B, 'assert.equal(a(2), 2);'));
  const fresh = file(jsTest(A, 'assert.equal(a(1), 10);') + '\n' + jsTest(B, 'assert.equal(a(2), 20);') + '\n' + jsTest(C, 'a();'));

  it('an accepted test the merge would change is held: `kept` leaves it byte for byte and takes the rest', () => {
    const out = mergeGuarded(P, disk, fresh, { accepted: new Set([A]) })!;
    assert.deepEqual(out.held, [A]);
    assert.equal(out.content, fresh);
    assert.equal(
      out.kept,
      file(jsTest(A, 'assert.equal(a(1), 1);') + '\n' + jsTest(B, 'assert.equal(a(2), 20);') + '\n' + jsTest(C, 'a();')),
    );
  });

  it('nothing is held when the accepted test comes back the same (it is `same`), or is not in the file', () => {
    const same = file(jsTest(A, 'assert.equal(a(1), 1);') + '\n' + jsTest(C, 'a();'));
    const out = mergeGuarded(P, disk, same, { accepted: new Set([A]) });
    assert.deepEqual([out?.held, out?.same], [[], [A]]);
    assert.deepEqual(mergeGuarded(P, disk, fresh, { accepted: new Set([C]) }), { content: fresh, held: [], same: [] });
  });

  it('`same` and `keptSame` name the accepted tests each write leaves exactly as they were', () => {
    const out = mergeGuarded(P, disk, file(jsTest(A, 'assert.equal(a(1), 10);') + '\n' + jsTest(B, 'assert.equal(a(2), 2);')), {
      accepted: new Set([A, B]),
    })!;
    assert.deepEqual([out.held, out.same, out.keptSame], [[A], [B], [A, B]]);
  });

  it('an incremental run does not drop an accepted test it did not plan again without asking', () => {
    const out = mergeGuarded(P, disk, file(jsTest(B, 'assert.equal(a(2), 2);')), { replace: true, accepted: new Set([A]) })!;
    assert.deepEqual(out.held, [A]);
    assert.ok(out.kept?.includes(`// ${A}`), out.kept);
    assert.ok(!out.content.includes(`// ${A}`));
  });
});

describe('what an approved diff showed and what landed', () => {
  const run = (text: string | null) =>
    ({
      files: [
        {
          path: P,
          action: 'created',
          caseIds: [A, B],
          approved: { approvalId: 'ap_1', tests: [{ caseId: A, title: 't a1' }, { caseId: B, title: 't a2' }, { title: 'mine' }] },
        },
      ],
      verification: { results: [{ caseId: B, outcome: 'flaky', reason: 'failed 1 of 3 runs' }] },
      text,
    }) as unknown as RunRecord & { text: string | null };

  it('names each test gone with its verdict; a file that keeps every test has no note', async () => {
    const r = run(file(jsTest(A, 'a();')));
    const notes = await approvedDiffNotes(r, async () => r.text);
    assert.deepEqual(notes, [
      {
        file: P,
        approvalId: 'ap_1',
        shown: 3,
        kept: 1,
        dropped: [{ caseId: B, title: 't a2', outcome: 'flaky', reason: 'failed 1 of 3 runs' }, { title: 'mine' }],
      },
    ]);
    const all = run(file(jsTest(A, 'a();') + jsTest(B, 'b();') + "  it('mine', () => {});\n"));
    assert.deepEqual(await approvedDiffNotes(all, async () => all.text), []);
  });

  it('a removed file lost every test', async () => {
    const notes = await approvedDiffNotes(run(null), async () => null);
    assert.equal(notes[0].removed, true);
    assert.equal(notes[0].kept, 0);
  });
});
