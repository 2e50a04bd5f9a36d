import { createHash } from 'node:crypto';

/** `tc_` + 12 hex of sha256(target + scenario): the same plan gives the same ids on every run. */
export function caseId(target: string, scenario: string): string {
  return `tc_${createHash('sha256').update(`${target}\n${scenario}`).digest('hex').slice(0, 12)}`;
}
