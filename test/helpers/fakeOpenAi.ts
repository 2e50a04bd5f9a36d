import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Tokens the fake reports for a reply. */
export interface FakeUsage {
  prompt: number;
  completion: number;
  cached?: number;
}

/** What the fake server answers to one request, optionally after `delayMs` (before the headers). */
export type ScriptedReply = (
  | {
      content: string;
      finishReason?: 'stop' | 'length';
      model?: string;
      /** overrides the server's usage for this reply; null reports none */
      usage?: FakeUsage | null;
      /** streamed: the content is sent in this many chunks (default 3) */
      chunks?: number;
      /** streamed: wait between chunks */
      chunkDelayMs?: number;
      /** streamed: send this many chunks, then nothing more (the connection stays open) */
      stallAfterChunks?: number;
      /** streamed: after the content, send `chunk` every `everyMs` and never finish, until the client hangs up */
      endless?: { chunk: string; everyMs: number };
      /** a structured-output refusal instead of content */
      refusal?: string;
    }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { destroy: true } // connection reset mid-request
  | { hang: true } // never answers (for timeouts)
) & { delayMs?: number };

export interface ReceivedRequest {
  agent: 'crawler' | 'generator' | 'engineer' | 'unknown';
  /** the request target as sent: path and query */
  path: string;
  pathname: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    temperature?: number;
    top_p?: number;
    seed?: number;
    stream?: boolean;
    [k: string]: unknown;
  };
  /** the user message parsed as JSON (the handoff envelope), when it parses */
  envelope?: { payload: Record<string, unknown>; params: Record<string, unknown>; [k: string]: unknown };
}

/** `n` is the 1-based number of the request, so a seeded schedule can inject faults. */
export type Responder = (req: ReceivedRequest, n: number) => ScriptedReply;

/** What the fake refuses with a 400, the way real endpoints word it; refused requests do not consume the script. */
export interface Refusals {
  /** `any`: every response_format; `strict`: only strict json_schema */
  responseFormat?: 'any' | 'strict';
  streamOptions?: boolean;
  /** the output-bound name the endpoint does not accept */
  bound?: 'max_tokens' | 'max_completion_tokens';
}

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol, streamed (SSE,
 * with a usage chunk when stream_options.include_usage asks for it) or not. Each agent has a queue
 * of scripted replies; when its queue is empty the fallback responder answers. Every request is kept
 * for assertions. It answers on any path ending in /chat/completions, so the Azure forms
 * (/openai/deployments/D/chat/completions?api-version=V and /openai/v1/chat/completions) reach it too.
 */
export class FakeOpenAi {
  readonly requests: ReceivedRequest[] = [];
  /** what the server answered, by kind: reply, http 429, reset, hang, refused… */
  readonly answered: Record<string, number> = {};
  /** content bytes written for each streamed reply, in the order the replies started (updated while they stream) */
  readonly streamedBytes: number[] = [];
  /** usage reported for every reply unless the reply says otherwise */
  usage: FakeUsage = { prompt: 1, completion: 1 };
  refuse: Refusals = {};
  private readonly queues = new Map<string, ScriptedReply[]>();
  private server?: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  /** http://127.0.0.1:PORT/v1 */
  baseURL = '';
  /** http://127.0.0.1:PORT (an Azure "resource" endpoint) */
  origin = '';

  constructor(private fallback: Responder) {}

  script(agent: ReceivedRequest['agent'], ...replies: ScriptedReply[]): this {
    this.queues.set(agent, [...(this.queues.get(agent) ?? []), ...replies]);
    return this;
  }

  setFallback(r: Responder): void {
    this.fallback = r;
  }

  callsFor(agent: ReceivedRequest['agent']): ReceivedRequest[] {
    return this.requests.filter((r) => r.agent === agent);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
    this.baseURL = `${this.origin}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedRequest['body'];
      const system = body.messages?.[0]?.content ?? '';
      const agent = /^You are the Repo Crawler/.test(system)
        ? 'crawler'
        : /^You are the Test Case Generator/.test(system)
          ? 'generator'
          : /^You are the Test Engineer/.test(system)
            ? 'engineer'
            : 'unknown';
      let envelope: ReceivedRequest['envelope'];
      try {
        envelope = JSON.parse(body.messages?.[1]?.content ?? '');
      } catch {
        envelope = undefined;
      }
      const received: ReceivedRequest = {
        agent,
        path: req.url ?? '',
        pathname: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
        envelope,
      };
      this.requests.push(received);
      const refusal = this.refusalFor(body);
      if (refusal) {
        this.answered.refused = (this.answered.refused ?? 0) + 1;
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: refusal, type: 'invalid_request_error', param: null, code: null } }));
        return;
      }
      const reply = this.queues.get(agent)?.shift() ?? this.fallback(received, this.requests.length);
      if (reply.delayMs) setTimeout(() => this.answer(res, reply, body), reply.delayMs);
      else this.answer(res, reply, body);
    });
  }

  /** The messages real endpoints send (OpenAI's wording). */
  private refusalFor(body: ReceivedRequest['body']): string | undefined {
    const rf = body.response_format as { type?: string; json_schema?: { strict?: boolean } } | undefined;
    if (rf && (this.refuse.responseFormat === 'any' || (this.refuse.responseFormat === 'strict' && rf.json_schema?.strict))) {
      return `Invalid parameter: 'response_format' of type '${rf.type}' is not supported with this model.`;
    }
    if (this.refuse.streamOptions && body.stream_options) return 'Unrecognized request argument supplied: stream_options';
    const b = this.refuse.bound;
    if (b && body[b] !== undefined)
      return `Unsupported parameter: '${b}' is not supported with this model. Use '${b === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens'}' instead.`;
    return undefined;
  }

  private answer(res: http.ServerResponse, reply: ScriptedReply, body: ReceivedRequest['body']): void {
    const kind = 'hang' in reply ? 'hang' : 'destroy' in reply ? 'reset' : 'status' in reply ? `http ${reply.status}` : 'reply';
    this.answered[kind] = (this.answered[kind] ?? 0) + 1;
    if ('hang' in reply) return;
    if ('destroy' in reply) {
      res.socket?.destroy();
      return;
    }
    if (res.destroyed) return; // the client gave up (timeout) while the reply was delayed
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? { error: { message: `scripted ${reply.status}`, type: 'scripted' } }));
      return;
    }
    const usage = reply.usage === null ? undefined : usageJson(reply.usage ?? this.usage);
    const model = reply.model ?? body.model;
    if (body.stream) {
      const withUsage = !!(body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
      const slot = this.streamedBytes.push(0) - 1;
      void streamReply(res, reply, model, withUsage ? usage : undefined, (n) => (this.streamedBytes[slot] += n));
      return;
    }
    const completion = {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.refusal ? null : reply.content, refusal: reply.refusal ?? null },
          finish_reason: reply.finishReason ?? 'stop',
        },
      ],
      ...(usage ? { usage } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion));
  }
}

function usageJson(u: FakeUsage) {
  return {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
  };
}

/** Server-sent events as OpenAI streams them: role, content pieces, the finish reason, the usage chunk, [DONE]. */
async function streamReply(
  res: http.ServerResponse,
  reply: Extract<ScriptedReply, { content: string }>,
  model: string,
  usage: ReturnType<typeof usageJson> | undefined,
  sent: (bytes: number) => void,
): Promise<void> {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model };
  const send = (obj: unknown) => res.write(`data: ${JSON.stringify(obj)}\n\n`);
  const wait = (ms?: number) => (ms ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const n = Math.max(1, reply.chunks ?? 3);
  const size = Math.ceil(reply.content.length / n) || 1;
  const pieces = reply.refusal
    ? []
    : Array.from({ length: n }, (_, i) => reply.content.slice(i * size, (i + 1) * size)).filter((p, i) => p || i === 0);
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  for (let i = 0; i < pieces.length; i++) {
    if (reply.stallAfterChunks !== undefined && i >= reply.stallAfterChunks) return; // stalls: never ends
    await wait(reply.chunkDelayMs);
    if (res.destroyed) return;
    send({ ...base, choices: [{ index: 0, delta: { content: pieces[i] }, finish_reason: null }] });
    sent(Buffer.byteLength(pieces[i]));
  }
  let closed = false;
  res.once('close', () => (closed = true));
  while (reply.endless && !closed) {
    await wait(reply.endless.everyMs);
    if (closed || res.destroyed) return;
    send({ ...base, choices: [{ index: 0, delta: { content: reply.endless.chunk }, finish_reason: null }] });
    sent(Buffer.byteLength(reply.endless.chunk));
  }
  if (reply.refusal) send({ ...base, choices: [{ index: 0, delta: { refusal: reply.refusal }, finish_reason: null }] });
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: reply.finishReason ?? 'stop' }] });
  if (usage) send({ ...base, choices: [], usage });
  res.end('data: [DONE]\n\n');
}
