// What AMTP left in its files when verification ended: each kept test's text by case id. The next
// run compares it with the file as it is then, so a test a person changed by hand is told from the
// one AMTP wrote (pipeline/editedTests.ts), and its change becomes a lesson.
import { isWritten, type RunRecord } from '../core/run';
import type { KeptText } from '../core/verification';
import { resolveInside } from '../util/safePath';
import { readOrNull } from './files';
import { findTests } from './testFile';

/** A test longer than this is not kept (a generated test is a few lines); nor more than this in all. */
const MAX_TEST_CHARS = 4_000;
const MAX_TOTAL_CHARS = 1_000_000;

export async function keptTestTexts(workspace: string, run: RunRecord): Promise<KeptText[]> {
  const out: KeptText[] = [];
  let total = 0;
  for (const f of run.files) {
    if (!isWritten(f.action)) continue;
    const content = await readOrNull(await resolveInside(workspace, f.path));
    if (content === null) continue;
    const ours = new Set(f.caseIds);
    const texts = new Map<string, string>();
    for (const b of findTests(f.path, content))
      if (ours.has(b.caseId)) texts.set(b.caseId, [texts.get(b.caseId), content.slice(b.start, b.end)].filter(Boolean).join('\n'));
    for (const [caseId, text] of [...texts].sort(([a], [b]) => a.localeCompare(b))) {
      if (text.length > MAX_TEST_CHARS || total + text.length > MAX_TOTAL_CHARS) continue;
      total += text.length;
      out.push({ file: f.path, caseId, text });
    }
  }
  return out;
}
