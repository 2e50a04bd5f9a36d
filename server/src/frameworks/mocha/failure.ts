// mocha reports the thrown error as it is: node:assert's message (the common case with
// `require('node:assert')`) or chai's `expected … to …` when the project uses chai.
import { parseNodeAssert } from '../node-test/failure';
import { parseVitest } from '../vitest/failure';
import type { ParsedAssertion } from '../failureText';

export function parseMocha(message: string): ParsedAssertion | undefined {
  return parseNodeAssert(message) ?? parseVitest(message);
}
