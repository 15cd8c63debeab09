// Internal: when a flow asks its backend again. One poll at a time, one
// scheduled at most; slower while the page is hidden, at once when it shows
// again; quick at first once the connection is known (a new connection often
// turns `working` within a second), then every interval.
import type { Lifetime } from './lifetime.js';
import { BUSY_RETRY, HIDDEN_SLOWDOWN, QUICK_POLLS, QUICK_STEP } from './timing.js';

/** Ms until a poll `intervals` intervals from now. */
export const pollDelay = (intervals: number, interval: number, hidden: boolean): number =>
  (hidden ? HIDDEN_SLOWDOWN : 1) * intervals * interval;

export class Poller {
  #lifetime: Lifetime;
  #interval: number;
  #poll: () => Promise<void>;
  /** Clears the poll that waits, if one does. */
  #clearWaiting?: () => void;
  #inFlight?: boolean;
  #quickLeft = 0;

  constructor(lifetime: Lifetime, interval: number, poll: () => Promise<void>) {
    this.#lifetime = lifetime;
    this.#interval = interval;
    this.#poll = poll;
  }

  pollNow(): void {
    this.#schedule(0);
  }

  /** Polls `intervals` intervals from now (slower while the page is hidden). */
  pollAfter(intervals: number): void {
    this.#schedule(pollDelay(intervals, this.#interval, document.hidden));
  }

  /** The next QUICK_POLLS calls of pollAgain() come quickly. */
  startQuick(): void {
    this.#quickLeft = QUICK_POLLS;
  }

  /** The next poll of a connection not yet settled: quick at first, then every interval. */
  pollAgain(): void {
    this.pollAfter(this.#quickLeft-- > 0 ? QUICK_STEP : 1);
  }

  /** The page shows again: a poll that waits runs now. */
  pageShown(): void {
    if (this.#clearWaiting) this.pollNow();
  }

  #schedule(ms: number): void {
    if (this.#lifetime.ended) return;
    this.#clearWaiting?.();
    this.#clearWaiting = this.#lifetime.setTimer(() => {
      this.#clearWaiting = undefined;
      if (this.#inFlight) return this.#schedule(BUSY_RETRY);
      this.#inFlight = true;
      void this.#poll().finally(() => (this.#inFlight = false));
    }, ms);
  }
}
