// timeoutMs is the budget of a whole platform call (src/api/client.ts), retries and their waits included: against a
// platform that hangs, each route answers 504 once timeoutMs has passed, having asked the platform once; oauth-connect
// and oauth-update, which make a new consent link each time, are never sent again once they may have arrived.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler, type ConnectHandler } from '../../../src/server/index.js';
import { call } from '../helpers/handler-calls.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';

const TIMEOUT_MS = 500;
/** What a platform that never answers replies: nothing, ever (the server closes its sockets at the end). */
const hang = (): Promise<Reply> => new Promise(() => {});

describe('timeoutMs is the budget of the whole platform call', () => {
  let platform: TestServer;
  let handler: ConnectHandler;

  before(async () => {
    platform = await startTestServer(hang);
    // The default retry policy (2 retries): the budget, not retry: false, is what keeps the call short.
    handler = createConnectHandler({
      apiKey: 'budget-key-Zr42Pw',
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      allowDisconnect: true,
      timeoutMs: TIMEOUT_MS,
      onError: () => {},
    });
  });
  after(() => platform.close());
  beforeEach(() => {
    platform.requests.length = 0;
    platform.reply = hang;
  });

  /** The answer's status, how long it took and how many requests the platform got. */
  async function timed(path: string, init: Parameters<typeof call>[2] = {}) {
    const started = performance.now();
    const response = await call(handler, `/api/connect${path}`, init);
    await response.arrayBuffer();
    return { status: response.status, ms: Math.round(performance.now() - started), asked: platform.requests.length };
  }

  const routes: Array<[string, string, Parameters<typeof call>[2]]> = [
    ['GET', '/connections', {}],
    ['GET', '/connections/c1', {}],
    ['GET', '/providers/slack', {}],
    ['GET', '/integrations', {}],
    ['POST', '/oauth-connect', { method: 'POST', body: { provider: 'slack' } }],
    ['PATCH', '/connections/c1:oauth-update', { method: 'PATCH' }],
    ['DELETE', '/connections/c1', { method: 'DELETE' }],
  ];
  for (const [method, path, init] of routes) {
    it(`${method} ${path} against a hanging platform: 504 at timeoutMs, one platform request`, async (t) => {
      platform.requests.length = 0;
      const { status, ms, asked } = await timed(path, init);
      t.diagnostic(`${method} ${path}: ${status} after ${ms} ms, ${asked} platform request(s)`);
      assert.equal(status, 504);
      assert.equal(asked, 1, 'the platform was asked again after the time-out');
      assert.ok(ms >= TIMEOUT_MS - 20 && ms < TIMEOUT_MS + 400, `answered after ${ms} ms`);
    });
  }

  it('sends oauth-connect once when the connection drops after it was sent (the platform may have acted)', async () => {
    platform.reply = () => ({ destroy: true });
    const { status, asked } = await timed('/oauth-connect', { method: 'POST', body: { provider: 'slack' } });
    assert.equal(status, 502);
    assert.equal(asked, 1);
  });

  it('retries within the budget what the platform did not act on, and still answers by its end', async (t) => {
    const replies: Array<() => Reply | Promise<Reply>> = [
      () => ({ status: 503, headers: { 'retry-after': '0', 'content-type': 'application/problem+json' }, body: {} }),
      hang,
    ];
    platform.reply = () => replies.shift()!();
    const { status, ms, asked } = await timed('/connections');
    t.diagnostic(`a 503, then a hang: ${status} after ${ms} ms, ${asked} platform requests`);
    assert.equal(status, 504);
    assert.equal(asked, 2);
    assert.ok(ms < TIMEOUT_MS + 400, `answered after ${ms} ms`);
  });

  it('does not wait for a Retry-After that ends past the budget: the problem is answered at once', async () => {
    platform.reply = () => ({
      status: 503,
      headers: { 'retry-after': '2', 'content-type': 'application/problem+json' },
      body: {},
    });
    const { status, ms, asked } = await timed('/connections');
    assert.equal(status, 503);
    assert.equal(asked, 1);
    assert.ok(ms < TIMEOUT_MS, `answered after ${ms} ms`);
  });
});
