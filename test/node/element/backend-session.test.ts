// How a flow retries its backend (src/element/backend.ts, backend-session.ts): exponential backoff within a
// policy, Retry-After honoured, seconds only for a backend never reached, no retry spent while offline.
import { after, before, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { BackendError, retryDelay, type RetryPolicy } from '../../../src/element/backend.js';
import { BackendSession, policyFor } from '../../../src/element/backend-session.js';
import { UNREACHED_BUDGET } from '../../../src/element/timing.js';
import { Lifetime } from '../../../src/element/lifetime.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';

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
    assert.equal(retryDelay(busy(4000), 1, 0, policy), 4000, 'the longest wait itself is waited');
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

// A session against a real HTTP server; the browser's online state and its `online` event stand in for the page.
describe('BackendSession', () => {
  let server: TestServer;
  let answers: Reply[];
  const browser = { onLine: true };
  const page = new EventTarget();
  const quick: RetryPolicy = { baseMs: 1, maxFailures: 3, maxDelayMs: 5, budgetMs: 1000 };
  before(async () => {
    server = await startTestServer(() => answers.shift() ?? { status: 500, body: { title: 'unexpected request' } });
    Object.defineProperty(globalThis, 'navigator', { value: browser, configurable: true });
    Object.defineProperty(globalThis, 'window', { value: page, configurable: true });
  });
  after(async () => {
    Reflect.deleteProperty(globalThis, 'navigator');
    Reflect.deleteProperty(globalThis, 'window');
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    browser.onLine = true;
  });
  const session = (lifetime = new Lifetime()) => new BackendSession(lifetime, `${server.url}/api/connect/`, {});

  it("should keep the backend's clock at its first answer, and be unreached until one came", async () => {
    const s = session();
    answers = [{ destroy: true }];
    await assert.rejects(s.request('GET', '/connections'), (e: BackendError) => e.code === 'network_error');
    assert.equal(s.unreached, true);
    answers = [
      { body: [], headers: { date: 'Tue, 01 Dec 2026 10:00:00 GMT' } },
      { body: [], headers: { date: 'Tue, 01 Dec 2026 10:05:00 GMT' } },
    ];
    await s.request('GET', '/connections');
    await s.request('GET', '/connections');
    assert.equal(s.unreached, false);
    assert.equal(s.firstAnswerAt, Date.parse('2026-12-01T10:00:00Z'));
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/api/connect/connections', '/api/connect/connections', '/api/connect/connections'],
      'the endpoint and the path joined with one slash',
    );
  });

  it('should keep the clock of an answer that succeeded only', async () => {
    const s = session();
    answers = [{ status: 400, body: { status: 400 }, headers: { date: 'Tue, 01 Dec 2026 10:00:00 GMT' } }];
    await assert.rejects(s.request('GET', '/connections'));
    assert.equal(s.firstAnswerAt, undefined, 'a failure is thrown before its clock is kept');
  });

  it('should retry a failure that may pass by the policy, and answer the first success', async () => {
    answers = [{ status: 503, body: {} }, { destroy: true }, { body: { id: 'conn_1' } }];
    assert.deepEqual(await session().retrying('GET', '/connections/conn_1', quick), { id: 'conn_1' });
    assert.equal(server.requests.length, 3);
  });

  it('should throw the last failure once the policy gives up, and a refusal at once', async () => {
    answers = [1, 2, 3, 4, 5].map(() => ({ status: 503, body: { status: 503, detail: 'busy' } }));
    await assert.rejects(session().retrying('GET', '/connections', quick), (e: BackendError) => e.message === 'busy');
    assert.equal(server.requests.length, 1 + quick.maxFailures);
    server.requests.length = 0;
    answers = [{ status: 400, body: { status: 400, detail: 'no' } }, { body: [] }];
    await assert.rejects(session().retrying('GET', '/connections', quick), (e: BackendError) => e.message === 'no');
    assert.equal(server.requests.length, 1);
  });

  it('should spend no retry while the browser is offline, and ask again each time it is back online', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /** Says `online` until the session asks again (it listens only once its request failed). */
    const backOnline = async (requests: number) => {
      while (server.requests.length < requests) {
        page.dispatchEvent(new Event('online'));
        await sleep(5);
      }
    };
    browser.onLine = false;
    answers = [{ destroy: true }, { destroy: true }, { body: ['back'] }];
    // No failure may be retried by the policy: only the offline wait asks again.
    const answered = session().retrying('GET', '/connections', { ...quick, maxFailures: 0 });
    while (server.requests.length < 1) await sleep(5);
    await sleep(50);
    assert.equal(server.requests.length, 1, 'no request while offline after the first');
    await backOnline(2);
    await backOnline(3);
    assert.deepEqual(await answered, ['back']);
    assert.equal(server.requests.length, 3);
  });

  it('should not wait for the browser to be online for an answer that failed', async () => {
    browser.onLine = false;
    answers = [{ status: 400, body: { status: 400, detail: 'no' } }];
    const outcome = await Promise.race([
      session()
        .retrying('GET', '/connections', quick)
        .catch((e: BackendError) => e.message),
      new Promise((resolve) => setTimeout(resolve, 2000, 'still waiting')),
    ]);
    assert.equal(outcome, 'no');
  });

  it('should give a backend never reached about 3 s of retries, not the whole budget', async () => {
    answers = Array.from({ length: 100 }, () => ({ destroy: true }));
    const patient: RetryPolicy = { baseMs: 1000, maxFailures: 100, maxDelayMs: 1000, budgetMs: 60_000 };
    const started = performance.now();
    const lifetime = new Lifetime();
    const outcome = await Promise.race([
      session(lifetime)
        .retrying('GET', '/connections', patient)
        .catch((e: BackendError) => e.code),
      new Promise((resolve) => setTimeout(resolve, 8000, 'still retrying')),
    ]);
    lifetime.end();
    assert.equal(outcome, 'network_error');
    // Waits of 0.5 to 1 s each, the next one refused once they would pass 3 s.
    assert.ok(server.requests.length >= 4 && server.requests.length <= 7, `${server.requests.length} requests`);
    assert.ok(performance.now() - started >= 2000, 'it did retry for seconds');
  });

  it('should abort a request with no answer after 15 s', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      answers = [{ body: [], delayMs: 60_000 }];
      let outcome: unknown;
      const request = session()
        .request('GET', '/connections')
        .then(
          () => 'answered',
          (e: BackendError) => e.code,
        )
        .then((value) => (outcome = value));
      while (server.requests.length < 1) await new Promise((resolve) => setImmediate(resolve));
      mock.timers.tick(14_999);
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(outcome, undefined, 'still waiting at 14,999 ms');
      mock.timers.tick(1);
      await request;
      assert.equal(outcome, 'network_error');
    } finally {
      mock.timers.reset();
    }
  });

  it('should stop its request when its lifetime ends', async () => {
    const lifetime = new Lifetime();
    answers = [{ body: [], delayMs: 5000 }];
    const started = performance.now();
    const request = session(lifetime).request('GET', '/connections');
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    lifetime.end();
    await assert.rejects(request, (e: BackendError) => e.code === 'network_error');
    assert.ok(performance.now() - started < 2000, 'did not wait for the answer');
  });
});
