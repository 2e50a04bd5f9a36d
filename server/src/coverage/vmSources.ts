// Modules a runner transformed and ran through node:vm under the file's own name (vitest's vite-node).
// V8 reports their offsets in that code, which is on no disk and in no Node source-map cache, so read
// against the file on disk they land on the wrong statements (loading "covers" function bodies). The
// test process records each such module's code (server/src/frameworks/assets/amtp.v8-sources.cjs);
// here it is matched to its V8 script and read through the source map inlined in it, after the
// runner's wrapper, as vitest's own coverage provider does.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShippedMap } from './shippedMaps';

/** A module's code after the runner's wrapper, the wrapper's length and the code's own source map. */
export interface VmSource {
  code: string;
  wrapper: number;
  data: object;
  /** the file's own map, where `data` leads past the file to sources not shipped (./shippedMaps.ts) */
  shipped?: ShippedMap;
}

interface Recorded {
  file: string;
  code: string;
}

/** vite-node's wrapper around a transformed module: `'use strict';async (__vite_ssr_import__,…)=>{{`. */
const VITE_NODE_WRAPPER = /^'use strict';async \([\w$,]*\)=>\{\{?/;
const INLINE_MAP = /\/\/[#@] sourceMappingURL=data:application\/json(?:;charset=[\w-]+)?;base64,([A-Za-z0-9+/=]+)\s*$/m;

/** The recorded modules by file (a file a process ran more than once keeps each code). */
export function readVmSources(dir: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!dir || !existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    try {
      const r = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Recorded;
      out.set(r.file, [...(out.get(r.file) ?? []), r.code]);
    } catch {
      // A record cut short by a killed process: that module is read as before.
    }
  }
  return out;
}

/** The recorded code of a V8 script: the one as long as the script's top-level range, with its inline source map. */
export function vmSourceOf(
  sources: Map<string, string[]>,
  path: string,
  functions: { ranges: { startOffset: number; endOffset: number }[] }[],
): VmSource | undefined {
  const length = functions[0]?.ranges[0]?.endOffset;
  const code = sources.get(path)?.find((c) => c.length === length);
  const inline = code?.match(INLINE_MAP);
  if (!code || !inline) return undefined;
  try {
    const data = JSON.parse(Buffer.from(inline[1], 'base64').toString('utf8')) as object;
    const wrapper = code.match(VITE_NODE_WRAPPER)?.[0].length ?? 0;
    return { code: code.slice(wrapper), wrapper, data };
  } catch {
    return undefined;
  }
}
