// Internal: a flow's requests to the host backend. Each request is held by
// the flow's lifetime (aborted when the flow ends, or after REQUEST_TIMEOUT);
// retryable failures are retried by a RetryPolicy, and while the browser is
// offline none is spent (it waits for `online`); the backend's clock at its
// first answer is kept as the fallback baseline of "changed since the flow
// began" (connection-match.ts).
import { BackendError, baseOf, callBackend, retryDelay, type RetryPolicy } from './backend.js';
import type { Lifetime } from './lifetime.js';
import { REQUEST_TIMEOUT, UNREACHED_BUDGET } from './timing.js';

/**
 * The policy for the next retry: a backend that never answered once (another origin without CORS, a wrong
 * endpoint) is given seconds, not the whole budget.
 */
export function policyFor(policy: RetryPolicy, error: unknown, everAnswered: boolean): RetryPolicy {
  const unreached = !everAnswered && error instanceof BackendError && error.code === 'network_error';
  return unreached ? { ...policy, budgetMs: Math.min(policy.budgetMs, UNREACHED_BUDGET) } : policy;
}

export class BackendSession {
  /** The backend's clock (its Date header) at its first answer; undefined until one came. */
  firstAnswerAt?: number;
  #lifetime: Lifetime;
  #endpoint: string;
  #headers: Record<string, string>;

  constructor(lifetime: Lifetime, endpoint: string, headers: Record<string, string>) {
    this.#lifetime = lifetime;
    this.#endpoint = endpoint;
    this.#headers = headers;
  }

  /** No request of this session was ever answered. */
  get unreached(): boolean {
    return this.firstAnswerAt === undefined;
  }

  /** One request; resolves with the answer's data, or throws a BackendError. */
  async request(method: string, path: string, body?: unknown): Promise<unknown> {
    const controller = new AbortController();
    const letGo = this.#lifetime.onEnd(() => controller.abort());
    const clearTimer = this.#lifetime.setTimer(() => controller.abort(), REQUEST_TIMEOUT);
    try {
      const url = baseOf(this.#endpoint) + path;
      const { data, date } = await callBackend(url, method, this.#headers, body, controller.signal);
      this.firstAnswerAt ??= date;
      return data;
    } finally {
      clearTimer();
      letGo();
    }
  }

  /** A request with retries of retryable failures, by the policy; throws the last failure. */
  async retrying(method: string, path: string, policy: RetryPolicy, body?: unknown): Promise<unknown> {
    for (let failures = 0, waited = 0; ;) {
      try {
        return await this.request(method, path, body);
      } catch (error) {
        // Offline, no retry is spent: the request goes again once the browser is back online. (request() throws
        // BackendErrors only.) The wait is held by the lifetime, as a retry's timer is: it never resolves once the
        // flow ended.
        if (!navigator.onLine && (error as BackendError).code === 'network_error') {
          await new Promise<void>((resolve) => {
            const stop = this.#lifetime.listen(window, 'online', () => {
              stop();
              resolve();
            });
          });
          continue;
        }
        const wait = retryDelay(error, ++failures, waited, policyFor(policy, error, !this.unreached));
        if (wait === undefined || this.#lifetime.ended) throw error;
        waited += wait;
        // Never resolves once the flow ended: its awaiter is dropped with it.
        await new Promise<void>((resolve) => this.#lifetime.setTimer(resolve, wait));
      }
    }
  }
}
