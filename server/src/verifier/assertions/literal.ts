// Do two printed values mean the same literal? Runners and oracles print values in different dialects
// ('x' or "x", Python True or JS true, jest's `Object {`, trailing commas). Only the spelling is
// normalised: a different value never compares equal.
export function sameLiteral(a: string, b: string): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: string): string {
  let out = '';
  const s = v.trim();
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      for (; j < s.length && s[j] !== c; j++) {
        if (s[j] === '\\' && j + 1 < s.length) text += unescape(s[++j]);
        else text += s[j];
      }
      out += JSON.stringify(text);
      i = j;
    } else if (!/\s/.test(c)) out += c;
  }
  return out
    .replace(/\b(Object|Array)(?=[{[])/g, '')
    .replace(/,(?=[}\]])/g, '')
    .replace(/([{,])"([A-Za-z_$][\w$]*)":/g, '$1$2:')
    .replace(/\bTrue\b/g, 'true')
    .replace(/\bFalse\b/g, 'false')
    .replace(/\bNone\b/g, 'null');
}

function unescape(c: string): string {
  return c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c;
}

/**
 * The same text across types: a quoted string on one side and the bare number, boolean or null it
 * spells on the other (`'9'` and `9`), or a class instance and the plain object with its properties
 * (`PersonName { first: 'A' }` and `{first: 'A'}`). Such a failure says the test read the docs'
 * literal in another type than the call returns, not that the code contradicts them.
 */
export function sameAcrossTypes(a: string, b: string): boolean {
  // A class instance printed with its name (`PersonName { first: 'A' }`) against the plain object the docs show.
  const instance = /^\s*[A-Za-z_$][\w$]*(?:\(\d+\))?\s+(?=[{[])/;
  if ((instance.test(a) || instance.test(b)) && sameLiteral(a.replace(instance, ''), b.replace(instance, ''))) return true;
  const bare = (v: string) => /^(?:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|true|false|null|undefined|NaN|-?Infinity|True|False|None)$/.test(v.trim());
  const unquoted = (v: string) => /^(['"`])(.*)\1$/s.exec(v.trim())?.[2];
  return (bare(a) && unquoted(b) === a.trim()) || (bare(b) && unquoted(a) === b.trim());
}
