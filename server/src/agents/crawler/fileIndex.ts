// One pass over the listed tree for everything the crawl picks out of it by name: on a large tree
// (Linux: ~78k files) each separate filter over every path cost a few milliseconds of a crawl
// whose budget is a small multiple of `rg --files`.
import type { CrawlerOutput } from '../../contracts/types';
import { CODE_LANGUAGES } from '../../mcp/languages';
import type { TreeEntry } from '../../mcp/walk';
import { isProductPath } from './targets';
import { mayBeTestEvidence } from './testSetup';

type EntryPoint = CrawlerOutput['entry_points'][number];

export interface FileIndex {
  /** the files that can be evidence of a test setup (testSetup.ts `mayBeTestEvidence`), in tree order */
  testEvidence: string[];
  paths: Set<string>;
  languages: Map<string, { files: number; bytes: number }>;
  /** package.json files at most three folders down, the first 200 */
  manifests: string[];
  /** requirements*.txt at the root, the first 5 */
  requirements: string[];
  /** READMEs at most two folders down, the first 20 */
  readmes: string[];
  /** `__main__.py` near the root and top-level Python packages */
  pyEntries: EntryPoint[];
  /** JavaScript, TypeScript and Python files that are not type declarations */
  code: TreeEntry[];
}

const depth = (p: string) => {
  let n = 1;
  for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) n++;
  return n;
};

export function indexFiles(entries: TreeEntry[]): FileIndex {
  const ix: FileIndex = {
    testEvidence: [],
    paths: new Set(),
    languages: new Map(),
    manifests: [],
    requirements: [],
    readmes: [],
    pyEntries: [],
    code: [],
  };
  for (const f of entries) {
    if (f.type !== 'file') continue;
    const p = f.path;
    ix.paths.add(p);
    if (mayBeTestEvidence(p)) ix.testEvidence.push(p);
    if (f.language) {
      const l = ix.languages.get(f.language);
      if (l) {
        l.files++;
        l.bytes += f.size ?? 0;
      } else ix.languages.set(f.language, { files: 1, bytes: f.size ?? 0 });
      if (CODE_LANGUAGES.has(f.language) && !/\.d\.[cm]?ts$/.test(p)) ix.code.push(f);
    }
    // Cheap suffix and prefix tests before each regex: most paths fail them.
    if (p.endsWith('package.json') && /(^|\/)package\.json$/.test(p) && depth(p) <= 4 && ix.manifests.length < 200) ix.manifests.push(p);
    else if (p.startsWith('requirements') && /^requirements[\w.-]*\.txt$/.test(p) && ix.requirements.length < 5) ix.requirements.push(p);
    else if (p.endsWith('.py')) pythonEntry(p, ix.pyEntries);
    // The name's first letter before the regex: 'r' or 'R' (| 0x20 folds the case).
    const base = p.lastIndexOf('/') + 1;
    if ((p.charCodeAt(base) | 0x20) === 0x72 && isReadme(p.slice(base)) && depth(p) <= 3 && ix.readmes.length < 20) ix.readmes.push(p);
  }
  return ix;
}

const isReadme = (name: string) => /^readme(\.md|\.markdown|\.rst|\.txt)?$/i.test(name);

function pythonEntry(p: string, out: EntryPoint[]): void {
  if (/(^|\/)__main__\.py$/.test(p) && depth(p) <= 3) out.push({ path: p, kind: '__main__' });
  if (/^(src\/)?[A-Za-z_]\w*\/__init__\.py$/.test(p) && isProductPath(p))
    out.push({ path: p, kind: 'package', name: p.replace(/^src\//, '').split('/')[0] });
}
