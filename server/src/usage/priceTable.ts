// The optional price table: a JSON object {"model": {"input": USD, "output": USD, "cachedInput"?: USD}}
// with prices per million tokens. Read from a file (CLI) or a setting (VS Code); a bad table is a clear error.
import { promises as fsp } from 'node:fs';
import { UsageError } from '../core/errors';
import type { ModelPrice, PriceTable } from '../core/usage';

const FIELDS = ['input', 'output', 'cachedInput'] as const;

/** Checks a parsed table; `where` names its source in the error. */
export function parsePriceTable(value: unknown, where: string): PriceTable {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${where}: a price table is a JSON object of models, e.g. {"gpt-4o-mini": {"input": 0.15, "output": 0.6}}`);
  const out: PriceTable = {};
  for (const [model, row] of Object.entries(value)) {
    if (!row || typeof row !== 'object' || Array.isArray(row))
      throw new UsageError(`${where}: "${model}" must be an object with input and output prices (USD per million tokens)`);
    const r = row as Record<string, unknown>;
    const extra = Object.keys(r).filter((k) => !(FIELDS as readonly string[]).includes(k));
    if (extra.length) throw new UsageError(`${where}: "${model}" has unknown field(s) ${extra.join(', ')} (allowed: ${FIELDS.join(', ')})`);
    for (const f of FIELDS) {
      const v = r[f];
      if (v === undefined && f === 'cachedInput') continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        throw new UsageError(
          `${where}: "${model}".${f} must be a non-negative number of USD per million tokens (got ${JSON.stringify(v)})`,
        );
    }
    out[model] = {
      input: r.input as number,
      output: r.output as number,
      ...(r.cachedInput !== undefined ? { cachedInput: r.cachedInput as number } : {}),
    } satisfies ModelPrice;
  }
  return out;
}

export async function loadPriceTable(file: string): Promise<PriceTable> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the price table ${file}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`the price table ${file} is not JSON: ${(e as Error).message}`);
  }
  return parsePriceTable(value, file);
}
