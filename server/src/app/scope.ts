// A run's scope from what the person asked for: `--only PATH[#SYMBOL]` (repeatable) and
// `--changed-since REF` (the working tree against REF, untracked files included).
import { promises as fsp } from 'node:fs';
import { UsageError } from '../core/errors';
import type { RunScope, ScopedFile } from '../core/scope';
import { changesSince } from '../git/changes';
import { PathEscapeError, resolveInside, workspaceRelative } from '../util/safePath';

export interface ScopeRequest {
  only?: string[];
  changedSince?: string;
}

export async function resolveScope(workspace: string, req: ScopeRequest): Promise<RunScope | undefined> {
  if (!req.only?.length && !req.changedSince) return undefined;
  const files = new Map<string, ScopedFile>();
  const add = (f: ScopedFile) => {
    const had = files.get(f.path);
    // Two requests for one file: the wider one wins (no symbols/lines = the whole file).
    if (!had) files.set(f.path, f);
    else if (!f.symbols && !f.lines) files.set(f.path, { path: f.path });
    else if (had.symbols || had.lines)
      files.set(f.path, { path: f.path, symbols: merged(had.symbols, f.symbols), lines: mergedLines(had.lines, f.lines) });
  };
  const real = await fsp.realpath(workspace);
  for (const o of req.only ?? []) {
    const hash = o.lastIndexOf('#');
    const file = hash > 0 ? o.slice(0, hash) : o;
    const symbol = hash > 0 ? o.slice(hash + 1) : undefined;
    let abs: string;
    try {
      abs = await resolveInside(workspace, file.replace(/^\.\//, ''));
    } catch (e) {
      if (e instanceof PathEscapeError) throw new UsageError(`--only ${o}: ${e.message}`);
      throw e;
    }
    const st = await fsp.stat(abs).catch(() => undefined);
    if (!st?.isFile()) throw new UsageError(`--only ${o}: no such file in the workspace`);
    add({ path: workspaceRelative(real, abs), ...(symbol ? { symbols: [symbol] } : {}) });
  }
  if (req.changedSince) {
    const changes = await changesSince(workspace, req.changedSince);
    if ('cannot' in changes) throw new UsageError(`--changed-since ${req.changedSince}: ${changes.cannot}`);
    for (const [path, lines] of changes.changed) add({ path, lines });
    for (const path of changes.untracked) add({ path });
  }
  return {
    ...(req.only?.length ? { only: req.only } : {}),
    ...(req.changedSince ? { changedSince: req.changedSince } : {}),
    files: [...files.values()].sort((a, b) => a.path.localeCompare(b.path)),
  };
}

function merged(a?: string[], b?: string[]): string[] | undefined {
  return a && b ? [...new Set([...a, ...b])] : (a ?? b);
}

function mergedLines(a?: [number, number][], b?: [number, number][]): [number, number][] | undefined {
  return a && b ? [...a, ...b] : (a ?? b);
}
