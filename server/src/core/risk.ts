// The tools the gateway knows and the risk each carries by default. A tool name is a type, so a
// typo is a compile error instead of silently becoming "unknown, therefore high".
export const RISKS = ['low', 'medium', 'high'] as const;
export type Risk = (typeof RISKS)[number];

export const TOOL_RISK = {
  'repo.tree': 'low',
  'repo.read_file': 'low',
  'repo.search': 'low',
  // A new file inside a test folder: written, then audited.
  'fs.create_test': 'medium',
  // The verifier rewriting or removing a test file AMTP itself wrote in this run (its bytes are
  // checked against what was written; anything else is an fs.overwrite).
  'fs.rewrite_generated': 'medium',
  'fs.remove_generated': 'medium',
  // AMTP's tests merged into a test file an earlier run of this person wrote: tests with the same
  // case id are replaced, new ones added, everything else in the file kept (verifier/testMerge.ts).
  'fs.merge_tests': 'medium',
  // Anything that can destroy a person's work or runs their code waits for them.
  'fs.overwrite': 'high',
  'fs.write_outside_tests': 'high',
  'tests.run': 'high',
  'git.branch': 'high',
  // Forgetting a lesson (a person's decision about a test): the next run may write that test again.
  'lessons.forget': 'high',
} as const satisfies Record<string, Risk>;

export type ToolName = keyof typeof TOOL_RISK;
export const TOOL_NAMES = Object.keys(TOOL_RISK) as ToolName[];

export function isToolName(v: unknown): v is ToolName {
  return typeof v === 'string' && Object.hasOwn(TOOL_RISK, v);
}

export function isRisk(v: unknown): v is Risk {
  return (RISKS as readonly unknown[]).includes(v);
}

const ORDER: Record<Risk, number> = { low: 0, medium: 1, high: 2 };

/** the more cautious of two risks */
export function higherRisk(a: Risk, b: Risk): Risk {
  return ORDER[a] >= ORDER[b] ? a : b;
}
