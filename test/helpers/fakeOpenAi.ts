import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server answers to one request, optionally after `delayMs`. */
export type ScriptedReply = (
  | { content: string; finishReason?: 'stop' | 'length'; model?: string }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { destroy: true } // connection reset mid-request
  | { hang: true } // never answers (for timeouts)
) & { delayMs?: number };

export interface ReceivedRequest {
  agent: 'crawler' | 'generator' | 'engineer' | 'unknown';
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    temperature?: number;
    top_p?: number;
    seed?: number;
    [k: string]: unknown;
  };
  /** the user message parsed as JSON (the handoff envelope), when it parses */
  envelope?: { payload: Record<string, unknown>; params: Record<string, unknown>; [k: string]: unknown };
}

/** `n` is the 1-based number of the request, so a seeded schedule can inject faults. */
export type Responder = (req: ReceivedRequest, n: number) => ScriptedReply;

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions
 * protocol. Each agent has a queue of scripted replies; when its queue is empty
 * the fallback responder answers. Every request is kept for assertions.
 */
export class FakeOpenAi {
  readonly requests: ReceivedRequest[] = [];
  /** what the server answered, by kind: reply, http 429, reset, hang… */
  readonly answered: Record<string, number> = {};
  private readonly queues = new Map<string, ScriptedReply[]>();
  private server?: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  baseURL = '';

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
    this.baseURL = `http://127.0.0.1:${port}/v1`;
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
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedRequest['body'];
      const system = body.messages?.[0]?.content ?? '';
      const agent = /^You are the Repo Crawler/.test(system) ? 'crawler' : /^You are the Test Case Generator/.test(system) ? 'generator' : /^You are the Test Engineer/.test(system) ? 'engineer' : 'unknown';
      let envelope: ReceivedRequest['envelope'];
      try {
        envelope = JSON.parse(body.messages?.[1]?.content ?? '');
      } catch {
        envelope = undefined;
      }
      const received: ReceivedRequest = { agent, path: req.url, headers: req.headers, body, envelope };
      this.requests.push(received);
      const reply = this.queues.get(agent)?.shift() ?? this.fallback(received, this.requests.length);
      if (reply.delayMs) setTimeout(() => this.answer(res, reply, body.model), reply.delayMs);
      else this.answer(res, reply, body.model);
    });
  }

  private answer(res: http.ServerResponse, reply: ScriptedReply, model: string): void {
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
    const completion = {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: reply.model ?? model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: reply.finishReason ?? 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion));
  }
}
