import { sleep } from './retry';

/**
 * One back-off for every batch of a stage: when the endpoint says 429, no batch sends anything until
 * the wait is over, instead of each batch finding out for itself.
 */
export class RateGate {
  private until = 0;

  hold(ms: number): void {
    this.until = Math.max(this.until, Date.now() + ms);
  }

  async pass(signal?: AbortSignal): Promise<void> {
    for (let wait = this.until - Date.now(); wait > 0; wait = this.until - Date.now()) await sleep(wait, signal);
  }
}
