// The layering holds by machine. docs/architecture.md names the layer order of server/src on one
// line; every import of every file (type-only imports, re-exports, require() and import() too) may
// only reach a layer before its own. A strict order also means no import cycle between folders.
// The client reaches the server only through protocol.ts and core/.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');

/** The order line of docs/architecture.md: "`core` → `protocol` → … → `lsp`, `cli` → `server`". */
function layerOrder(doc: string): Map<string, number> {
  const line = doc.split('\n').find((l) => /^`core` →/.test(l));
  if (!line) throw new Error('docs/architecture.md has no layer order line starting with `core` →');
  const rank = new Map<string, number>();
  line.split('→').forEach((step, i) => {
    for (const m of step.matchAll(/`([\w-]+)`/g)) rank.set(m[1], i);
  });
  return rank;
}

/** The layer of a file under server/src: its folder, or a top-level file's own name (protocolViews.ts is protocol's). */
function layerOf(rel: string): string {
  const parts = rel.split('/');
  if (parts.length > 1) return parts[0];
  const name = parts[0].replace(/\.ts$/, '');
  return name === 'protocolViews' ? 'protocol' : name;
}

interface Violation {
  file: string;
  imports: string;
  why: string;
}

/** Every import of `files` (path under server/src → text) that does not go to an earlier layer. */
function layerViolations(files: Map<string, string>, rank: Map<string, number>): Violation[] {
  const out: Violation[] = [];
  for (const [rel, text] of files) {
    const from = layerOf(rel);
    if (!rank.has(from)) {
      out.push({ file: rel, imports: '', why: `its layer "${from}" is not in the order line of docs/architecture.md` });
      continue;
    }
    for (const im of ts.preProcessFile(text, true, true).importedFiles) {
      if (!im.fileName.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), im.fileName));
      if (target.startsWith('..')) continue;
      const to = layerOf(target);
      if (to === from) continue;
      if (!rank.has(to)) out.push({ file: rel, imports: im.fileName, why: `"${to}" is not in the layer order` });
      else if (rank.get(to)! >= rank.get(from)!)
        out.push({ file: rel, imports: im.fileName, why: `${from} may not import ${to}, which is not before it` });
    }
  }
  return out;
}

function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? tsFiles(path.posix.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.posix.join(dir, e.name)] : [],
    );
}

describe('import graph', () => {
  const rank = layerOrder(fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'));

  it('every import of server/src goes to an earlier layer of docs/architecture.md, type-only imports included', () => {
    const files = new Map(
      tsFiles('server/src').map((f) => [path.posix.relative('server/src', f), fs.readFileSync(path.join(ROOT, f), 'utf8')]),
    );
    assert.deepEqual(
      layerViolations(files, rank).map((v) => `${v.file} → ${v.imports}: ${v.why}`),
      [],
    );
  });

  it('every folder of server/src is in the order line', () => {
    const folders = fs
      .readdirSync(path.join(ROOT, 'server/src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    assert.deepEqual(
      folders.filter((f) => !rank.has(f)),
      [],
    );
  });

  it('the client reaches the server only through protocol.ts and core/', () => {
    const reach: string[] = [];
    for (const f of tsFiles('client/src'))
      for (const im of ts.preProcessFile(fs.readFileSync(path.join(ROOT, f), 'utf8'), true, true).importedFiles) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(f), im.fileName));
        if (im.fileName.startsWith('.') && target.startsWith('server/src/')) reach.push(target);
      }
    assert.ok(reach.length > 0);
    for (const t of reach) assert.match(t, /^server\/src\/(protocol(Views)?\.ts|protocol(Views)?|core\/)/, t);
  });

  it('the check fails on a planted violation: a type-only import upward, a cycle, a folder not in the order', () => {
    const planted = new Map([
      ['core/ids.ts', "import type { Stage } from '../pipeline/stage';\n"],
      ['llm/a.ts', "export { x } from '../gateway/b';\n"],
      ['gateway/b.ts', "import { y } from '../llm/a';\n"],
      ['pipeline/stage.ts', "const t = require('../util/x');\nimport('../verifier/late');\n"],
      ['brandnew/x.ts', ''],
    ]);
    assert.deepEqual(
      layerViolations(planted, rank).map((v) => [v.file, v.imports]),
      [
        ['core/ids.ts', '../pipeline/stage'],
        ['llm/a.ts', '../gateway/b'],
        ['gateway/b.ts', '../llm/a'],
        ['pipeline/stage.ts', '../verifier/late'],
        ['brandnew/x.ts', ''],
      ],
    );
  });
});
