import { canonicalJson } from '../core/canonical';

/** Hit/miss counters of a response cache, for logs and the benchmark. */
export interface CacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
  evictions: number;
  /** of the misses, how many the shared level answered */
  sharedHits?: number;
}

/** A second level shared between processes (store/redis.ts); values are JSON text. It may fail: that is a miss. */
export interface SharedToolCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, json: string): Promise<void>;
}

export interface ResponseCacheOptions {
  /** results other processes computed for the same workspace (`--cache redis://…`) */
  shared?: SharedToolCache;
  /** most entries kept (LRU beyond that) */
  maxEntries?: number;
  /** approximate byte budget over all values (LRU beyond that) */
  maxBytes?: number;
}

/**
 * LRU cache of MCP tool results. Keys are built by the caller from tool + args + the
 * mtime/size of what the result was read from, so a changed file simply misses.
 * It holds tool results only: handoff payloads live in the artifact store, and losing
 * this cache must never change a run (agents share nothing but artifacts: docs/architecture.md), so envelope-shaped values are refused.
 */
export class ResponseCache<V = unknown> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;
  private sharedHits = 0;
  private readonly shared?: SharedToolCache;

  constructor(opts: ResponseCacheOptions = {}) {
    this.shared = opts.shared;
    this.maxEntries = opts.maxEntries ?? 5_000;
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  }

  static key(tool: string, args: unknown, version: string): string {
    // RFC 8785: {a,b} and {b,a} make the same key.
    return `${tool}\0${canonicalJson(args ?? null)}\0${version}`;
  }

  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (!hit) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  /** This process's entry, else the shared one (kept here too); a shared level that fails is a miss. */
  async fetch(key: string): Promise<V | undefined> {
    const hit = this.get(key);
    if (hit !== undefined || !this.shared) return hit;
    const text = await this.shared.get(key).catch(() => undefined);
    if (text === undefined) return undefined;
    const value = JSON.parse(text) as V;
    this.sharedHits++;
    this.put(key, value, text.length);
    return value;
  }

  /**
   * `bytes` is the caller's size estimate of the value (e.g. content length). `share` offers it to the
   * shared level too: only results that carry no file text a credential could hide in (the tree, redacted
   * search matches) are shared; file contents stay in this process.
   */
  set(key: string, value: V, bytes: number, share = false): void {
    if (looksLikeHandoff(value)) throw new Error('the MCP response cache never holds handoff payloads');
    this.put(key, value, bytes);
    // Written behind: a result is never held up by the shared level, and a failed write is only a later miss.
    if (share && this.shared) void this.shared.set(key, JSON.stringify(value)).catch(() => undefined);
  }

  private put(key: string, value: V, bytes: number): void {
    if (bytes > this.maxBytes) return; // would evict everything else for one value
    const old = this.map.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.map.delete(key);
    }
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.map.entries().next().value as [string, { bytes: number }];
      this.map.delete(oldestKey);
      this.bytes -= oldest.bytes;
      this.evictions++;
    }
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }

  resetStats(): void {
    this.sharedHits = 0;
    this.hits = 0;
    this.misses = 0;
    this.evictions = 0;
  }

  stats(): CacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      entries: this.map.size,
      bytes: this.bytes,
      evictions: this.evictions,
      ...(this.shared ? { sharedHits: this.sharedHits } : {}),
    };
  }
}

function looksLikeHandoff(v: unknown): boolean {
  return typeof v === 'object' && v !== null && 'artifact_id' in v && 'payload' in v;
}
