// Source maps a package ships with its built files. Some name sources the package does not ship
// (superstruct@2.0.2's dist/index.mjs → ../src/*.ts, js-sdsl@4.4.2's dist/cjs/*.js → ../../src/*.ts):
// followed, they lead to no file, and the code that ran would count for nothing. Such a file is
// counted as itself (server/src/coverage/v8.ts): read on disk where Node ran it, or, where a runner
// transformed it (vitest), through the runner's map composed with this one (./mappedCounts.ts).
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TraceMap, type SourceMapInput } from '@jridgewell/trace-mapping';

/** A source map and the URL its sources resolve against (the .map file, or the code that inlines it). */
export interface ShippedMap {
  map: object;
  url: string;
}

/** A file's last `sourceMappingURL` comment, as Node and bundlers read it (at the end of the code). */
const MAP_COMMENT = /(?:\/\/|\/\*)[#@]\s*sourceMappingURL=([^\s*]+)[^\n]*\s*$/;
const INLINE = /^data:application\/json[^,]*?(;base64)?,(.*)$/;

/** The source map a file on disk names (inline, or a file beside it), or undefined. */
export function shippedMapOf(path: string): ShippedMap | undefined {
  try {
    const ref = MAP_COMMENT.exec(readFileSync(path, 'utf8'))?.[1];
    if (!ref) return undefined;
    const inline = INLINE.exec(ref);
    if (inline) {
      const text = inline[1] ? Buffer.from(inline[2], 'base64').toString('utf8') : decodeURIComponent(inline[2]);
      return { map: JSON.parse(text) as object, url: pathToFileURL(path).href };
    }
    const url = new URL(ref, pathToFileURL(path)).href;
    return { map: JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as object, url };
  } catch {
    return undefined;
  }
}

/** The file a resolved source names, or undefined for another scheme (`webpack://`, `http:`). */
export function sourcePath(resolved: string): string | undefined {
  try {
    if (resolved.startsWith('file:')) return fileURLToPath(resolved);
  } catch {
    return undefined;
  }
  return isAbsolute(resolved) ? resolved : undefined;
}

/** True when the map (its sources resolved against `url`) names a source that is not a file on disk. */
export function namesMissingSources(map: object, url: string): boolean {
  let tm: TraceMap;
  try {
    tm = new TraceMap(map as SourceMapInput, url);
  } catch {
    return false;
  }
  return tm.resolvedSources.some((s) => {
    const path = sourcePath(s);
    return !path || !existsSync(path);
  });
}
