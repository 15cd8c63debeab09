// The API key goes to baseUrl's origin and nowhere else (src/api/client.ts): a platform that answers a redirect to
// another origin never gets the client, nor the handler in front of it, to send X-Api-Key there, and the other
// origin's answer never reaches the caller or the browser as the platform's.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformClient, PlatformRequestError, ProblemError } from '../../../src/api/index.js';
import { createConnectHandler } from '../../../src/server/index.js';
import { call } from '../helpers/handler-calls.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

const KEY = 'redirect-key-Qx81Lw';

describe('the API key goes to the baseUrl origin only', () => {
  let platform: TestServer;
  let elsewhere: TestServer;
  let status = 301;

  before(async () => {
    // Another origin (another port): it answers whatever it is asked, as a platform would.
    elsewhere = await startTestServer((request) =>
      request.path.endsWith('/oauth-connect')
        ? { headers: { 'content-type': 'text/plain' }, body: 'https://consent.elsewhere.test/x' }
        : request.path.includes('/providers/')
          ? { body: { name: 'slack', displayName: 'Slack', authType: 'oauth2' } }
          : { body: [] },
    );
    platform = await startTestServer((request) => ({
      status,
      headers: { location: `${elsewhere.url}${request.path}` },
      body: '',
    }));
  });
  after(async () => {
    await platform.close();
    await elsewhere.close();
  });
  beforeEach(() => {
    platform.requests.length = 0;
    elsewhere.requests.length = 0;
  });

  for (const code of [301, 302, 303, 307, 308]) {
    it(`the client never follows a ${code} to another origin: nothing reaches it, the 3xx is a ProblemError`, async () => {
      status = code;
      const client = createPlatformClient({ baseUrl: `${platform.url}/v1`, apiKey: KEY, retry: false });
      const calls: Array<() => Promise<unknown>> = [
        () => client.listConnections({ projectIdOrName: 'demo', groupRef: 'acme' }),
        () => client.getProvider({ provider: 'slack' }),
        () => client.oauthConnect({ projectId: 'demo', provider: 'slack', groupRef: 'acme', consumerRef: 'ada' }),
      ];
      for (const send of calls) {
        const error = await send().catch((e: unknown) => e);
        assert.ok(error instanceof ProblemError, String(error));
        assert.equal(error.status, code);
      }
      assert.equal(platform.requests.length, 3);
      assert.ok(platform.requests.every((r) => r.headers['x-api-key'] === KEY));
      assert.deepEqual(elsewhere.requests, [], 'a request reached the other origin');
    });
  }

  it('the handler answers a platform redirect with a 502 problem naming no address, on every route', async () => {
    status = 307;
    const handler = createConnectHandler({
      apiKey: KEY,
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      onError: () => {},
    });
    const routes: Array<[string, Parameters<typeof call>[2]]> = [
      ['/api/connect/connections', {}],
      ['/api/connect/providers/slack', {}],
      ['/api/connect/oauth-connect', { method: 'POST', body: { provider: 'slack' } }],
    ];
    for (const [path, init] of routes) {
      const response = await call(handler, path, init);
      const text = await response.text();
      assert.equal(response.status, 502, `${path}: ${text}`);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
      assert.equal(response.headers.get('location'), null);
      for (const secret of [KEY, platform.url, elsewhere.url, new URL(elsewhere.url).port, 'consent.elsewhere']) {
        assert.ok(!text.includes(secret), `${path} answered ${secret}: ${text}`);
      }
    }
    assert.ok(platform.requests.length >= 3);
    assert.deepEqual(elsewhere.requests, [], 'a request reached the other origin');
  });

  it("refuses an answer that a caller's own fetch reached through a redirect anyway", async () => {
    const following = createPlatformClient({
      baseUrl: `${platform.url}/v1`,
      apiKey: KEY,
      retry: false,
      fetch: async () => {
        const answer = new Response('[]', { headers: { 'content-type': 'application/json' } });
        Object.defineProperty(answer, 'redirected', { value: true });
        return answer;
      },
    });
    const error = await following.listConnections({ projectIdOrName: 'demo' }).catch((e: unknown) => e);
    assert.ok(error instanceof PlatformRequestError, String(error));
    assert.equal(error.code, 'invalid_response');
    assert.match(error.message, /redirect/, 'the message says why the answer was refused');
  });
});
