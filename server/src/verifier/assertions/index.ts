// The failing assertion's expected and actual values, parsed with the parser of the runner's format
// (each framework's own, in frameworks/<id>/failure.ts).
import type { Framework } from '../../core/frameworks';
import { parseAva } from '../../frameworks/ava/failure';
import type { ParsedAssertion } from '../../frameworks/failureText';
import { parseJest } from '../../frameworks/jest/failure';
import { parseMocha } from '../../frameworks/mocha/failure';
import { parseNodeTap } from '../../frameworks/node-tap/failure';
import { parseNodeAssert } from '../../frameworks/node-test/failure';
import { parsePytest } from '../../frameworks/pytest/failure';
import { parseVitest } from '../../frameworks/vitest/failure';

export type { ParsedAssertion } from '../../frameworks/failureText';

const PARSERS: Record<Framework, (message: string) => ParsedAssertion | undefined> = {
  'node-test': parseNodeAssert,
  mocha: parseMocha,
  jest: parseJest,
  vitest: (m) => parseVitest(m) ?? parseJest(m),
  pytest: parsePytest,
  ava: parseAva,
  'node-tap': parseNodeTap,
};

export function parseAssertion(framework: Framework, message: string): ParsedAssertion | undefined {
  return PARSERS[framework](message);
}
