// Internal: every interval, retry budget, grace period and delay of the
// element, in one place. Times are in ms unless said otherwise; a count of
// "intervals" is a multiple of the element's poll-interval.
import type { RetryPolicy } from './backend.js';

/** The timing attributes (docs/element.md), `[min, max, default]`: clamped to [min, max], the default if not a number. */
export const TIMING_BOUNDS = {
  pollInterval: [100, 60000, 1000],
  timeout: [1000, 3600000, 300000],
  closedGrace: [0, 1800000, 120000],
} as const;

/** A page hidden at least this long reads its connection again when it shows. */
export const STALE_AFTER_HIDDEN = 60000;
/** How long the button stays neutral while the connection is read at rest. */
export const NEUTRAL_FOR = 3000;

/** A flow's retries before the URL is known (the user looks at a blank popup): seconds, from a first wait of `baseMs`. */
export const urlRetries = (baseMs: number): RetryPolicy => ({
  baseMs,
  maxFailures: 5,
  maxDelayMs: 4000,
  budgetMs: 8000,
});
/** A flow's retries of a poll, from a first wait of `baseMs`: 5 failures in a row, a minute's wait at most, no budget. */
export const pollRetries = (baseMs: number): RetryPolicy => ({
  baseMs,
  maxFailures: 5,
  maxDelayMs: 60000,
  budgetMs: Infinity,
});
/** While a severed popup is awaited, the backend is asked every SEVERED_POLL intervals. */
export const SEVERED_POLL = 2;
/** How often a popup is checked for being closed. */
export const CLOSED_CHECK = 250;

/** One request to the backend is aborted after this long. */
export const REQUEST_TIMEOUT = 15000;
/** Retries for a backend that never answered once (another origin without CORS, a wrong endpoint) wait this long. */
export const UNREACHED_BUDGET = 3000;

/** A hidden page polls this many times slower. */
export const HIDDEN_SLOWDOWN = 5;
/** Right after the connection is known, this many polls come quickly. */
export const QUICK_POLLS = 5;
/** Those quick polls come this many intervals apart. */
export const QUICK_STEP = 0.3;
/** A poll due while another is in flight waits this long. */
export const BUSY_RETRY = 50;

/** A read at rest's retries of a failure that may pass: seconds, then it is unknown. */
export const READ_RETRIES: RetryPolicy = { baseMs: 500, maxFailures: 4, maxDelayMs: 4000, budgetMs: 8000 };
/** A list read answered less than this long ago is reused (rows rendered a little later share it). */
export const REUSE_FOR = 2000;
