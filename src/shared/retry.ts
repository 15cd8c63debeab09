// Backoff and Retry-After arithmetic shared by the API client and the element.
// Pure functions: no DOM, no Node.

export interface BackoffOptions {
  /** First delay in ms (before jitter). */
  baseMs: number;
  /** Upper bound of any computed delay in ms. */
  maxMs: number;
}

/**
 * Exponential backoff with "full jitter": a random delay in
 * [baseMs * 2^attempt / 2, baseMs * 2^attempt], capped at maxMs. Half of the
 * window stays fixed so a retry is never immediate.
 */
export function backoffDelay(
  attempt: number,
  { baseMs, maxMs }: BackoffOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Milliseconds to wait from a `Retry-After` header (delta-seconds or an
 * HTTP-date) or a Problem's `retryAfter` (an RFC 3339 date-time), or
 * undefined when absent or unparsable. Never negative.
 */
export function parseRetryAfter(value: unknown, now: number = Date.now()): number | undefined {
  if (typeof value !== 'string') return undefined; // a blank one is no date either
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  // Only the shapes of an HTTP-date (`Sun, 06 Nov 1994 08:49:37 GMT`, its obsolete forms) and of an RFC 3339
  // date-time: Date.parse alone reads text like "in 5" as a date in 2001.
  if (!/^\s*(?:[A-Za-z]{3,9},?\s|\d{4}-\d{2}-\d{2}[Tt ])/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after ms, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
