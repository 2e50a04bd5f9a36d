// A schema with every reference to another contract inlined, for readers that see one schema alone:
// a model reading its system prompt, an endpoint enforcing structured output.
import { SCHEMAS, type SchemaName } from './schemas';

const BY_ID = new Map<string, unknown>(Object.values(SCHEMAS).map((s) => [s.$id, s]));

function pointer(doc: unknown, fragment: string): unknown {
  let node = doc;
  for (const part of fragment.replace(/^\//, '').split('/').filter(Boolean))
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

/**
 * Inlines `$ref`s that point into another schema (`https://amtp.dev/schemas/x.schema.json#/…`),
 * and the local `#/…` refs of the inlined parts, against the document they came from.
 */
export function selfContained(name: SchemaName): unknown {
  const root = SCHEMAS[name];
  const walk = (node: unknown, doc: unknown, depth: number): unknown => {
    if (depth > 32) throw new Error(`schema ${name}: $ref nesting deeper than 32`);
    if (Array.isArray(node)) return node.map((n) => walk(n, doc, depth));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const [base, fragment = ''] = ref.split('#');
      if (base) {
        const target = BY_ID.get(base);
        if (!target) throw new Error(`schema ${name}: unknown $ref ${ref}`);
        return walk(pointer(target, fragment), target, depth + 1);
      }
      if (doc !== root) return walk(pointer(doc, fragment), doc, depth + 1);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, doc, depth)]));
  };
  return walk(root, root, 0);
}
