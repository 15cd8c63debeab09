// The connection routes of the handler: the caller group's list (own=true: the caller's own), and disconnecting one
// when allowDisconnect is set, never another group's.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { allow } from '../helpers/consent.js';
import { APP, problemReply } from '../helpers/handler-calls.js';
import { startTestServer } from '../helpers/http-server.js';
import { countingFetch, type CountingFetch } from '../helpers/platform-calls.js';

describe('the list route', () => {
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

    it('lists a connection without a creation time after every dated one', async () => {
      const platform = await startTestServer(() => ({
        body: [
          { ...sampleConnection({ id: 'undated', provider: 'slack' }), createTime: undefined },
          sampleConnection({ id: 'older', provider: 'notion', createTime: '2026-01-01T00:00:00Z' }),
          { ...sampleConnection({ id: 'undated-too', provider: 'linear' }), createTime: undefined },
          sampleConnection({ id: 'newer', provider: 'hubspot', createTime: '2026-02-01T00:00:00Z' }),
        ],
      }));
      try {
        const listing = createConnectHandler({
          apiKey: API_KEY,
          baseUrl: `${platform.url}/v1`,
          project: 'demo',
          authorize,
          retry: false,
        });
        const listed = await ids(listing, '/connections', 'ada');
        assert.deepEqual(listed.slice(0, 2), ['newer', 'older']);
        assert.deepEqual(listed.slice(2).sort(), ['undated', 'undated-too']);
      } finally {
        await platform.close();
      }
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

describe('disconnecting a connection', () => {
  const API_KEY = 'disconnect-key-Wq83Zx';

  const SESSIONS: Record<string, { groupRef: string; consumerRef: string }> = {
    ada: { groupRef: 'acme', consumerRef: 'user-ada' },
    otto: { groupRef: 'other', consumerRef: 'user-otto' },
  };

  const authorize: ConnectHandlerOptions['authorize'] = (request) => {
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
    return (sid && SESSIONS[sid]) || null;
  };

  function send(
    handler: ConnectHandler,
    method: string,
    path: string,
    user?: string,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const all: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...headers };
    if (user) all.cookie = `sid=${user}`;
    return handler(new Request(`${APP}${path}`, { method, headers: all }));
  }

  async function problemOf(response: Response, status: number) {
    const text = await response.text();
    assert.equal(response.status, status, text);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    return JSON.parse(text);
  }

  let emulator: Emulator;
  let baseUrl: string;
  let counting: CountingFetch;

  function make(options: Partial<ConnectHandlerOptions> = {}): ConnectHandler {
    counting = countingFetch();
    return createConnectHandler({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize,
      retry: false,
      fetch: counting.fetch,
      ...options,
    });
  }

  const exists = (id: string) => emulator.state.connections.some((c) => c.id === id);

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    ({ baseUrl } = await emulator.listen());
  });
  after(() => emulator.close());

  it('checks allowDisconnect when the handler is created', () => {
    for (const value of ['yes', 1, null, {}]) {
      assert.throws(
        () => make({ allowDisconnect: value as unknown as boolean }),
        (error: unknown) =>
          error instanceof TypeError &&
          /^connect-provider: allowDisconnect must be true or false, got /.test(error.message),
        String(value),
      );
    }
    make({ allowDisconnect: false });
    make({ allowDisconnect: true });
  });

  describe('without allowDisconnect', () => {
    it('answers 405 naming allowDisconnect, with Allow: GET, PATCH, and the platform is never asked', async () => {
      const handler = make();
      for (const [user, id] of [
        ['ada', 'conn_demo'],
        ['otto', 'conn_demo'],
        ['ada', 'conn_missing'],
        [undefined, 'conn_demo'],
      ]) {
        const response = await send(handler, 'DELETE', `/api/connect/connections/${id}`, user);
        assert.equal(response.headers.get('allow'), 'GET, PATCH');
        const { type, title, detail } = await problemOf(response, 405);
        // The developer reads the fix where they look (the browser's network panel, the element's console warning).
        assert.deepEqual(
          { type, title, detail },
          {
            type: 'urn:connect-provider:problem:disconnect-off',
            title: 'Method Not Allowed',
            detail: 'disconnecting is off: set allowDisconnect: true in createConnectHandler to serve DELETE',
          },
        );
      }
      // Any other method not served is the plain 405: only the route the option turns off names it.
      const put = await send(handler, 'PUT', '/connections/conn_demo', 'ada');
      assert.equal(put.headers.get('allow'), 'GET, PATCH');
      assert.equal((await problemOf(put, 405)).detail, 'PUT is not allowed here; allowed: GET, PATCH');
      const list = await send(handler, 'DELETE', '/connections', 'ada');
      assert.equal(list.headers.get('allow'), 'GET, POST');
      assert.equal((await problemOf(list, 405)).detail, 'DELETE is not allowed here; allowed: GET, POST');
      assert.deepEqual(counting.calls, []);
      assert.ok(exists('conn_demo'));
    });

    it('lets a DELETE from an allowed origin through its preflight, to answer the 405 naming allowDisconnect there', async () => {
      // A preflight that refused DELETE would fail in the browser as a network error, with nothing to say why: the
      // element could not hide Disconnect and warn naming the option.
      const handler = make({ allowedOrigins: ['https://spa.example'] });
      const cors = { origin: 'https://spa.example', 'sec-fetch-site': 'cross-site' };
      const preflight = await send(handler, 'OPTIONS', '/connections/conn_demo', undefined, {
        ...cors,
        'access-control-request-method': 'DELETE',
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST, PATCH, DELETE');
      const refused = await send(handler, 'DELETE', '/connections/conn_demo', 'ada', cors);
      assert.equal(refused.headers.get('access-control-allow-origin'), 'https://spa.example');
      assert.match((await problemOf(refused, 405)).detail, /set allowDisconnect: true in createConnectHandler/);
      assert.ok(exists('conn_demo'));
    });
  });

  describe('with allowDisconnect: true', () => {
    it("deletes the caller group's connection: 204 with no body, after checking its group", async () => {
      const handler = make({ allowDisconnect: true });
      const connect = await handler(
        new Request(`${APP}/oauth-connect`, {
          method: 'POST',
          headers: { 'sec-fetch-site': 'same-origin', cookie: 'sid=ada', 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'slack' }),
        }),
      );
      const id = await allow((await connect.json()).url);
      assert.ok(exists(id));
      counting.calls.length = 0;

      const response = await send(handler, 'DELETE', `/api/connect/connections/${id}`, 'ada');
      assert.equal(response.status, 204);
      assert.equal(await response.text(), '');
      assert.equal(response.headers.get('content-type'), null);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.ok(!exists(id), 'the platform deleted it');
      assert.deepEqual(
        counting.calls.map((c) => `${c.method} ${c.path}`),
        [`GET /v1/projects/demo/connections/${id}`, `DELETE /v1/projects/demo/connections/${id}`],
      );
      await problemOf(await send(handler, 'GET', `/connections/${id}`, 'ada'), 404);
    });

    it("answers 404 for another group's connection and a missing one, with no delete asked of the platform", async () => {
      const handler = make({ allowDisconnect: true });
      const other = await problemOf(await send(handler, 'DELETE', '/connections/conn_demo', 'otto'), 404);
      const missing = await problemOf(await send(handler, 'DELETE', '/connections/conn_missing', 'ada'), 404);
      assert.equal(other.detail, missing.detail);
      for (const bad of ['..', '%2e%2e', '%ZZ', 'x'.repeat(513)])
        await problemOf(await send(handler, 'DELETE', `/connections/${bad}`, 'ada'), 404);
      assert.ok(exists('conn_demo'), "the other group's connection still exists");
      assert.deepEqual(
        counting.calls.filter((c) => c.method !== 'GET'),
        [],
      );
      await problemOf(await send(handler, 'DELETE', '/connections/conn_demo'), 401);
      assert.ok(exists('conn_demo'));
    });

    it('answers 405 with Allow: GET, PATCH, DELETE to any other method', async () => {
      const handler = make({ allowDisconnect: true });
      for (const method of ['PUT', 'POST']) {
        const response = await send(handler, method, '/connections/conn_demo', 'ada');
        assert.equal(response.headers.get('allow'), 'GET, PATCH, DELETE', method);
        assert.equal(
          (await problemOf(response, 405)).detail,
          `${method} is not allowed here; allowed: GET, PATCH, DELETE`,
        );
      }
      // The other routes are unchanged.
      const list = await send(handler, 'DELETE', '/connections', 'ada');
      assert.equal(list.headers.get('allow'), 'GET, POST');
      await problemOf(list, 405);
      assert.deepEqual(counting.calls, []);
    });

    it('offers DELETE in a preflight from an allowed origin, and answers it with CORS', async () => {
      const handler = make({ allowDisconnect: true, allowedOrigins: ['https://spa.example'] });
      const cors = { origin: 'https://spa.example', 'sec-fetch-site': 'cross-site' };
      const preflight = await send(handler, 'OPTIONS', '/connections/conn_demo', undefined, {
        ...cors,
        'access-control-request-method': 'DELETE',
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST, PATCH, DELETE');
      const refused = await send(handler, 'DELETE', '/connections/conn_demo', 'otto', cors);
      await problemOf(refused, 404);
      assert.equal(refused.headers.get('access-control-allow-origin'), 'https://spa.example');
      const foreign = await send(handler, 'OPTIONS', '/connections/conn_demo', undefined, {
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'access-control-request-method': 'DELETE',
      });
      await problemOf(foreign, 403);
      assert.ok(exists('conn_demo'));
    });

    it('maps a platform failure of the delete to a problem with no secret and no platform address', async () => {
      const errors: ConnectHandlerErrorInfo[] = [];
      const platform = await startTestServer((request) =>
        request.method === 'DELETE'
          ? problemReply(500, { detail: `boom with ${API_KEY} at http://127.0.0.1:1/v1/internal` })
          : { body: sampleConnection({ id: 'conn_1' }) },
      );
      try {
        const handler = createConnectHandler({
          apiKey: API_KEY,
          baseUrl: `${platform.url}/v1`,
          project: 'demo',
          authorize,
          retry: false,
          allowDisconnect: true,
          onError: (info) => errors.push(info),
        });
        const response = await send(handler, 'DELETE', '/connections/conn_1', 'ada');
        const text = await response.clone().text();
        const body = await problemOf(response, 502);
        assert.equal(body.type, 'urn:connect-provider:problem:upstream');
        assert.ok(!text.includes(API_KEY) && !text.includes('127.0.0.1') && !text.includes(platform.url), text);
        assert.deepEqual(
          platform.requests.map((r) => r.method),
          ['GET', 'DELETE'],
        );
        assert.equal(errors.length, 1);
        assert.equal(errors[0].kind, 'platform');
        assert.match(
          errors[0].message,
          /^DELETE \/connections\/conn_1 answered 502: platform delete-connection answered 500/,
        );
        assert.ok(!errors[0].message.includes(API_KEY));

        // The connection gone between the check and the delete: a 404 like any missing one.
        platform.reply = (request) =>
          request.method === 'DELETE' ? problemReply(404) : { body: sampleConnection({ id: 'conn_1' }) };
        assert.equal(
          (await problemOf(await send(handler, 'DELETE', '/connections/conn_1', 'ada'), 404)).detail,
          'no such connection',
        );
      } finally {
        await platform.close();
      }
    });
  });
});
