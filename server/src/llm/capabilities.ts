// What an endpoint refused, per endpoint and model: structured output (strict, then at all), the
// stream_options usage request, or one of the two names of the output bound. Remembered for the
// process and, when a cache file is given, across processes. It lives in the person's cache
// directory, never in a repository, and holds no secret: keys are hashes of endpoint + model.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';

export interface EndpointCapabilities {
  /** strict: json_schema with strict where the schema allows; loose: never strict; off: no response_format */
  format: 'strict' | 'loose' | 'off';
  /** which name carries the output bound */
  bound: 'max_completion_tokens' | 'max_tokens';
  /** stream_options.include_usage */
  streamUsage: boolean;
}

const FILE_VERSION = 1;

/** The person's cache directory for AMTP (AMTP_CACHE_DIR overrides; tests point it at a temp dir). */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AMTP_CACHE_DIR) return env.AMTP_CACHE_DIR;
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local'), 'amtp', 'Cache');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'amtp');
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'amtp');
}

export class CapabilityMemory {
  private readonly known = new Map<string, Partial<EndpointCapabilities>>();
  private loaded = false;

  /** `file` undefined: memory only (tests, replays). */
  constructor(private readonly file?: string) {}

  static key(where: string, model: string): string {
    return createHash('sha256').update(`${where}\n${model}`).digest('hex').slice(0, 24);
  }

  get(key: string, defaults: EndpointCapabilities): EndpointCapabilities {
    this.load();
    return { ...defaults, ...this.known.get(key) };
  }

  /** Remembers a downgrade; the cache file is best effort (a read-only home must not fail a run). */
  remember(key: string, caps: Partial<EndpointCapabilities>): void {
    this.load();
    this.known.set(key, { ...this.known.get(key), ...caps });
    if (!this.file) return;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ version: FILE_VERSION, endpoints: Object.fromEntries(this.known) }, null, 1));
      renameSync(tmp, this.file);
    } catch {
      /* cache only */
    }
  }

  private load(): void {
    if (this.loaded || !this.file) return;
    this.loaded = true;
    try {
      const doc = JSON.parse(readFileSync(this.file, 'utf8')) as {
        version?: number;
        endpoints?: Record<string, Partial<EndpointCapabilities>>;
      };
      if (doc.version !== FILE_VERSION || !doc.endpoints) return;
      for (const [k, v] of Object.entries(doc.endpoints)) if (!this.known.has(k)) this.known.set(k, sanitizeCaps(v));
    } catch {
      /* absent or unreadable: start empty */
    }
  }
}

/** Only known values survive a hand-edited or corrupt cache file. */
function sanitizeCaps(v: Partial<EndpointCapabilities>): Partial<EndpointCapabilities> {
  const out: Partial<EndpointCapabilities> = {};
  if (v && (v.format === 'strict' || v.format === 'loose' || v.format === 'off')) out.format = v.format;
  if (v && (v.bound === 'max_completion_tokens' || v.bound === 'max_tokens')) out.bound = v.bound;
  if (v && typeof v.streamUsage === 'boolean') out.streamUsage = v.streamUsage;
  return out;
}

let processMemory: CapabilityMemory | undefined;

/** One memory per process, backed by <cache dir>/endpoints.json. */
export function sharedCapabilities(): CapabilityMemory {
  processMemory ??= new CapabilityMemory(path.join(userCacheDir(), 'endpoints.json'));
  return processMemory;
}
