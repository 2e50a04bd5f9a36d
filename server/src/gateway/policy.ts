import type { Risk } from '../pipeline/types';

/** Tools the gateway knows, with the risk they carry by default. */
export const DEFAULT_RISK: Record<string, Risk> = {
  'repo.tree': 'low',
  'repo.read_file': 'low',
  'repo.search': 'low',
  // A new file inside a test folder: written, then audited.
  'fs.create_test': 'medium',
  // The verifier rewriting or removing a test file AMTP itself wrote in this run (its bytes are
  // checked against what was written; anything else is an fs.overwrite).
  'fs.rewrite_generated': 'medium',
  'fs.remove_generated': 'medium',
  // Anything that can destroy a person's work or runs their code waits for them.
  'fs.overwrite': 'high',
  'fs.write_outside_tests': 'high',
  'tests.run': 'high',
  'git.branch': 'high',
};

export type RiskOverrides = Partial<Record<string, Risk>>;

export function riskOf(tool: string, overrides: RiskOverrides = {}): Risk {
  return overrides[tool] ?? DEFAULT_RISK[tool] ?? 'high'; // unknown tools are high risk
}
