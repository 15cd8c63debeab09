// How a flow retries its backend (src/element/backend.ts, backend-session.ts): exponential backoff within a
// policy, Retry-After honoured, and seconds only for a backend never reached.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BackendError, retryDelay, type RetryPolicy } from '../../../src/element/backend.js';
import { policyFor, UNREACHED_BUDGET } from '../../../src/element/backend-session.js';

const policy: RetryPolicy = { baseMs: 1000, maxFailures: 5, maxDelayMs: 4000, budgetMs: 8000 };
const unreachable = new BackendError('network_error', 'the server could not be reached', true);
const busy = (retryAfterMs?: number) => new BackendError('http_error', 'busy', true, { status: 503 }, retryAfterMs);
const refused = new BackendError('http_error', 'bad request', false, { status: 400 });

describe('retryDelay', () => {
  it('should not retry a failure that is not retryable, nor anything but a BackendError', () => {
    assert.equal(retryDelay(refused, 1, 0, policy), undefined);
    assert.equal(retryDelay(new Error('x'), 1, 0, policy), undefined);
  });

  it('should back off within the longest wait', () => {
    const waits = [1, 2, 3, 4, 5].map((n) => retryDelay(busy(), n, 0, { ...policy, budgetMs: Infinity })!);
    for (const wait of waits) assert.ok(wait > 0 && wait <= policy.maxDelayMs, String(wait));
    assert.ok(waits[3] >= waits[0], `grows: ${waits.join(', ')}`);
  });

  it('should give up after maxFailures failures in a row', () => {
    assert.notEqual(retryDelay(busy(), 5, 0, policy), undefined);
    assert.equal(retryDelay(busy(), 6, 0, policy), undefined);
  });

  it('should wait what Retry-After asks, and give up when it asks more than the longest wait', () => {
    assert.equal(retryDelay(busy(1500), 1, 0, policy), 1500);
    assert.equal(retryDelay(busy(4001), 1, 0, policy), undefined);
  });

  it('should give up once the waits would pass the budget', () => {
    assert.equal(retryDelay(busy(3000), 1, 5000, policy), 3000);
    assert.equal(retryDelay(busy(3000), 1, 5001, policy), undefined);
  });
});

describe('policyFor', () => {
  it('should give a backend never reached seconds, not the whole budget', () => {
    assert.equal(policyFor(policy, unreachable, false).budgetMs, UNREACHED_BUDGET);
    assert.equal(policyFor({ ...policy, budgetMs: 1000 }, unreachable, false).budgetMs, 1000);
  });

  it('should keep the budget once the backend answered, and for an answer that failed', () => {
    assert.equal(policyFor(policy, unreachable, true).budgetMs, policy.budgetMs);
    assert.equal(policyFor(policy, busy(), false).budgetMs, policy.budgetMs);
  });
});
