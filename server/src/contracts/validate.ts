import type { ErrorObject, ValidateFunction } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';
import { SchemaValidationError, type ContractError } from '../core/errors';
import { PRECOMPILED } from './precompiled';
import type { SchemaTypes } from './schemaTypes';
import { SCHEMAS, type SchemaName } from './schemas';

export type ValidationResult = { ok: true } | { ok: false; errors: ContractError[] };

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/**
 * The bundles carry validators compiled at build time (precompiled.ts). From source, each schema is
 * compiled once per process, on first use: compiling all eight (and the meta-schema, to check them)
 * took ~150 ms of a ~0.3 s crawl that needs one. The schemas are files
 * of this repository; test/unit/contracts.test.ts checks every one against the meta-schema.
 */
function validator(name: SchemaName): ValidateFunction {
  const done = compiled.get(name) ?? PRECOMPILED?.[name];
  if (done) return done;
  if (!ajv) {
    // Required here, not imported: with precompiled validators a process never evaluates ajv's compiler.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use only
    const Ajv = (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use only
    const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
    const fresh = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, validateSchema: false });
    addFormats(fresh);
    // Registered, not compiled: a schema's $refs to another resolve when it is compiled.
    for (const schema of Object.values(SCHEMAS)) fresh.addSchema(schema);
    ajv = fresh;
  }
  const fn = ajv.getSchema(SCHEMAS[name].$id);
  if (!fn) throw new Error(`schema ${name} did not compile`);
  compiled.set(name, fn);
  return fn;
}

export function validate(name: SchemaName, value: unknown): ValidationResult {
  const fn = validator(name);
  if (fn(value)) return { ok: true };
  return { ok: false, errors: (fn.errors ?? []).map(toContractError) };
}

function toContractError(e: ErrorObject): ContractError {
  const extra =
    e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
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
  if (!result.ok)
    throw new SchemaValidationError(`${what} violates ${schema}: ${formatContractErrors(result.errors)}`, schema, result.errors);
}
