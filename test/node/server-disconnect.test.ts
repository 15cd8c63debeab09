// DELETE {endpoint}/connections/{id}: served only with allowDisconnect: true, and then only for a connection of the
// caller's group; otherwise 405 (the platform never asked) or 404 (the other group's connection untouched).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../src/server/index.js';
import { sampleConnection } from '../shared/fixtures.js';
import { allow } from './helpers/consent.js';
import { APP, problemReply } from './helpers/handler-calls.js';
import { startTestServer } from './helpers/http-server.js';
import { countingFetch, type CountingFetch } from './helpers/platform-calls.js';

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

describe('disconnecting a connection', () => {
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
    it('answers 405 with Allow: GET, and the platform is never asked', async () => {
      const handler = make();
      for (const [user, id] of [
        ['ada', 'conn_demo'],
        ['otto', 'conn_demo'],
        ['ada', 'conn_missing'],
        [undefined, 'conn_demo'],
      ]) {
        const response = await send(handler, 'DELETE', `/api/connect/connections/${id}`, user);
        assert.equal(response.headers.get('allow'), 'GET');
        const body = await problemOf(response, 405);
        assert.equal(body.detail, 'DELETE is not allowed here; allowed: GET');
      }
      assert.deepEqual(counting.calls, []);
      assert.ok(exists('conn_demo'));
    });

    it('does not offer DELETE in a preflight', async () => {
      const handler = make({ allowedOrigins: ['https://spa.example'] });
      const preflight = await send(handler, 'OPTIONS', '/connections/conn_demo', undefined, {
        origin: 'https://spa.example',
        'sec-fetch-site': 'cross-site',
        'access-control-request-method': 'DELETE',
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST, PATCH');
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

    it('answers 405 with Allow: GET, DELETE to any other method', async () => {
      const handler = make({ allowDisconnect: true });
      for (const method of ['PUT', 'POST', 'PATCH']) {
        const response = await send(handler, method, '/connections/conn_demo', 'ada');
        assert.equal(response.headers.get('allow'), 'GET, DELETE', method);
        assert.equal((await problemOf(response, 405)).detail, `${method} is not allowed here; allowed: GET, DELETE`);
      }
      // The other routes are unchanged.
      const list = await send(handler, 'DELETE', '/connections', 'ada');
      assert.equal(list.headers.get('allow'), 'GET');
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
