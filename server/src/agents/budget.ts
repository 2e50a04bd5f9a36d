// Token budgets: how LLM work is cut into batches whose requests and replies stay bounded whatever
// the repository's size. Tokens are estimated from UTF-8 bytes (≈4 per token for English and JSON),
// which keeps the arithmetic deterministic and provider-independent.

const BYTES_PER_TOKEN = 4;

export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

/** What one batch may spend: the envelope's payload (the system prompt is already paid for) and the reply. */
export interface Budget {
  payloadTokens: number;
  outputTokens: number;
}

/** One unit of work as the planner sees it: what it costs to send, and what its reply is expected to cost. */
export interface Item<T> {
  value: T;
  inTokens: number;
  outTokens: number;
}

/**
 * Greedy first-fit in order: consecutive items share a batch while both budgets hold. An item that
 * alone exceeds a budget gets a batch of its own (the caller splits such items beforehand when it can).
 * Order is kept, so the plan is deterministic.
 */
export function pack<T>(items: Item<T>[], budget: Budget, fixedInTokens = 0): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let inUsed = fixedInTokens;
  let outUsed = 0;
  for (const item of items) {
    const fits = inUsed + item.inTokens <= budget.payloadTokens && outUsed + item.outTokens <= budget.outputTokens;
    if (current.length && !fits) {
      batches.push(current);
      current = [];
      inUsed = fixedInTokens;
      outUsed = 0;
    }
    current.push(item.value);
    inUsed += item.inTokens;
    outUsed += item.outTokens;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** A string cut to at most `tokens`, at a line end when one is near, with a marker saying so. */
export function cutToTokens(text: string, tokens: number): { text: string; cut: boolean } {
  const max = tokens * BYTES_PER_TOKEN;
  if (Buffer.byteLength(text, 'utf8') <= max) return { text, cut: false };
  let out = Buffer.from(text, 'utf8')
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const nl = out.lastIndexOf('\n');
  if (nl > max * 0.6) out = out.slice(0, nl + 1);
  return { text: out, cut: true };
}
