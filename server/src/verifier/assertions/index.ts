// The failing assertion's expected and actual values, parsed with the parser of the runner's format.
import type { Framework } from '../../core/frameworks';
import { parseAva } from './ava';
import { parseJest } from './jest';
import { parseMocha } from './mocha';
import { parseNodeAssert } from './nodeAssert';
import { parseNodeTap } from './nodeTap';
import { parsePytest } from './pytest';
import type { ParsedAssertion } from './types';
import { parseVitest } from './vitest';

export type { ParsedAssertion } from './types';

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
