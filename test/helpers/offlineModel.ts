// A loopback model that answers as AMTP's offline engines would, after a delay: valid replies for
// every agent from an OpenAI-protocol endpoint, so runs through workers and the network can be
// compared with offline runs and timed (the latency-bound work of the scale tests and bench).
import { OFFLINE_ENGINES } from '../../server/src/agents/offlineEngines';
import { parseEnvelopeFor } from '../../server/src/contracts/envelope';
import type { AgentId } from '../../server/src/core/agents';
import { FakeOpenAi, type ReceivedRequest, type ScriptedReply } from './fakeOpenAi';

/** The reply the offline engine gives this request's envelope. */
export function offlineReply(req: ReceivedRequest, delayMs = 0): ScriptedReply {
  if (req.agent === 'unknown') return { status: 400, body: { error: { message: 'not an AMTP agent request' } } };
  const agent: AgentId = req.agent;
  const out = OFFLINE_ENGINES[agent](parseEnvelopeFor(agent, req.body.messages[1].content) as never);
  if (out instanceof Promise) throw new Error('offline engines answer synchronously');
  return { content: JSON.stringify(out), model: 'loopback', delayMs };
}

/** A started fake endpoint answering every request like the offline engines, each after `delayMs`. */
export function offlineModel(delayMs: number): Promise<FakeOpenAi> {
  return new FakeOpenAi((req) => offlineReply(req, delayMs)).start();
}
