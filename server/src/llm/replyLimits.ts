// How long and how big one model reply may get, whatever the endpoint does with max_tokens. A reply
// that streams on past its output bound is cut (and handled as a reply cut at the bound: the batch
// splits); a request that trickles is given up at its total deadline; a reply over the byte cap is
// refused as malformed. Tokens are estimated as UTF-8 bytes / 4, as everywhere in AMTP
// (agents/budget.ts), so the cut allows half as much again plus 4 KiB before it calls a reply long.
import { MalformedLlmOutput } from './errors';
import type { ReplyUsage } from './provider';

const BYTES_PER_TOKEN = 4;
const MARGIN = 1.5;
const SLACK_BYTES = 4096;

/** No reply is accepted past this many bytes (4 MiB), whatever its bound. */
export const REPLY_BYTE_CAP = 4 * 1024 * 1024;

/** Bytes a streamed reply with this output bound may reach before it is cut; never past the byte cap. */
export function streamLimitBytes(maxOutputTokens: number): number {
  return Math.min(Math.ceil(maxOutputTokens * BYTES_PER_TOKEN * MARGIN) + SLACK_BYTES, REPLY_BYTE_CAP + 1);
}

/**
 * The total deadline of a request when none is set: the idle timeout (a model may think that long
 * before its first token) plus one second for every 4 tokens of the output bound.
 */
export function defaultDeadlineSeconds(idleSeconds: number, maxOutputTokens: number): number {
  return idleSeconds + Math.ceil(maxOutputTokens / 4);
}

/** The reply as it was cut: over the byte cap it is malformed; otherwise it ran past its bound. */
export function overCap(who: string, bytes: number, usage?: ReplyUsage): MalformedLlmOutput | undefined {
  if (bytes <= REPLY_BYTE_CAP) return undefined;
  return new MalformedLlmOutput(
    `${who}: the reply is over the ${REPLY_BYTE_CAP}-byte cap (${bytes} bytes or more); it was not read further`,
    '',
    usage,
  );
}

/** Any provider's whole reply, at the boundary: refused before it is parsed when it is over the cap. */
export function checkReplySize(who: string, raw: string): void {
  const e = overCap(who, Buffer.byteLength(raw, 'utf8'));
  if (e) throw e;
}
