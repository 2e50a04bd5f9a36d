// Which module loader a Node test run needs to load what the project loads (docs/verifier.md, "Load
// what the project loads"), in one place so the verifier, the characterizer and the search engine
// agree:
// - TypeScript tests or sources: the project's own tsx when it has one; otherwise AMTP's loader
//   (assets/amtp.node-loader.mjs: the TypeScript compiler AMTP ships, transpile only), and the run
//   says what the project needs for its own command (tsx).
// - ESM sources that import JSON without `with { type: 'json' }` (fine for bundlers and TypeScript,
//   refused by Node 20 with ERR_IMPORT_ASSERTION_TYPE_MISSING): AMTP's loader too, which adds the
//   attribute, and the run says so.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { assetUrl } from '../assets';
import { findTsx } from './runnerBin';

export interface NodeLoader {
  /** what `node --import` gets: `tsx`, or the file URL of AMTP's loader */
  importSpec: string;
  /** set when AMTP's loader stands in: what the project's own command needs to run the same files */
  note?: string;
}

const TS_FILE = /\.(?:[cm]?ts|tsx)$/;
const JS_FILE = /\.m?js$/;
const SKIP_DIRS = new Set(['node_modules', '.git', '.amtp', 'coverage', '.nyc_output']);
const MAX_FILES = 3000;
const MAX_BYTES = 1 << 20;
/** A static or dynamic import of a `.json` file with no `with`/`assert` attributes after it. */
const BARE_JSON_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])[^'"\n]+\.json\1(?!\s*(?:with|assert)\b|\s*,\s*\{)/;

/**
 * The loader a node:test or mocha run of `testFiles` in `workspace` needs, or undefined when plain
 * Node loads everything. `wantsTsx`: the engineer's command asks for tsx (`--import tsx`).
 */
export function nodeLoader(workspace: string, testFiles: string[], wantsTsx: boolean): NodeLoader | undefined {
  const typescript = wantsTsx || testFiles.some((f) => TS_FILE.test(f));
  if (typescript) {
    if (findTsx(workspace)) return { importSpec: 'tsx' };
    return {
      importSpec: amtpLoader(),
      note: "the project has no TypeScript loader: AMTP ran its TypeScript tests with its own (TypeScript's transpileModule); the project's own command needs tsx (npm install --save-dev tsx)",
    };
  }
  const json = bareJsonImport(workspace);
  if (!json) return undefined;
  return {
    importSpec: amtpLoader(),
    note: `${json} imports JSON without \`with { type: 'json' }\`, which Node refuses (ERR_IMPORT_ASSERTION_TYPE_MISSING): AMTP ran the tests with its own loader, which adds it; the project's own command needs a loader that does the same (tsx) or a bundling runner (vitest)`,
  };
}

/** The file URL of AMTP's loader, for `node --import` (mocha: `--node-option import=…`). */
function amtpLoader(): string {
  return assetUrl('amtp.node-loader.mjs');
}

/** The first project JavaScript file (outside node_modules) that imports JSON without an import attribute. */
export function bareJsonImport(workspace: string): string | undefined {
  let seen = 0;
  const walk = (dir: string, rel: string): string | undefined => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return undefined;
    }
    for (const name of names) {
      if (seen++ > MAX_FILES) return undefined;
      if (SKIP_DIRS.has(name)) continue;
      const path = join(dir, name);
      const st = statSync(path, { throwIfNoEntry: false });
      const r = rel ? `${rel}/${name}` : name;
      if (st?.isDirectory()) {
        const hit = walk(path, r);
        if (hit) return hit;
      } else if (st && JS_FILE.test(name) && st.size <= MAX_BYTES && BARE_JSON_IMPORT.test(readFileSync(path, 'utf8'))) return r;
    }
    return undefined;
  };
  return walk(workspace, '');
}
