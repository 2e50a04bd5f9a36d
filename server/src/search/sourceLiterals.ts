// The number and string literals of a function or module, in source order: values worth trying as
// arguments (hints.ts, generate.ts's pools).
import type { EsNode } from '../util/jsParser';
import { walk } from '../util/esTree';

/** Appends `v` unless the list has it. */
export function push<T>(list: T[], v: T, same: (a: T, b: T) => boolean = (a, b) => a === b): void {
  if (!list.some((x) => same(x, v))) list.push(v);
}

/** Every node under `node` (none for undefined), in source order. */
export function inSourceOrder(node: EsNode | undefined): EsNode[] {
  const all: EsNode[] = [];
  if (node) walk(node, (n) => void all.push(n));
  return all.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Literals of a node, in order of first appearance: numbers, and strings of at most 40 characters. */
export function literalsIn(node: EsNode, max = 24): { numbers: number[]; strings: string[] } {
  const numbers: number[] = [];
  const strings: string[] = [];
  for (const n of inSourceOrder(node)) {
    if (n.type !== 'Literal' && n.type !== 'StringLiteral' && n.type !== 'NumericLiteral') continue;
    if (typeof n.value === 'number' && Number.isFinite(n.value) && numbers.length < max) push(numbers, n.value);
    if (typeof n.value === 'string' && n.value.length <= 40 && strings.length < max && !/^use strict$/.test(n.value))
      push(strings, n.value);
  }
  return { numbers, strings };
}
