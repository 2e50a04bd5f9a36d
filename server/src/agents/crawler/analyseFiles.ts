// Reads and parses one wave of source files. Python files are parsed on a worker thread while this
// one reads the next files and parses the JavaScript ones; when every file is read this thread
// parses queued Python files too (server/src/agents/crawler/pyPool.ts).
import type { HelperSpan, SymbolInfo } from '../../contracts/types';
import type { JsParser } from '../../util/jsParser';
import { extractJsSymbols, type JsFileFacts } from './jsSymbols';
import { helpParsePython, parsePython } from './pyPool';
import type { WorkspaceReader } from './workspaceReader';

export interface FileFacts {
  symbols: SymbolInfo[];
  imports: string[];
  helpers?: HelperSpan[];
  imported?: JsFileFacts['imported'];
  syntax?: JsFileFacts['syntax'];
  opaqueCjs?: boolean;
}

export interface WaveFile {
  path: string;
  language?: string;
}

export interface WaveResult {
  facts: Map<string, FileFacts>;
  texts: Map<string, string>;
  skipped: { path: string; reason: string }[];
}

/** Facts of `files`, in their order whatever order the threads finished in (the map is deterministic). */
export async function analyseWave(
  reader: WorkspaceReader,
  js: JsParser | undefined,
  files: WaveFile[],
  defaultName: (p: string) => string,
): Promise<WaveResult> {
  // Settled at once (never a bare rejected promise): a failure waiting in this list must not be taken for an unhandled rejection.
  const settle = (p: Promise<FileFacts>) =>
    p.then(
      (facts) => ({ facts }),
      (e: Error) => ({ error: e.message }),
    );
  const queued: { path: string; skip?: string; result?: Promise<{ facts: FileFacts } | { error: string }> }[] = [];
  const out: WaveResult = { facts: new Map(), texts: new Map(), skipped: [] };
  for (const f of files) {
    const r = await reader.read(f.path);
    if (!r.ok) {
      queued.push({ path: f.path, skip: r.reason });
      continue;
    }
    const text = r.file.content;
    out.texts.set(f.path, text);
    if (f.language === 'Python') queued.push({ path: f.path, result: settle(parsePython(text)) });
    else if (js)
      queued.push({
        path: f.path,
        result: settle(new Promise<FileFacts>((ok) => ok(extractJsSymbols(js, text, f.path, defaultName(f.path))))),
      });
  }
  await helpParsePython();
  for (const q of queued) {
    if (q.skip !== undefined) {
      out.skipped.push({ path: q.path, reason: q.skip });
      continue;
    }
    const r = await q.result!;
    if ('error' in r) out.skipped.push({ path: q.path, reason: `could not be analysed: ${r.error}` });
    else
      out.facts.set(
        q.path,
        r.facts.syntax === undefined
          ? { symbols: r.facts.symbols, imports: r.facts.imports, ...(r.facts.helpers ? { helpers: r.facts.helpers } : {}) }
          : r.facts,
      );
  }
  return out;
}
