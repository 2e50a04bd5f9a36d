// `npm run bench -- parsers`: the code readers AMTP ships, on real trees nobody here wrote, in one
// run, as ratios against the fastest. JavaScript/TypeScript: oxc-parser, @babel/parser (estree, the
// crawler's old fallback; dropped from the dependencies when this bench chose oxc, measured here
// only while node_modules still holds it), the TypeScript compiler's createSourceFile. Python:
// web-tree-sitter with tree-sitter-python's .wasm, and @lezer/python (the renderers' and verifier's
// old reader; dropped when they moved onto tree-sitter, measured only while node_modules still holds
// it). Each reader parses every file
// and walks every node (reading code means walking it); the best of 3 rounds counts. "Correct" is
// checked by agreement: files each reader reports syntax errors in (they are all valid code), and
// files whose top-level statement count differs from the others'.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

interface Reader {
  name: string;
  /** parses and walks; returns [nodes, top-level statements, has errors] */
  read(file: string, text: string): [number, number, boolean];
}

function collect(roots: string[], exts: RegExp, skip: RegExp, max: number): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (out.length >= max) return;
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (!/^(test|tests|__pycache__|node_modules|site-packages|lib2to3|idlelib)$/.test(name)) walk(p);
      } else if (exts.test(name) && !skip.test(name) && st.size < 400_000) out.push(p);
      if (out.length >= max) return;
    }
  };
  for (const r of roots) if (existsSync(r)) walk(r);
  return out;
}

function esWalk(node: unknown): number {
  let n = 0;
  const stack: unknown[] = [node];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === 'object') stack.push(x);
    } else if (v && typeof v === 'object') {
      if ('type' in v) n++;
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k];
        if (x && typeof x === 'object') stack.push(x);
      }
    }
  }
  return n;
}

function jsReaders(): Reader[] {
  // .js files may hold JSX (React projects): read as JSX, as the crawler does.
  const lang = (f: string) => (/\.d\.[cm]?ts$/.test(f) ? 'dts' : /\.[cm]?ts$/.test(f) ? 'ts' : 'jsx');
  const st = (f: string) => (/\.c[jt]s$/.test(f) ? 'commonjs' : /\.m[jt]s$/.test(f) ? 'module' : 'unambiguous');
  const out: Reader[] = [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const oxc = require('oxc-parser') as typeof import('oxc-parser');
  out.push({
    name: 'oxc-parser',
    read(f, text) {
      const r = oxc.parseSync(f, text, { lang: lang(f) as 'jsx', sourceType: st(f) as 'module', preserveParens: false });
      return [esWalk(r.program), (r.program as { body: unknown[] }).body.length, r.errors.length > 0];
    },
  });
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const babel = require('@babel/parser') as typeof import('@babel/parser');
    out.push({
      name: '@babel/parser',
      read(f, text) {
        const l = lang(f);
        const s = st(f);
        const file = babel.parse(text, {
          sourceType: s === 'commonjs' ? 'script' : s,
          allowReturnOutsideFunction: s !== 'module',
          errorRecovery: true,
          plugins: ['estree', ...(l === 'jsx' ? (['jsx'] as const) : ([['typescript', { dts: l === 'dts' }]] as const))],
        });
        return [esWalk(file.program), file.program.body.length, (file.errors?.length ?? 0) > 0];
      },
    });
  } catch {
    // dropped from the dependencies: nothing to compare
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  out.push({
    name: 'typescript',
    read(f, text) {
      const kind = lang(f) === 'jsx' ? ts.ScriptKind.JS : ts.ScriptKind.TS;
      const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, false, kind);
      let n = 0;
      const visit = (node: import('typescript').Node): void => {
        n++;
        ts.forEachChild(node, visit);
      };
      visit(sf);
      const diags = (sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics;
      return [n, sf.statements.length, diags.length > 0];
    },
  });
  return out;
}

/** The part of @lezer/python's parser read here (its types are not installed once it is gone). */
interface LezerNode {
  name: string;
  firstChild: LezerNode | null;
  nextSibling: LezerNode | null;
}
interface LezerParser {
  parse(text: string): { topNode: LezerNode; iterate(spec: { enter(node: { type: { isError: boolean } }): void }): void };
}

async function pyReaders(): Promise<Reader[]> {
  const wts = await import('web-tree-sitter');
  const { Parser: P, Language: L } = (wts as unknown as { default?: typeof wts }).default ?? wts;
  await P.init({ locateFile: () => require.resolve('web-tree-sitter/web-tree-sitter.wasm') });
  const language = await L.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
  const tsParser = new P();
  tsParser.setLanguage(language);
  const out: Reader[] = [
    {
      name: 'tree-sitter (wasm)',
      read(_f, text) {
        const tree = tsParser.parse(text)!;
        const c = tree.walk();
        let n = 0;
        for (;;) {
          n++;
          if (c.gotoFirstChild()) continue;
          while (!c.gotoNextSibling()) if (!c.gotoParent()) break;
          if (c.nodeType === 'module' && c.currentDepth === 0) break;
        }
        const top = tree.rootNode.namedChildren.filter((x) => x?.type !== 'comment').length;
        const out: [number, number, boolean] = [n, top, tree.rootNode.hasError];
        c.delete();
        tree.delete();
        return out;
      },
    },
  ];
  try {
    // Not a dependency any more: named through a variable, so neither tsc nor esbuild looks for it.
    const lezerModule = '@lezer/python';
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parser: lezer } = require(lezerModule) as { parser: LezerParser };
    out.push({
      name: '@lezer/python',
      read(_f, text) {
        const tree = lezer.parse(text);
        let n = 0;
        let err = false;
        tree.iterate({
          enter: (node) => {
            n++;
            if (node.type.isError) err = true;
          },
        });
        let top = 0;
        for (let c = tree.topNode.firstChild; c; c = c.nextSibling) if (!/^(Comment|⚠)$/.test(c.name)) top++;
        return [n, top, err];
      },
    });
  } catch {
    // not installed: tree-sitter alone
  }
  return out;
}

function measure(label: string, files: string[], readers: Reader[]): void {
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
  const rows = readers.map((r) => {
    const tops: number[] = [];
    const errors: string[] = [];
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      (globalThis as { gc?: () => void }).gc?.();
      const t0 = performance.now();
      for (let i = 0; i < files.length; i++) {
        const [, top, err] = r.read(files[i], texts[i]);
        if (round === 0) {
          tops.push(top);
          if (err) errors.push(files[i]);
        }
      }
      best = Math.min(best, performance.now() - t0);
    }
    return { name: r.name, ms: best, tops, errors };
  });
  const fastest = Math.min(...rows.map((r) => r.ms));
  console.log(`\n${label}: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB (parse + walk every node, best of 3)`);
  for (const r of rows) {
    const disagree = r.tops.filter((t, i) => rows.filter((o) => o !== r && o.tops[i] === t).length === 0).length;
    console.log(
      `  ${r.name.padEnd(20)} ${r.ms.toFixed(0).padStart(6)} ms  ${(r.ms / fastest).toFixed(2)}x  ${(bytes / 1e3 / r.ms).toFixed(1)} MB/s  files with syntax errors: ${r.errors.length}  top-level count unlike every other reader: ${disagree}`,
    );
    for (const e of r.errors.slice(0, 3)) console.log(`      error reported in ${path.relative(process.cwd(), e)}`);
  }
}

/** A fresh process that loads the reader and reads one file: what a crawl of a small project pays first (median of 3). */
function coldStart(label: string, code: string, file: string): void {
  const runs = [0, 1, 2].map(() => {
    const r = spawnSync(process.execPath, ['-e', `const t0=performance.now();${code};console.log(performance.now()-t0)`], {
      encoding: 'utf8',
      env: { ...process.env, FILE: file },
    });
    return Number(r.stdout.trim());
  });
  console.log(
    `  cold: ${label.padEnd(20)} ${runs
      .sort((a, b) => a - b)[1]
      .toFixed(0)
      .padStart(6)} ms to load and read ${path.basename(file)}`,
  );
}

async function main(): Promise<void> {
  const nm = path.resolve('node_modules');
  const jsRoots = [
    'openai/src',
    'ajv/lib',
    'zod/lib',
    'bullmq/dist/cjs',
    'ioredis/built',
    'fast-xml-parser/src',
    'diff/lib',
    'js-yaml/lib',
    'pg/lib',
    'lowdb/lib',
    'picomatch/lib',
    'istanbul-reports/lib',
    'yargs/build',
    'semver',
  ].map((r) => path.join(nm, r));
  const jsFiles = collect(jsRoots, /\.(m|c)?(j|t)s$/, /\.d\.[cm]?ts$|\.min\.js$/, 900);
  measure('JavaScript/TypeScript (npm packages in node_modules)', jsFiles, jsReaders());
  const read = "require('fs').readFileSync(process.env.FILE,'utf8')";
  coldStart('oxc-parser', `require('oxc-parser').parseSync(process.env.FILE, ${read})`, jsFiles[0]);
  coldStart(
    'typescript',
    `const ts=require('typescript');ts.createSourceFile(process.env.FILE, ${read}, ts.ScriptTarget.Latest)`,
    jsFiles[0],
  );
  const py = ['/usr/lib/python3.11', '/usr/lib/python3/dist-packages'];
  const pyFiles = collect(py, /\.py$/, /^$/, 700);
  if (pyFiles.length) measure('Python (the Debian python3 standard library and packages)', pyFiles, await pyReaders());
  else console.log('\nPython: no /usr/lib/python3* tree on this machine; skipped');
}

void main();
