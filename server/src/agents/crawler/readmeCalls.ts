// How a README's code is matched against the exported names: the call patterns and the binding
// pattern that readmeExamples.ts uses, shared with aliasPrecheck.ts so both ask the same question.

export interface ExportedName {
  /** symbol name as in key_files (e.g. `format`, `Slug.make`, `slugify.extend`) */
  name: string;
  /** bindings under which a call site names it (`bytes.format`, `format`) */
  callNames: string[];
}

/** `call(` where `call` (`format`, `bytes.format`) is not the tail of a longer name. */
export const callPattern = (call: string): RegExp => new RegExp(`(^|[^\\w$.])${call.replace(/[.$]/g, '\\$&')}\\s*\\(`, 'm');

/** A declaration of `name`: `var name`, `let`, `const`, `import name`, `import * as name`. */
export const bindsPackagePattern = (name: string): RegExp =>
  new RegExp(`(?:\\b(?:var|let|const)\\s+|\\bimport\\s+(?:\\*\\s+as\\s+)?)${name.replace(/\$/g, '\\$')}\\b`);

/** The exported symbols `code` calls, in `exported` order. */
export function calledSymbols(code: string, exported: ExportedName[]): string[] {
  const found = new Set<string>();
  for (const e of exported) {
    for (const call of e.callNames) {
      if (callPattern(call).test(code)) {
        found.add(e.name);
        break;
      }
    }
  }
  return [...found];
}

/** The block declares a name the README calls exports through (`lib` of `lib.add(…)`). */
export function bindsPackage(code: string, exported: ExportedName[]): boolean {
  const prefixes = new Set(exported.flatMap((e) => e.callNames.filter((c) => c.includes('.')).map((c) => c.split('.')[0])));
  return [...prefixes].some((p) => bindsPackagePattern(p).test(code));
}
