// Edges of src/server that a mutation run (npm run mutate -- server) showed no test held: the exact TypeError of
// each unusable option, dot IDs through the update route, which of the platform's issues echo the browser's own
// value, and the type each allow-listed connection field must have to reach the browser.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler, type ConnectHandlerOptions } from '../../src/server/index.js';
import { toBrowserConnection } from '../../src/server/connection.js';
import { sampleConnection } from '../shared/fixtures.js';
import { APP, call, problemReply } from './helpers/handler-calls.js';
import { startTestServer, type TestServer } from './helpers/http-server.js';

const BASE: ConnectHandlerOptions = {
  apiKey: 'edge-key-123',
  baseUrl: 'https://platform.example/v1',
  project: 'demo',
  authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
};

describe('createConnectHandler: the TypeError of each unusable option', () => {
  const refused = (options: unknown, message: string) =>
    assert.throws(
      () => createConnectHandler(options as ConnectHandlerOptions),
      (error: Error) => error instanceof TypeError && error.message === `connect-provider: ${message}`,
      message,
    );

  it('describes what it got: null, an array, an object, a long string, another type', () => {
    refused(null, 'createConnectHandler(options) needs an options object, got null');
    refused(['x'], 'createConnectHandler(options) needs an options object, got an array');
    refused('opts', 'createConnectHandler(options) needs an options object, got the string "opts"');
    refused({ ...BASE, authorize: [] }, 'authorize(request) is required: a function, got an array');
    refused({ ...BASE, authorize: {} }, 'authorize(request) is required: a function, got an object');
    refused({ ...BASE, authorize: 7 }, 'authorize(request) is required: a function, got number 7');
    refused(
      { ...BASE, baseUrl: new URL('https://platform.example/v1') },
      "baseUrl must be the platform's URL ending in /v1, got an object",
    );
    const long = 'a'.repeat(41);
    refused(
      { ...BASE, authorize: long },
      `authorize(request) is required: a function, got the string "${'a'.repeat(40)}…"`,
    );
    refused(
      { ...BASE, authorize: 'a'.repeat(40) },
      `authorize(request) is required: a function, got the string "${'a'.repeat(40)}"`,
    );
  });

  it('names every known option next to an unknown one', () => {
    assert.throws(
      () => createConnectHandler({ ...BASE, apikey: 'x' } as unknown as ConnectHandlerOptions),
      /^TypeError: connect-provider: unknown option "apikey" \(known: apiKey, baseUrl, project, authorize, /,
    );
  });

  it('refuses an empty project, a non-http baseUrl, and numbers that are not whole', () => {
    refused({ ...BASE, project: '  ' }, 'project is required: the platform project ID or name');
    refused(
      { ...BASE, baseUrl: 'ftp://platform.example/v1' },
      'baseUrl must be an http(s) URL, got "ftp://platform.example/v1"',
    );
    refused({ ...BASE, timeoutMs: '5000' }, 'timeoutMs must be a whole number from 1 to 600000, got the string "5000"');
  });

  it('suggests the /v1 URL without doubling the slashes it ends in', () => {
    refused(
      { ...BASE, baseUrl: 'https://platform.example/api//' },
      'baseUrl must end in /v1 (the platform API\'s version prefix), got "https://platform.example/api//"; did you mean "https://platform.example/api/v1"?',
    );
  });
});

describe('the platform, as the handler reads it', () => {
  let platform: TestServer;
  before(async () => {
    platform = await startTestServer();
  });
  after(() => platform.close());
  const make = () => createConnectHandler({ ...BASE, baseUrl: `${platform.url}/v1`, retry: false });

  it(
    'answers . and .. as connection IDs of the update route 404, asking the platform nothing',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.requests.length = 0;
      for (const id of ['.', '..', '%2E', '%2e%2E']) {
        const response = await call(handler, `/connections/${id}:oauth-update`, { method: 'PATCH' });
        assert.equal(response.status, 404, id);
        assert.equal((await response.json()).detail, 'no such connection', id);
      }
      assert.deepEqual(platform.requests, []);
    },
  );

  it(
    "echoes an issue's value only when it is the browser's own, at the path the issue names",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const list = Array.from({ length: 11 }, (_, i) => `item-${i}`);
      const sent = { provider: 'slack', providerMetadata: { body: { region: 'eu' }, list } };
      const issue = (name: string, value: unknown) => ({ detail: 'is wrong', in: 'body', name, value });
      platform.reply = () =>
        problemReply(400, {
          title: 'Bad Request',
          issues: [
            issue('#/provider', 'slack'),
            issue('providerMetadata.body.region', 'eu'),
            issue('providerMetadata.list[10]', 'item-10'),
            issue('provider.length', 5),
            issue('providerMetadata.body.region', 'us'),
            { detail: 7, in: 'body', name: 'provider' },
            { detail: 'from the query', in: 'query', name: 'provider', value: 'slack' },
          ],
        });
      const response = await call(handler, '/oauth-connect', { method: 'POST', body: sent });
      assert.equal(response.status, 400);
      assert.deepEqual((await response.json()).issues, [
        { detail: 'is wrong', in: 'body', name: '#/provider', value: 'slack' },
        { detail: 'is wrong', in: 'body', name: 'providerMetadata.body.region', value: 'eu' },
        { detail: 'is wrong', in: 'body', name: 'providerMetadata.list[10]', value: 'item-10' },
        { detail: 'is wrong', in: 'body', name: 'provider.length' },
        { detail: 'is wrong', in: 'body', name: 'providerMetadata.body.region' },
        { detail: '', in: 'body', name: 'provider' },
      ]);
    },
  );
});

describe('the Origin check, in the words the browser gets', () => {
  it('tells an opaque origin from a foreign one', async () => {
    const handler = createConnectHandler(BASE);
    const detail = async (origin: string) => {
      const response = await handler(new Request(`${APP}/connections`, { headers: { origin } }));
      assert.equal(response.status, 403, origin);
      return (await response.json()).detail;
    };
    assert.equal(await detail('null'), 'requests from an opaque origin are not allowed');
    // The foreign origin's refusal names the fix: the option to set, or the dev proxy's changeOrigin.
    assert.equal(
      await detail('https://evil.example'),
      `requests from https://evil.example are not allowed (the request's host is ${new URL(APP).host}): list the page's origin in the handler's allowedOrigins, or, behind a dev proxy, keep the page's Host header (changeOrigin: false)`,
    );
  });
});

describe('toBrowserConnection: each field only with its type', () => {
  it('drops every field of the wrong type, length or value, and everything not on the list', () => {
    const inherited = Object.create({ id: 'inherited-id' }) as Record<string, unknown>;
    Object.assign(inherited, {
      projectId: 5,
      provider: 'p'.repeat(2049),
      group: {
        groupRef: 'acme',
        groupName: ['n'],
        createTime: 'not a date',
        updateTime: `2026-01-01T00:00:00Z${' '.repeat(50)}`,
      },
      consumer: ['ada'],
      providerApp: {
        clientId: 'cid',
        clientSecret: 'secret',
        scopes: [['read', 'write'], 'admin', [1], ['s'.repeat(257)]],
      },
      createTime: '2026-01-01T00:00:00Z',
      updateTime: 12,
      authScheme: 'oauth2/implicit',
      status: 'working',
      providerWorkspaceRef: null,
      credentials: { token: 'secret' },
    });
    assert.deepEqual(toBrowserConnection(inherited), {
      group: { groupRef: 'acme' },
      providerApp: { clientId: 'cid', scopes: [['read', 'write']] },
      createTime: '2026-01-01T00:00:00Z',
      status: 'working',
    });
    assert.deepEqual(toBrowserConnection({ ...sampleConnection(), group: null, consumer: 'u1' }).group, undefined);
  });
});
