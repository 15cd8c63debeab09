// GET {endpoint}/connections: the caller group's connections (of the allow-listed providers only, when the handler
// has a list), and `own=true` narrowing them to the caller's own consumer, for the element's flows.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createConnectHandler, type ConnectHandler, type ConnectHandlerOptions } from '../../src/server/index.js';
import { sampleConnection } from '../shared/fixtures.js';
import { allow } from './helpers/consent.js';
import { APP } from './helpers/handler-calls.js';
import { startTestServer } from './helpers/http-server.js';
import { countingFetch } from './helpers/platform-calls.js';

const API_KEY = 'list-route-key-5Tq9';

const SESSIONS: Record<string, { groupRef: string; consumerRef: string }> = {
  ada: { groupRef: 'acme', consumerRef: 'user-ada' },
  bea: { groupRef: 'acme', consumerRef: 'user-bea' },
  otto: { groupRef: 'other', consumerRef: 'user-otto' },
};

const authorize: ConnectHandlerOptions['authorize'] = (request) => {
  const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return (sid && SESSIONS[sid]) || null;
};

function get(handler: ConnectHandler, path: string, user?: string): Promise<Response> {
  const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' };
  if (user) headers.cookie = `sid=${user}`;
  return handler(new Request(`${APP}${path}`, { headers }));
}

async function ids(handler: ConnectHandler, path: string, user: string): Promise<string[]> {
  const response = await get(handler, path, user);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return JSON.parse(text).map((c: { id: string }) => c.id);
}

describe('the list route', () => {
  let emulator: Emulator;
  let baseUrl: string;
  let handler: ConnectHandler;
  /** Connection IDs by who made them and to which provider, oldest first. */
  const made: Record<string, string> = {};

  async function connect(user: string, provider: string): Promise<string> {
    const response = await handler(
      new Request(`${APP}/api/connect/oauth-connect`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'same-origin', cookie: `sid=${user}`, 'content-type': 'application/json' },
        body: JSON.stringify({ provider }),
      }),
    );
    assert.equal(response.status, 200);
    const id = await allow((await response.json()).url);
    // Distinct creation times, so "newest first" has one answer.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return id;
  }

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    ({ baseUrl } = await emulator.listen());
    handler = createConnectHandler({ apiKey: API_KEY, baseUrl, project: 'demo', authorize, retry: false });
    // The seed holds conn_demo: hubspot, group acme, consumer user-ada. (The platform keeps one connection per group
    // and provider, whoever made it last: each consumer here connects its own providers.)
    made.adaSlack = await connect('ada', 'slack');
    made.beaNotion = await connect('bea', 'notion');
    made.beaLinear = await connect('bea', 'linear');
    made.ottoSlack = await connect('otto', 'slack');
  });
  after(() => emulator.close());

  describe('without provider', () => {
    it("answers the caller group's connections of every provider, newest first", async () => {
      assert.deepEqual(await ids(handler, '/api/connect/connections', 'ada'), [
        made.beaLinear,
        made.beaNotion,
        made.adaSlack,
        'conn_demo',
      ]);
      assert.deepEqual(await ids(handler, '/api/connect/connections', 'otto'), [made.ottoSlack]);
    });

    it("answers only the allow-listed providers' connections when the handler has a providers list", async () => {
      const listed = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize,
        providers: ['slack', 'notion', 'hubspot'],
      });
      assert.deepEqual(await ids(listed, '/connections', 'bea'), [made.beaNotion, made.adaSlack, 'conn_demo']);
      assert.deepEqual(await ids(listed, '/connections?own=true', 'bea'), [made.beaNotion]);
      const notion = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize,
        providers: ['notion'],
      });
      assert.deepEqual(await ids(notion, '/connections', 'ada'), [made.beaNotion]);
      assert.deepEqual(await ids(notion, '/connections', 'otto'), []);
    });
  });

  describe("own=true: the caller's own connections", () => {
    it("answers only the caller's own consumer's connections, asking the platform with its consumerRef", async () => {
      const counting = countingFetch();
      const narrowing = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize,
        fetch: counting.fetch,
      });
      assert.deepEqual(await ids(narrowing, '/connections?provider=slack&own=true', 'ada'), [made.adaSlack]);
      assert.deepEqual(counting.calls, [
        {
          method: 'GET',
          path: '/v1/projects/demo/connections',
          query: { groupRef: 'acme', consumerRef: 'user-ada', provider: 'slack' },
        },
      ]);
      assert.deepEqual(await ids(narrowing, '/connections?provider=slack&own=1', 'bea'), []);
      assert.deepEqual(await ids(narrowing, '/connections?provider=notion&own=1', 'bea'), [made.beaNotion]);
      assert.deepEqual(await ids(narrowing, '/connections?own=true', 'bea'), [made.beaLinear, made.beaNotion]);
      assert.deepEqual(await ids(narrowing, '/connections?own=true', 'ada'), [made.adaSlack, 'conn_demo']);
      // Without own, the whole group, whoever made them.
      assert.deepEqual(await ids(narrowing, '/connections?provider=slack', 'bea'), [made.adaSlack]);
      assert.deepEqual(counting.calls.at(-1)!.query, { groupRef: 'acme', provider: 'slack' });
    });

    it('answers 400 naming own for any other value, without asking the platform', async () => {
      const counting = countingFetch();
      const narrowing = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize,
        fetch: counting.fetch,
      });
      for (const query of ['own=false', 'own=0', 'own=', 'own=TRUE', 'own=yes', 'own', 'own=true&own=true']) {
        const response = await get(narrowing, `/connections?provider=slack&${query}`, 'ada');
        assert.equal(response.status, 400, query);
        assert.equal(response.headers.get('content-type'), 'application/problem+json');
        const body = await response.json();
        assert.equal(body.type, 'urn:connect-provider:problem:validation');
        assert.equal(body.issues[0].name, 'own', query);
        assert.equal(body.issues[0].in, 'query');
      }
      assert.equal(counting.calls.length, 0);
      assert.equal((await get(narrowing, '/connections?own=true')).status, 401);
    });

    it("filters again by consumer, so a platform that ignores the filter leaks no one else's", async () => {
      const consumer = (consumerRef: string) => ({
        consumerRef,
        consumerName: consumerRef,
        projectId: 'proj_demo',
        createTime: '2026-01-01T00:00:00Z',
      });
      const platform = await startTestServer(() => ({
        body: [
          sampleConnection({ id: 'mine', provider: 'slack', consumer: consumer('user-ada') }),
          sampleConnection({ id: 'hers', provider: 'slack', consumer: consumer('user-bea') }),
          sampleConnection({ id: 'nobody', provider: 'slack' }),
          { ...sampleConnection({ id: 'no-consumer', provider: 'slack' }), consumer: undefined },
          sampleConnection({
            id: 'other-group',
            provider: 'slack',
            groupRef: 'other',
            consumer: consumer('user-ada'),
          }),
        ],
      }));
      try {
        const lying = createConnectHandler({
          apiKey: API_KEY,
          baseUrl: `${platform.url}/v1`,
          project: 'demo',
          authorize,
          retry: false,
        });
        assert.deepEqual(await ids(lying, '/connections?provider=slack&own=true', 'ada'), ['mine']);
        assert.deepEqual(platform.requests[0].query, { groupRef: 'acme', consumerRef: 'user-ada', provider: 'slack' });
        assert.deepEqual(await ids(lying, '/connections?provider=slack', 'ada'), [
          'mine',
          'hers',
          'nobody',
          'no-consumer',
        ]);
      } finally {
        await platform.close();
      }
    });
  });
});
