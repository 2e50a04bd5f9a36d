// A failing assertion's expected and actual values as a runner's report carries them, printed as
// literals: a string quoted, a number bare, objects and arrays as literals (node's util.inspect, the
// form node:assert prints). The verifier's classifier compares them with the documented value and
// tells `'9'` from `9` by them (docs/verifier.md, "Classifying a failure"). Each reader says where
// its report loses what a value was; there it gives none, and the failure text is parsed instead.
import { inspect } from 'node:util';

export interface ReportedValues {
  expected: string;
  actual: string;
}

const PRINT = { depth: Infinity, breakLength: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity };

/** A value as a literal, on one line. */
function literalOf(v: unknown): string {
  return inspect(v, PRINT);
}

/**
 * From a JSON report (jest's matcherResult). JSON writes NaN, ±Infinity and an undefined array item
 * as null and drops an undefined side or property: a value holding a null, or a missing side, is not
 * trusted.
 */
export function fromJson(expected: unknown, actual: unknown): ReportedValues | undefined {
  if (expected === undefined || actual === undefined || holdsNull(expected) || holdsNull(actual)) return undefined;
  return distinct(literalOf(expected), literalOf(actual));
}

/**
 * From TAP YAML diagnostics (node:test's expected/actual, node-tap's wanted/found). Scalars only:
 * node:test writes an array as a map, neither keeps a class name, and node:test spells NaN,
 * ±Infinity, a bigint or a symbol as a plain word YAML reads back as a string, and anything it cannot
 * map (a Date, an empty object) as null.
 */
export function fromYaml(expected: unknown, actual: unknown): ReportedValues | undefined {
  if (!faithfulScalar(expected) || !faithfulScalar(actual)) return undefined;
  return distinct(literalOf(expected), literalOf(actual));
}

/** Printed in the runner's own process (mocha, through frameworks/assets/amtp.mocha-values.cjs). */
export function fromPrinted(v: unknown): ReportedValues | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const { expected, actual } = v as Record<string, unknown>;
  return typeof expected === 'string' && typeof actual === 'string' ? distinct(expected, actual) : undefined;
}

/** Two sides that print the same lost what differs (a class name, an undefined property) or come from `.not`: their text says more. */
function distinct(expected: string, actual: string): ReportedValues | undefined {
  return expected === actual ? undefined : { expected, actual };
}

function holdsNull(v: unknown): boolean {
  if (v === null) return true;
  if (typeof v !== 'object') return false;
  return Object.values(v as object).some(holdsNull);
}

function faithfulScalar(v: unknown): boolean {
  if (typeof v === 'number' || typeof v === 'boolean') return true;
  return typeof v === 'string' && !/^(?:NaN|-?Infinity|-?\d+n|undefined|Symbol\(.*\))$/.test(v);
}
