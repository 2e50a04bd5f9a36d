import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ReceivedRequest, ScriptedReply } from '../../helpers/fakeOpenAi';

export type ChaosReply = ScriptedReply & { delayMs?: number };
export type ChaosResponder = (req: ReceivedRequest, n: number) => ChaosReply;

/**
 * An OpenAI chat-completions server on 127.0.0.1, like test/helpers/fakeOpenAi.ts, plus what the
 * fault and load tests need: a per-reply delay and a responder that sees the request number (so a
 * seeded schedule can inject 429s and 500s). Counts what it answered, by kind.
 */
export class ChaosOpenAi {
  readonly requests: ReceivedRequest[] = [];
  readonly answered: Record<string, number> = {};
  private server?: http.Server;
  private readonly sockets = new Set<Socket>();
  baseURL = '';

  constructor(public responder: ChaosResponder) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
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
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedRequest['body'];
      const system = body.messages?.[0]?.content ?? '';
      const agent = /^You are the Repo Crawler/.test(system) ? 'crawler' : /^You are the Test Case Generator/.test(system) ? 'generator' : /^You are the Test Engineer/.test(system) ? 'engineer' : 'unknown';
      let envelope: ReceivedRequest['envelope'];
      try {
        envelope = JSON.parse(body.messages?.[1]?.content ?? '');
      } catch {
        envelope = undefined;
      }
      const received: ReceivedRequest = { agent, path: req.url ?? '', headers: req.headers, body, envelope };
      this.requests.push(received);
      const reply = this.responder(received, this.requests.length);
      const send = () => this.answer(res, reply, body.model);
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  }

  private answer(res: http.ServerResponse, reply: ChaosReply, model: string): void {
    const kind = 'hang' in reply ? 'hang' : 'destroy' in reply ? 'reset' : 'status' in reply ? `http ${reply.status}` : 'reply';
    this.answered[kind] = (this.answered[kind] ?? 0) + 1;
    if ('hang' in reply) return;
    if ('destroy' in reply) {
      res.socket?.destroy();
      return;
    }
    if (res.destroyed) return;
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body ?? { error: { message: `scripted ${reply.status}`, type: 'scripted' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-chaos', object: 'chat.completion', created: 1_700_000_000, model: reply.model ?? model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: reply.finishReason ?? 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  }
}
