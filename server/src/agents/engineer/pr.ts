import type { EngineerOutput, TestCases } from '../../contracts/types';
import type { Framework } from '../../core/frameworks';

/** Pull-request metadata a reviewer can act on: what was written, what was not and why, how to run it. */
export function prMetadata(
  cases: TestCases,
  framework: Framework,
  out: Pick<EngineerOutput, 'files' | 'command' | 'not_written' | 'dev_dependencies' | 'layout_note'>,
): EngineerOutput['pr'] {
  const written = new Set(out.files.flatMap((f) => f.caseIds));
  const byId = new Map(cases.cases.map((c) => [c.id, c]));
  const slug =
    cases.project.name
      .toLowerCase()
      .replace(/^@/, '')
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'project';
  const testCount = [...written].filter((id) => byId.has(id)).length;
  const lines = [
    `AMTP planned ${cases.cases.length} test case(s) at depth \`${cases.depth_level}\` and wrote ${testCount} ${framework} test(s).`,
    '',
    '## Run',
    '```sh',
    out.command,
    '```',
  ];
  if (out.layout_note) lines.push('', out.layout_note);
  if (out.dev_dependencies?.length) lines.push('', `Needs dev dependencies: ${out.dev_dependencies.map((d) => `\`${d}\``).join(', ')}.`);
  lines.push('', '## Written', '| case | priority | title |', '|---|---|---|');
  for (const id of written) {
    const c = byId.get(id);
    if (c) lines.push(`| ${c.id} | ${c.priority} | ${escapeCell(c.title)} |`);
  }
  if (out.not_written.length) {
    lines.push('', '## Not written', '| case | reason |', '|---|---|');
    for (const n of out.not_written) lines.push(`| ${n.caseId} | ${escapeCell(n.reason)} |`);
  }
  return {
    branch: `amtp/tests-${slug}-${framework}`,
    title: `test: add ${testCount} generated ${framework} test${testCount === 1 ? '' : 's'} for ${cases.project.name}`,
    body: lines.join('\n'),
    labels: ['tests', 'amtp', framework],
  };
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
