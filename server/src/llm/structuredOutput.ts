// response_format for a contract: json_schema, strict where the schema fits OpenAI's strict subset,
// non-strict otherwise. The sanitizer and the ajv contracts still judge every reply: structured
// output makes a good reply likelier, it never replaces validation.

/** Keywords strict mode does not support (OpenAI structured outputs), plus ones it handles differently. */
const NOT_IN_STRICT = new Set([
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  '$dynamicRef',
  '$anchor',
]);

/**
 * Why strict mode cannot take this schema, or undefined when it can: every object lists all its
 * properties as required and forbids others, the root is an object, and no unsupported keyword appears.
 */
export function strictBlocker(schema: unknown): string | undefined {
  const root = schema as Record<string, unknown>;
  if (!root || root.type !== 'object') return 'the root is not an object';
  const walk = (node: unknown, at: string): string | undefined => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const r = walk(node[i], `${at}/${i}`);
        if (r) return r;
      }
      return undefined;
    }
    if (!node || typeof node !== 'object') return undefined;
    const n = node as Record<string, unknown>;
    for (const k of Object.keys(n)) if (NOT_IN_STRICT.has(k)) return `${at || '/'} uses ${k}`;
    const isObject = n.type === 'object' || (Array.isArray(n.type) && n.type.includes('object'));
    if (isObject) {
      if (n.additionalProperties !== false) return `${at || '/'} allows additional properties`;
      const props = Object.keys((n.properties as Record<string, unknown>) ?? {});
      const required = new Set((n.required as string[]) ?? []);
      const optional = props.filter((p) => !required.has(p));
      if (optional.length) return `${at || '/'} has optional ${optional.join(', ')}`;
    }
    for (const [k, v] of Object.entries(n)) {
      // enum/const values are data, not schemas
      if (k === 'enum' || k === 'const' || k === 'default' || k === 'examples') continue;
      const r = walk(v, `${at}/${k}`);
      if (r) return r;
    }
    return undefined;
  };
  return walk(root, '');
}

export interface JsonSchemaFormat {
  type: 'json_schema';
  json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
}

/** `$schema` and `$id` are dropped: local `#/$defs/…` references keep working without them. */
export function responseFormat(name: string, schema: Record<string, unknown>, allowStrict: boolean): JsonSchemaFormat {
  const { $schema: _s, $id: _i, ...rest } = schema;
  const safeName = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return { type: 'json_schema', json_schema: { name: safeName, strict: allowStrict && strictBlocker(rest) === undefined, schema: rest } };
}
