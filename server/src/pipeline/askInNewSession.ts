// One attempt of an agent's work: a brand-new session (dropped when the reply is back) sent the
// request with the run's sampling parameters. No memory crosses an attempt or a boundary.
import type { ChatReply, ChatRequest, LlmProvider } from '../llm/provider';

export function askInNewSession(
  provider: LlmProvider,
  request: Omit<ChatRequest, 'temperature' | 'top_p' | 'seed'>,
  sampling: { temperature: number; seed: number },
): Promise<ChatReply> {
  return provider.openSession(request.agent).complete({ ...request, temperature: sampling.temperature, top_p: 1, seed: sampling.seed });
}
