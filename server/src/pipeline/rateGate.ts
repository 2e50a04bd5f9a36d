import type { SharedRateLimit } from '../store/redis';
import { sleep } from './retry';

/**
 * One back-off for every batch of a stage: when the endpoint says 429, no batch sends anything until
 * the wait is over, instead of each batch finding out for itself. With a shared limit (`--cache` or
 * `--queue`, store/redis.ts) the hold reaches every process that sends to the same endpoint and model;
 * a shared limit that cannot be reached leaves this process's own hold in force.
 */
export class RateGate {
  private until = 0;

  constructor(private readonly shared?: SharedRateLimit) {}

  hold(ms: number): void {
    this.until = Math.max(this.until, Date.now() + ms);
    if (this.shared) void this.shared.hold(ms).catch(() => undefined);
  }

  async pass(signal?: AbortSignal): Promise<void> {
    for (;;) {
      for (let wait = this.until - Date.now(); wait > 0; wait = this.until - Date.now()) await sleep(wait, signal);
      const elsewhere = this.shared ? await this.shared.remainingMs().catch(() => 0) : 0;
      if (elsewhere <= 0) return;
      await sleep(elsewhere, signal);
    }
  }
}
