// PATCH {endpoint}/connections/{id} keeps to its documented budget: at most two platform calls one after the other
// (read the connection, then update it), so 2 × timeoutMs at most, whatever the provider cache holds.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler } from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { call } from '../helpers/handler-calls.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

const TIMEOUT_MS = 600;
/** Each platform answer takes this long: under timeoutMs, so every call succeeds, slowly. */
const DELAY_MS = 400;

describe('PATCH a connection against a slow platform', () => {
  let platform: TestServer;
  /** When each platform request arrived, ms after the PATCH was sent. */
  let arrivals: number[] = [];
  let sent = 0;

  before(async () => {
    platform = await startTestServer((request) => {
      arrivals.push(performance.now() - sent);
      if (request.path.startsWith('/v1/providers/'))
        return { delayMs: DELAY_MS, body: { name: 'apollo', authType: 'apiKey' } };
      return {
        delayMs: DELAY_MS,
        body: sampleConnection({ id: 'conn_1', provider: 'apollo', authScheme: 'apiKey' }),
      };
    });
  });
  after(() => platform.close());

  it('answers within 2 × timeoutMs, having asked the platform twice one after the other (cold cache)', async (t) => {
    // A new handler: its provider cache is empty. Another one warms the process (its first request costs more).
    const make = () =>
      createConnectHandler({
        apiKey: 'patch-budget-key-Lw3Rt9',
        baseUrl: `${platform.url}/v1`,
        project: 'demo',
        authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
        timeoutMs: TIMEOUT_MS,
        onError: () => {},
      });
    await (
      await call(make(), '/api/connect/connections/conn_1', { method: 'PATCH', body: { apiKey: 'warm' } })
    ).arrayBuffer();
    const handler = make();
    arrivals = [];
    sent = performance.now();
    const response = await call(handler, '/api/connect/connections/conn_1', {
      method: 'PATCH',
      body: { apiKey: 'new-key' },
    });
    await response.arrayBuffer();
    const elapsed = performance.now() - sent;
    // Sequential depth: a request that arrived after an earlier one could have been answered started a new round.
    const rounds = arrivals.filter((at, i) => i === 0 || at - arrivals[i - 1] >= DELAY_MS / 2).length;
    t.diagnostic(
      `PATCH: ${response.status} after ${Math.round(elapsed)} ms (timeoutMs ${TIMEOUT_MS}, each answer ${DELAY_MS} ms), ` +
        `${arrivals.length} platform requests at ${arrivals.map(Math.round).join(', ')} ms: ${rounds} rounds`,
    );
    assert.equal(response.status, 200);
    assert.ok(rounds <= 2, `${rounds} platform calls one after the other`);
    // The bound the docs give, with room for the handler's own work on a busy machine.
    assert.ok(elapsed < 2 * TIMEOUT_MS + 200, `answered after ${Math.round(elapsed)} ms, over 2 × timeoutMs`);
  });
});
