// Priority rules (docs/test-cases.md explains them to users):
//   P0 public entry point behaviour documented in the README
//   P1 other documented behaviour: doc comments, @example / doctest, documented errors, documented exports
//   P2 inferred: boundary and error cases from signatures or `throw` in code, undocumented exports
//   P3 property-style and combinatorial cases
import type { CaseKind, Priority } from '../../contracts/types';

export interface PriorityInput {
  kind: CaseKind;
  /** the evidence is the README */
  readme: boolean;
  /** the target module is a public entry point */
  entry: boolean;
  /** the evidence is documentation (README, doc comment, docstring) rather than code */
  documented: boolean;
}

export function priorityOf(p: PriorityInput): Priority {
  if (p.kind === 'property' || p.kind === 'combinatorial') return 'P3';
  if (p.readme && p.entry) return 'P0';
  if (p.documented) return 'P1';
  return 'P2';
}
