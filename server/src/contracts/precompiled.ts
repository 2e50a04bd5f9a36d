import type { ValidateFunction } from 'ajv';
import type { SchemaName } from './schemas';

/**
 * Validators compiled at build time. Run from source (tests, tsx) this is undefined and validate.ts
 * compiles each schema on first use; the bundles replace this module with ajv's standalone code for
 * every schema (scripts/precompiledValidators.mjs), so a process spends no time compiling schemas.
 */
export const PRECOMPILED: Partial<Record<SchemaName, ValidateFunction>> | undefined = undefined;
