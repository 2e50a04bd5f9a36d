// The failing assertion's expected and actual values, parsed with the parser of the runner's format:
// its framework descriptor's parseFailure (frameworks/<id>/failure.ts).
import type { Framework } from '../../core/frameworks';
import type { ParsedAssertion } from '../../frameworks/failureText';
import { FRAMEWORK_REGISTRY } from '../../frameworks/registry';

export type { ParsedAssertion } from '../../frameworks/failureText';

export function parseAssertion(framework: Framework, message: string): ParsedAssertion | undefined {
  return FRAMEWORK_REGISTRY[framework].parseFailure(message);
}
