// The cross-site refusal, to the letter: Origin is compared whole (its scheme too) where the request's own scheme is
// known (an https request URL, or X-Forwarded-Proto), and Sec-Fetch-Site in any case.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler, type ConnectHandler } from '../../src/server/index.js';
import { sampleConnection } from '../shared/fixtures.js';

const API_KEY = 'origin-key-Jr83Ks';

/** A platform stand-in that answers every request with the caller group's connection. */
const platform: typeof fetch = async () =>
  new Response(JSON.stringify(sampleConnection({ id: 'conn_1' })), { headers: { 'content-type': 'application/json' } });

function make(): ConnectHandler {
  return createConnectHandler({
    apiKey: API_KEY,
    baseUrl: 'https://platform.example/v1',
    project: 'demo',
    authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
    retry: false,
    fetch: platform,
  });
}

const get = (handler: ConnectHandler, url: string, headers: Record<string, string>) =>
  handler(new Request(url, { headers }));

describe('the origin check', () => {
  it('refuses an Origin of the same host but another scheme when the request is https', async () => {
    const handler = make();
    const refused = await get(handler, 'https://app.test/connections/conn_1', {
      origin: 'http://app.test',
      'sec-fetch-site': 'same-site',
    });
    assert.equal(refused.status, 403);
    const problem = await refused.json();
    assert.equal(problem.type, 'urn:connect-provider:problem:forbidden-origin');
    // The host is the page's: the server is wrong about its own scheme, and the detail says how to tell it.
    assert.match(problem.detail, /arrived as https:\/\/app\.test, another scheme than the page's/);
    assert.match(problem.detail, /ORIGIN variable/);
    assert.match(problem.detail, /X-Forwarded-Proto/);
    assert.match(problem.detail, /allowedOrigins/);
    const served = await get(handler, 'https://app.test/connections/conn_1', {
      origin: 'https://app.test',
      'sec-fetch-site': 'same-origin',
    });
    assert.equal(served.status, 200);
  });

  it('takes the scheme from X-Forwarded-Proto behind a proxy, and compares the host only when it is unknown', async () => {
    const handler = make();
    const behindProxy = (origin: string, proto?: string) =>
      get(handler, 'http://app.test/connections/conn_1', {
        origin,
        'sec-fetch-site': 'same-origin',
        ...(proto ? { 'x-forwarded-proto': proto } : {}),
      });
    assert.equal((await behindProxy('http://app.test', 'https')).status, 403);
    assert.equal((await behindProxy('http://app.test', 'HTTPS, http')).status, 403);
    assert.equal((await behindProxy('https://app.test', 'https')).status, 200);
    assert.equal((await behindProxy('http://app.test', 'http')).status, 200);
    assert.equal((await behindProxy('https://app.test', 'http')).status, 403);
    // A proxy that terminates TLS and says nothing: the scheme is unknown, the host decides.
    assert.equal((await behindProxy('https://app.test')).status, 200);
    assert.equal((await behindProxy('http://app.test')).status, 200);
  });

  it('reads Sec-Fetch-Site in any case', async () => {
    const handler = make();
    for (const site of ['Cross-Site', 'CROSS-SITE', 'Same-Site']) {
      const response = await get(handler, 'http://app.test/connections/conn_1', { 'sec-fetch-site': site });
      assert.equal(response.status, 403, site);
    }
    const withOrigin = await get(handler, 'http://app.test/connections/conn_1', {
      origin: 'http://app.test',
      'sec-fetch-site': 'Cross-Site',
    });
    assert.equal(withOrigin.status, 403);
    assert.equal(
      (await get(handler, 'http://app.test/connections/conn_1', { 'sec-fetch-site': 'Same-Origin' })).status,
      200,
    );
  });
});
