// What a test's outcome can depend on in its own file, by case id: its own text, and the file's text
// outside every test AMTP wrote (imports, helpers, hooks, describe lines, a person's own tests).
// Taking other AMTP tests out of the file (the judge drops failing characterizations) changes
// neither. Per-test coverage (verifier/perTestRun.ts) and cached mutation results (mutation/cache.ts)
// hold while it is unchanged.
import { findAllJsTests, type FoundTest } from './jsTestFind';
import { parsePyTests } from './pyTestFind';

export function testTexts(path: string, content: string): Map<string, string> {
  let found: FoundTest[];
  try {
    found = path.endsWith('.py') ? parsePyTests(content).tests : findAllJsTests(path, content);
  } catch {
    return new Map();
  }
  const blocks = found.filter((t): t is FoundTest & { caseId: string } => !!t.caseId).sort((a, b) => a.fullStart - b.fullStart);
  const outside: string[] = [];
  let at = 0;
  for (const b of blocks) {
    outside.push(content.slice(at, Math.max(at, b.fullStart)).trim());
    at = Math.max(at, b.end);
  }
  outside.push(content.slice(at).trim());
  const frame = outside.filter(Boolean).join('\n');
  const own = new Map<string, string>();
  for (const b of blocks) own.set(b.caseId, `${own.get(b.caseId) ?? ''}${content.slice(b.start, b.end)}\n`);
  return new Map([...own].map(([id, text]) => [id, `${frame}\0${text}`]));
}
