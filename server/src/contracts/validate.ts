import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { SchemaValidationError, type ContractError } from '../core/errors';
import type { SchemaTypes } from './schemaTypes';
import { SCHEMAS, type SchemaName } from './schemas';

export type ValidationResult = { ok: true } | { ok: false; errors: ContractError[] };

let compiled: Map<SchemaName, ValidateFunction> | undefined;

// Compiled once per process: ajv compilation costs milliseconds, validation microseconds.
function validators(): Map<SchemaName, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const schema of Object.values(SCHEMAS)) ajv.addSchema(schema);
  // Filled completely before it is published: a schema that fails to compile leaves no half cache.
  const all = new Map<SchemaName, ValidateFunction>();
  for (const name of Object.keys(SCHEMAS) as SchemaName[]) {
    const fn = ajv.getSchema(SCHEMAS[name].$id);
    if (!fn) throw new Error(`schema ${name} did not compile`);
    all.set(name, fn);
  }
  compiled = all;
  return compiled;
}

export function validate(name: SchemaName, value: unknown): ValidationResult {
  const fn = validators().get(name)!;
  if (fn(value)) return { ok: true };
  return { ok: false, errors: (fn.errors ?? []).map(toContractError) };
}

function toContractError(e: ErrorObject): ContractError {
  const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
  return { path: e.instancePath || '/', message: `${e.message ?? 'invalid'}${extra}`, keyword: e.keyword };
}

export function formatContractErrors(errors: ContractError[], max = 10): string {
  const lines = errors.slice(0, max).map((e) => `${e.path}: ${e.message}`);
  if (errors.length > max) lines.push(`… and ${errors.length - max} more`);
  return lines.join('; ');
}

/** Throws SchemaValidationError (the run stops in needs_review) when `value` breaks `schema`; narrows it otherwise. */
export function requireValid<S extends SchemaName>(schema: S, value: unknown, what: string): asserts value is SchemaTypes[S] {
  const result = validate(schema, value);
  if (!result.ok) throw new SchemaValidationError(`${what} violates ${schema}: ${formatContractErrors(result.errors)}`, schema, result.errors);
}
