import * as fs from 'node:fs';
import { isSecretEnvFile } from '../util/redact';
import { NotRegularFileError, openRegularFileSync } from '../util/regularFile';
import { resolveInsideSync } from '../util/safePath';
import { ResponseCache } from './cache';
import { ToolError, toToolError } from './toolError';

export interface ReadFileArgs {
  path: string;
  /** 1-based, inclusive */
  startLine?: number;
  endLine?: number;
  maxBytes?: number;
  /** utf8 (default) refuses invalid UTF-8; latin1 is an explicit opt-in that reads any text */
  encoding?: 'utf8' | 'latin1';
}

export interface ReadFileResult {
  path: string;
  content: string;
  truncated: boolean;
  size: number;
  startLine: number;
  endLine: number;
  encoding: 'utf8' | 'latin1';
}

const DEFAULT_MAX_BYTES = 256 * 1024;
const HARD_MAX_BYTES = 8 * 1024 * 1024;
/** A ranged read of a huge file stops scanning here rather than reading gigabytes for line numbers. */
const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const CHUNK = 64 * 1024;
const SNIFF = 8000;

/**
 * Reads one workspace file under the path-safety and content rules of `repo.read_file`.
 * Synchronous calls inside: a crawl reads hundreds of small files, and the thread-pool round trips of
 * the promise API (realpath, open, stat, read, close: six or more per file) cost more than the reads.
 */
export async function readWorkspaceFile(root: string, args: ReadFileArgs, cache?: ResponseCache): Promise<ReadFileResult> {
  return readWorkspaceFileSync(root, args, cache);
}

function readWorkspaceFileSync(root: string, args: ReadFileArgs, cache?: ResponseCache): ReadFileResult {
  const rel = args.path;
  const maxBytes = Math.min(Math.max(1, args.maxBytes ?? DEFAULT_MAX_BYTES), HARD_MAX_BYTES);
  const ranged = args.startLine !== undefined || args.endLine !== undefined;
  const startLine = Math.max(1, args.startLine ?? 1);
  const endLine = args.endLine ?? Number.MAX_SAFE_INTEGER;
  if (endLine < startLine) throw new ToolError(`endLine ${endLine} is before startLine ${startLine}`);
  let fd: number | undefined;
  try {
    const target = resolveInsideSync(root, rel);
    // Open the real path that was proven inside the root, not the name, which a symlink swap could redirect;
    // only a regular file, checked before the open and on it, and never with an open that can wait (a named pipe).
    const real = fs.realpathSync.native(target);
    if (isSecretEnvFile(real)) throw new ToolError(envRefusal(rel));
    let st: fs.Stats;
    ({ fd, st } = openRegular(real, rel));
    if (st.nlink > 1) throw new ToolError(hardLinkRefusal(rel, st.nlink));
    const key = ResponseCache.key('repo.read_file', { ...args, maxBytes }, `${st.ino}:${st.mtimeMs}:${st.size}`);
    const cached = cache?.get(key) as ReadFileResult | undefined;
    if (cached) return cached;
    if (!ranged && st.size > maxBytes) {
      throw new ToolError(
        `refused: ${JSON.stringify(rel)} is ${st.size} bytes, over the ${maxBytes}-byte limit; ask for a line range (startLine/endLine)`,
      );
    }
    const head = Buffer.alloc(Math.min(SNIFF, st.size));
    const bytesRead = fs.readSync(fd, head, 0, head.length, 0);
    if (isBinary(head.subarray(0, bytesRead))) throw new ToolError(`refused: ${JSON.stringify(rel)} is a binary file`);
    const { bytes, truncated, lastLine } = ranged
      ? readLines(fd, startLine, endLine, maxBytes)
      : { bytes: readAll(fd, st.size), truncated: false, lastLine: 0 };
    const encoding = args.encoding ?? 'utf8';
    const content = decode(bytes, encoding, rel);
    const result: ReadFileResult = {
      path: rel,
      content,
      truncated,
      size: st.size,
      startLine,
      endLine: ranged ? lastLine : countLines(content),
      encoding,
    };
    cache?.set(key, result, content.length * 2 + 200);
    return result;
  } catch (e) {
    throw toToolError(e, rel);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The open descriptor of a regular file; a directory, named pipe, socket or device is refused unopened. */
function openRegular(real: string, rel: string): { fd: number; st: fs.Stats } {
  try {
    return openRegularFileSync(real);
  } catch (e) {
    if (!(e instanceof NotRegularFileError)) throw e;
    if (e.fileType === 'directory') throw new ToolError(`is a directory: ${JSON.stringify(rel)} (use repo.tree)`);
    throw new ToolError(`refused: not a regular file (${e.fileType}): ${JSON.stringify(rel)}`);
  }
}

/**
 * `.env` files hold a project's secrets by convention, and no pattern knows every secret's shape: the
 * read tools do not serve them (util/redact.ts isSecretEnvFile; templates such as `.env.example` are served, redacted).
 */
function envRefusal(rel: string): string {
  return `refused: ${JSON.stringify(rel)} holds environment secrets (.env files are not served); read .env.example for the variable names`;
}

/** The whole file from position 0 (it may have grown or shrunk since fstat: read until its end). */
function readAll(fd: number, sizeHint: number): Buffer {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.max(CHUNK, sizeHint - pos + 1));
    const n = fs.readSync(fd, buf, 0, buf.length, pos);
    if (n === 0) break;
    parts.push(buf.subarray(0, n));
    pos += n;
    if (n < buf.length) break; // a short read of a regular file is its end
  }
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/**
 * A hard link is a second name for the same file, and nothing in a path says where the other names
 * are: a link inside the workspace can be the only way in to a file outside it (~/.ssh/id_rsa on the
 * same filesystem). Paths cannot prove such a file is the workspace's, so the read tools refuse any
 * regular file with more than one link. Git checkouts, npm and pip never make them; pnpm's store
 * does, but only under node_modules, which the tools skip. See docs/security.md.
 */
function hardLinkRefusal(rel: string, nlink: number): string {
  return `refused: ${JSON.stringify(rel)} has ${nlink} hard links; a hard link can lead outside the workspace, so AMTP does not read it`;
}

/** Same rule as git and ripgrep: a NUL byte in the first few KB means binary. */
export function isBinary(head: Uint8Array): boolean {
  return head.indexOf(0) !== -1;
}

function decode(bytes: Buffer, encoding: 'utf8' | 'latin1', rel: string): string {
  if (encoding === 'latin1') return bytes.toString('latin1');
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    throw new ToolError(`refused: ${JSON.stringify(rel)} is not valid UTF-8; pass encoding: "latin1" to read it anyway`);
  }
}

function countLines(s: string): number {
  if (s.length === 0) return 0;
  let n = 1;
  for (let i = s.indexOf('\n'); i !== -1 && i < s.length - 1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Streams the file in chunks and keeps only lines [start, end], stopping early; never loads a huge file. */
function readLines(fd: number, start: number, end: number, maxBytes: number) {
  const parts: Buffer[] = [];
  let kept: number;
  let line = 1;
  let pos = 0;
  let truncated = false;
  let lastLine = start - 1;
  const buf = Buffer.alloc(CHUNK);
  outer: for (;;) {
    const bytesRead = fs.readSync(fd, buf, 0, CHUNK, pos);
    if (bytesRead === 0) break;
    let from = 0;
    for (let i = 0; i < bytesRead; i++) {
      if (buf[i] !== 0x0a) continue;
      if (line >= start && line <= end) parts.push(Buffer.from(buf.subarray(from, i + 1)));
      if (line >= start && line <= end) lastLine = line;
      from = i + 1;
      line++;
      if (line > end) break outer;
    }
    if (line >= start && from < bytesRead) {
      parts.push(Buffer.from(buf.subarray(from, bytesRead)));
      lastLine = line;
    }
    kept = parts.reduce((n, p) => n + p.length, 0);
    pos += bytesRead;
    if (kept > maxBytes || pos >= MAX_SCAN_BYTES) {
      truncated = true;
      break;
    }
  }
  let bytes: Buffer = Buffer.concat(parts);
  if (bytes.length > maxBytes) {
    bytes = cutAtCharBoundary(bytes, maxBytes);
    truncated = true;
  }
  return { bytes, truncated, lastLine };
}

/** Cuts at or before `max` without splitting a UTF-8 sequence (continuation bytes are 10xxxxxx). */
function cutAtCharBoundary(b: Buffer, max: number): Buffer {
  let n = max;
  while (n > 0 && (b[n] & 0xc0) === 0x80) n--;
  return b.subarray(0, n);
}
