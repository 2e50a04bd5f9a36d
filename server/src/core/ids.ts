import { randomBytes } from 'node:crypto';

/** r_<UTC stamp>_<6 hex>: sortable by creation time, unique across processes. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `r_${stamp}_${randomBytes(3).toString('hex')}`;
}
