/** What a JSDoc (or docstring) says about a symbol, in schema terms. */
export interface DocInfo {
  doc?: string;
  examples: string[];
  throws: string[];
  params: Map<string, { type?: string; optional?: boolean; default?: string }>;
  returns?: string;
}

/** Parses the text of one `/** ... *\/` comment (delimiters included or not). */
export function parseJsDoc(raw: string): DocInfo {
  const body = raw
    .replace(/^\/\*\*?/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''));
  const info: DocInfo = { examples: [], throws: [], params: new Map() };
  const desc: string[] = [];
  let current: { tag: string; lines: string[] } | undefined;
  for (const line of body) {
    const tag = /^\s*@(\w+)\s?(.*)$/.exec(line);
    if (tag) {
      if (current) addTag(info, current.tag, current.lines.join('\n'));
      current = { tag: tag[1], lines: [tag[2]] };
    } else if (current) current.lines.push(line);
    else desc.push(line);
  }
  if (current) addTag(info, current.tag, current.lines.join('\n'));
  const doc = desc.join('\n').trim();
  if (doc) info.doc = doc;
  return info;
}

/** Records one block tag (`@param`, `@returns`, …) with its text; tags the schema has no place for are dropped. */
function addTag(info: DocInfo, tag: string, text: string): void {
  const first = text.trim();
  switch (tag) {
    case 'example':
      if (first) info.examples.push(text.replace(/^\n+|\s+$/g, ''));
      break;
    case 'throws':
    case 'throw':
    case 'exception':
      if (first)
        info.throws.push(
          first
            .replace(/\s+/g, ' ')
            .replace(/^\{([^}]*)\}\s*/, (_m, t: string) => `${t}: `)
            .replace(/: $/, ''),
        );
      break;
    case 'param':
    case 'arg':
    case 'argument':
      addParam(info, first);
      break;
    case 'return':
    case 'returns': {
      const m = /^\{([^}]*)\}/.exec(first);
      info.returns = m ? m[1].trim() : first || undefined;
      break;
    }
  }
}

/** `{type} name`, `{type} [name=default]` (optional) or a bare name. */
function addParam(info: DocInfo, first: string): void {
  const m = /^(?:\{([^}]*(?:\{[^}]*\}[^}]*)*)\}\s*)?(\[[^\]]+\]|[\w$.]+)/.exec(first);
  if (!m) return;
  let name = m[2];
  let optional = false;
  let dflt: string | undefined;
  if (name.startsWith('[')) {
    optional = true;
    [name, dflt] = name.slice(1, -1).split('=');
  }
  info.params.set(name.trim(), { type: m[1]?.trim(), optional: optional || undefined, default: dflt?.trim() });
}
