// The platform client's operations (src/api/client.ts): the request each sends and the answer it returns, its
// credentials and options, problems, retries, time-outs and aborts, and what a failure says and carries.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import {
  createPlatformClient,
  PlatformRequestError,
  ProblemError,
  type PlatformClient,
} from '../../../src/api/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';

const connection = sampleConnection();

describe('createPlatformClient', () => {
  let server: TestServer;
  let client: PlatformClient;
  let next: Reply;

  before(async () => {
    server = await startTestServer(() => next);
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    next = { status: 200, body: {} };
    client = createPlatformClient({
      baseUrl: `${server.url}/v1`,
      searchUrl: `${server.url}/search/v1`,
      apiKey: 'key-123',
      retry: { minDelayMs: 1, maxDelayMs: 5 },
    });
  });

  describe('operations', () => {
    // One row per operation of the spec: the call, the request it must send, the answer it must return.
    const cases: Array<{
      name: string;
      call: (c: PlatformClient) => Promise<unknown>;
      method: string;
      path: string;
      query?: Record<string, string>;
      body?: unknown;
      reply: Reply;
      expected: unknown;
    }> = [
      {
        name: 'listInvites',
        call: (c) => c.listInvites({ orgId: 'org_demo' }),
        method: 'GET',
        path: '/v1/orgs/org_demo/invites',
        reply: { body: [{ id: 'inv_1' }] },
        expected: [{ id: 'inv_1' }],
      },
      {
        name: 'oauthConnect',
        call: (c) =>
          c.oauthConnect({ projectId: 'proj_demo', provider: 'salesforce', groupRef: 'acme', consumerRef: 'u1' }),
        method: 'POST',
        path: '/v1/oauth-connect',
        body: { projectId: 'proj_demo', provider: 'salesforce', groupRef: 'acme', consumerRef: 'u1' },
        reply: { body: '"https://example.test/consent?x=1"', headers: { 'content-type': 'application/json' } },
        expected: 'https://example.test/consent?x=1',
      },
      {
        name: 'oauthUpdate',
        call: (c) => c.oauthUpdate({ projectIdOrName: 'demo', connectionId: 'conn_demo' }),
        method: 'PATCH',
        path: '/v1/projects/demo/connections/conn_demo:oauth-update',
        reply: { body: 'https://example.test/update', headers: { 'content-type': 'text/plain' } },
        expected: 'https://example.test/update',
      },
      {
        name: 'createProject',
        call: (c) => c.createProject({ appName: 'App', name: 'my-app', orgId: 'org_demo' }),
        method: 'POST',
        path: '/v1/projects',
        body: { appName: 'App', name: 'my-app', orgId: 'org_demo' },
        reply: { status: 201, body: { id: 'proj_2', name: 'my-app' } },
        expected: { id: 'proj_2', name: 'my-app' },
      },
      {
        name: 'getConnection with the three credential options',
        call: (c) =>
          c.getConnection({
            projectIdOrName: 'proj_demo',
            connectionId: 'conn_1',
            includeCreds: true,
            includeRefreshToken: false,
            refresh: 'ifExpired',
          }),
        method: 'GET',
        path: '/v1/projects/proj_demo/connections/conn_1',
        query: { includeCreds: 'true', includeRefreshToken: 'false', refresh: 'ifExpired' },
        reply: { body: connection },
        expected: connection,
      },
      {
        name: 'listConnections with its three filters (beyond the seed)',
        call: (c) =>
          c.listConnections({
            projectIdOrName: 'proj_demo',
            provider: 'hubspot',
            groupRef: 'acme',
            consumerRef: 'u-1',
          }),
        method: 'GET',
        path: '/v1/projects/proj_demo/connections',
        query: { provider: 'hubspot', groupRef: 'acme', consumerRef: 'u-1' },
        reply: { body: [connection] },
        expected: [connection],
      },
      {
        name: 'getConnection without options sends no query',
        call: (c) => c.getConnection({ projectIdOrName: 'proj_demo', connectionId: 'conn_1' }),
        method: 'GET',
        path: '/v1/projects/proj_demo/connections/conn_1',
        query: {},
        reply: { body: connection },
        expected: connection,
      },
      {
        name: 'listDestinations',
        call: (c) => c.listDestinations({ projectIdOrName: 'proj_demo' }),
        method: 'GET',
        path: '/v1/projects/proj_demo/destinations',
        reply: { body: [{ id: 'dest_webhook' }] },
        expected: [{ id: 'dest_webhook' }],
      },
      {
        name: 'deleteDestination',
        call: (c) => c.deleteDestination({ projectIdOrName: 'proj_demo', destination: 'dest_audit' }),
        method: 'DELETE',
        path: '/v1/projects/proj_demo/destinations/dest_audit',
        reply: { status: 204 },
        expected: undefined,
      },
      {
        name: 'deleteIntegration',
        call: (c) => c.deleteIntegration({ projectIdOrName: 'proj_demo', integrationId: 'int_demo' }),
        method: 'DELETE',
        path: '/v1/projects/proj_demo/integrations/int_demo',
        reply: { status: 204 },
        expected: undefined,
      },
      {
        name: 'deleteConnection (beyond the seed)',
        call: (c) => c.deleteConnection({ projectIdOrName: 'proj_demo', connectionId: 'conn_1' }),
        method: 'DELETE',
        path: '/v1/projects/proj_demo/connections/conn_1',
        reply: { status: 204 },
        expected: undefined,
      },
      {
        name: 'getProject with includeEntitlements (beyond the seed)',
        call: (c) => c.getProject({ projectIdOrName: 'demo', includeEntitlements: true }),
        method: 'GET',
        path: '/v1/projects/demo',
        query: { includeEntitlements: 'true' },
        reply: {
          body: {
            id: 'proj_demo',
            name: 'demo',
            appName: 'Demo',
            orgId: 'org_demo',
            createTime: '2026-01-01T00:00:00Z',
          },
        },
        expected: {
          id: 'proj_demo',
          name: 'demo',
          appName: 'Demo',
          orgId: 'org_demo',
          createTime: '2026-01-01T00:00:00Z',
        },
      },
      {
        name: 'getProvider (beyond the seed)',
        call: (c) => c.getProvider({ provider: 'salesforce' }),
        method: 'GET',
        path: '/v1/providers/salesforce',
        reply: { body: { name: 'salesforce', authType: 'oauth2' } },
        expected: { name: 'salesforce', authType: 'oauth2' },
      },
      {
        name: 'listIntegrations (beyond the seed)',
        call: (c) => c.listIntegrations({ projectIdOrName: 'proj_demo' }),
        method: 'GET',
        path: '/v1/projects/proj_demo/integrations',
        reply: { body: [{ id: 'int_demo', name: 'demo' }] },
        expected: [{ id: 'int_demo', name: 'demo' }],
      },
      {
        name: 'listProviderApps (beyond the seed)',
        call: (c) => c.listProviderApps({ projectIdOrName: 'proj_demo' }),
        method: 'GET',
        path: '/v1/projects/proj_demo/provider-apps',
        reply: { body: [{ id: 'app_1', provider: 'slack' }] },
        expected: [{ id: 'app_1', provider: 'slack' }],
      },
      {
        name: 'generateConnection (beyond the seed)',
        call: (c) =>
          c.generateConnection({
            projectIdOrName: 'proj_demo',
            body: { provider: 'apollo', groupRef: 'acme', consumerRef: 'u', apiKey: 'k' },
          }),
        method: 'POST',
        path: '/v1/projects/proj_demo/connections:generate',
        body: { provider: 'apollo', groupRef: 'acme', consumerRef: 'u', apiKey: 'k' },
        reply: { status: 201, body: { id: 'conn_1', status: 'created' } },
        expected: { id: 'conn_1', status: 'created' },
      },
      {
        name: 'updateConnection (beyond the seed)',
        call: (c) =>
          c.updateConnection({
            projectIdOrName: 'proj_demo',
            connectionId: 'conn_1',
            body: { updateMask: ['apiKey'], connection: { apiKey: 'k2' } },
          }),
        method: 'PATCH',
        path: '/v1/projects/proj_demo/connections/conn_1',
        body: { updateMask: ['apiKey'], connection: { apiKey: 'k2' } },
        reply: { body: { id: 'conn_1', status: 'created' } },
        expected: { id: 'conn_1', status: 'created' },
      },
      {
        name: 'deleteTopic',
        call: (c) => c.deleteTopic({ projectIdOrName: 'proj_demo', topicId: 'topic_alerts' }),
        method: 'DELETE',
        path: '/v1/projects/proj_demo/topics/topic_alerts',
        reply: { status: 204 },
        expected: undefined,
      },
      {
        name: 'searchRecords goes to the search host',
        call: (c) =>
          c.searchRecords({
            projectIdOrName: 'proj_demo',
            integrationId: 'int_demo',
            groupRef: 'acme',
            body: { objectName: 'contact', fieldFilters: [{ fieldName: 'email', operator: 'eq', value: 'a@b.c' }] },
          }),
        method: 'POST',
        path: '/search/v1/projects/proj_demo/integrations/int_demo',
        query: { groupRef: 'acme' },
        body: { objectName: 'contact', fieldFilters: [{ fieldName: 'email', operator: 'eq', value: 'a@b.c' }] },
        reply: { body: { result: [{ fields: { email: 'a@b.c' }, mappedFields: {}, raw: {} }] } },
        expected: { result: [{ fields: { email: 'a@b.c' }, mappedFields: {}, raw: {} }] },
      },
      {
        name: 'listTopicDestinationRoutes with filters',
        call: (c) =>
          c.listTopicDestinationRoutes({
            projectIdOrName: 'proj_demo',
            topicId: 'topic_main',
            destinationId: 'dest_webhook',
          }),
        method: 'GET',
        path: '/v1/projects/proj_demo/topic-destination-routes',
        query: { topicId: 'topic_main', destinationId: 'dest_webhook' },
        reply: { body: [] },
        expected: [],
      },
      {
        name: 'createNotificationEventTopicRoute',
        call: (c) =>
          c.createNotificationEventTopicRoute({
            projectIdOrName: 'proj_demo',
            body: { eventType: 'connection.created', topicId: 'topic_main' },
          }),
        method: 'POST',
        path: '/v1/projects/proj_demo/notification-event-topic-routes',
        body: { eventType: 'connection.created', topicId: 'topic_main' },
        reply: { status: 201, body: { id: 'ner_1' } },
        expected: { id: 'ner_1' },
      },
      {
        name: 'listNotificationEventTopicRoutes with filters',
        call: (c) =>
          c.listNotificationEventTopicRoutes({
            projectIdOrName: 'proj_demo',
            topicId: 'topic_main',
            eventType: 'connection.error',
          }),
        method: 'GET',
        path: '/v1/projects/proj_demo/notification-event-topic-routes',
        query: { topicId: 'topic_main', eventType: 'connection.error' },
        reply: { body: [] },
        expected: [],
      },
    ];

    for (const row of cases) {
      it(`${row.name}: sends ${row.method} ${row.path} and parses the answer`, async () => {
        next = row.reply;
        const result = await row.call(client);
        assert.deepEqual(result, row.expected);
        assert.equal(server.requests.length, 1);
        const [request] = server.requests;
        assert.equal(request.method, row.method);
        assert.equal(request.path, row.path);
        if (row.query) assert.deepEqual(request.query, row.query);
        assert.equal(request.headers['x-api-key'], 'key-123');
        assert.equal(request.headers.authorization, undefined);
        if (row.body === undefined) {
          assert.equal(request.body, '');
        } else {
          assert.equal(request.headers['content-type'], 'application/json');
          assert.deepEqual(JSON.parse(request.body), row.body);
        }
      });
    }

    it('covers all 13 operations of the spec and the eight beyond it', () => {
      const names = new Set(cases.map((c) => c.name.split(' ')[0]));
      assert.equal(names.size, 21);
      assert.deepEqual(Object.keys(client).sort(), [...names].sort());
    });

    it('encodes path parameters', async () => {
      next = { body: connection };
      await client.getConnection({ projectIdOrName: 'a b', connectionId: 'x/y?z' });
      assert.equal(server.requests[0].path, '/v1/projects/a%20b/connections/x%2Fy%3Fz');
      const hostile = ['%', 'ü', 'a:b', '...', '#f', '{connectionId}', '&x=1', '+ ;,'];
      for (const [i, id] of hostile.entries()) {
        next = { body: connection };
        await client.getConnection({ projectIdOrName: hostile[hostile.length - 1 - i], connectionId: id });
        const expected = `/v1/projects/${encodeURIComponent(hostile[hostile.length - 1 - i])}/connections/${encodeURIComponent(id)}`;
        assert.equal(server.requests.at(-1)!.path, expected, id);
      }
      next = { body: JSON.stringify('https://provider.example/authorize') };
      await client.oauthUpdate({ projectIdOrName: 'demo', connectionId: 'c:1/2' }).catch(() => {});
      assert.equal(server.requests.at(-1)!.path, '/v1/projects/demo/connections/c%3A1%2F2:oauth-update');
    });

    it('rejects empty path parameters before sending anything', async () => {
      await assert.rejects(client.getConnection({ projectIdOrName: '', connectionId: 'c' }), TypeError);
      assert.equal(server.requests.length, 0);
    });

    it('rejects . and .. as path parameters, which a URL would resolve to another operation', async () => {
      // /projects/demo/connections/.. is /projects/demo/ once resolved, and %2E%2E resolves alike.
      for (const dots of ['.', '..']) {
        await assert.rejects(client.getConnection({ projectIdOrName: 'demo', connectionId: dots }), /must not be/);
        await assert.rejects(client.getConnection({ projectIdOrName: dots, connectionId: 'c' }), /must not be/);
      }
      assert.equal(server.requests.length, 0);
    });
  });

  describe('authentication', () => {
    it('sends a Bearer token when given accessToken', async () => {
      const bearer = createPlatformClient({ baseUrl: `${server.url}/v1`, accessToken: 'jwt.token.here' });
      next = { body: [] };
      await bearer.listInvites({ orgId: 'org_demo' });
      assert.equal(server.requests[0].headers.authorization, 'Bearer jwt.token.here');
      assert.equal(server.requests[0].headers['x-api-key'], undefined);
    });

    it('refuses options with no credential or with both', () => {
      assert.throws(
        () => createPlatformClient({ baseUrl: 'http://x/v1' } as never),
        /exactly one of apiKey and accessToken/,
      );
      assert.throws(
        () => createPlatformClient({ baseUrl: 'http://x/v1', apiKey: 'a', accessToken: 'b' } as never),
        /exactly one of apiKey and accessToken/,
      );
    });

    it('refuses a base URL that is not an absolute http(s) URL', () => {
      assert.throws(() => createPlatformClient({ baseUrl: '/v1', apiKey: 'k' }), /baseUrl must be an absolute URL/);
      assert.throws(() => createPlatformClient({ baseUrl: 'ftp://x/v1', apiKey: 'k' }), /http\(s\) URL/);
    });

    it('needs searchUrl for searchRecords', async () => {
      const noSearch = createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k' });
      await assert.rejects(
        noSearch.searchRecords({
          projectIdOrName: 'p',
          integrationId: 'i',
          groupRef: 'g',
          body: { objectName: 'o', fieldFilters: [] },
        }),
        /searchUrl/,
      );
    });
  });

  describe('problems', () => {
    it('throws a ProblemError carrying every RFC 9457 member and issues', async () => {
      const problem = {
        type: 'https://errors.example/validation',
        href: 'https://docs.example/validation',
        title: 'Invalid request',
        status: 400,
        detail: 'provider is required',
        instance: '/v1/oauth-connect#req-1',
        subsystem: 'api',
        time: '2026-11-22T10:00:00Z',
        requestId: 'req-1',
        causes: ['missing field'],
        remedy: 'send provider',
        supportEmail: 'help@example.test',
        supportPhone: '+1 555',
        supportUrl: 'https://support.example',
        retryable: false,
        context: { field: 'provider' },
        issues: [{ type: 'about:blank', detail: 'required', in: 'body', name: 'provider', value: null }],
        vendorExtra: 42,
      };
      next = { status: 400, body: problem, headers: { 'content-type': 'application/problem+json' } };
      const error = await client.listInvites({ orgId: 'o' }).catch((e) => e);
      assert.ok(error instanceof ProblemError);
      for (const [key, value] of Object.entries(problem)) {
        if (key === 'vendorExtra') continue;
        assert.deepEqual((error as unknown as Record<string, unknown>)[key], value, key);
      }
      assert.equal((error.problem as Record<string, unknown>).vendorExtra, 42);
      assert.match(error.message, /400 Invalid request: provider is required/);
      assert.equal(server.requests.length, 1, 'a 400 is not retried');
    });

    it('makes a useful ProblemError from an HTML error page', async () => {
      next = {
        status: 502,
        body: '<html><body><h1>Bad gateway</h1> upstream down</body></html>',
        headers: { 'content-type': 'text/html' },
      };
      const error = await createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k', retry: false })
        .listInvites({ orgId: 'o' })
        .catch((e) => e);
      assert.ok(error instanceof ProblemError);
      assert.equal(error.status, 502);
      assert.equal(error.title, 'Bad Gateway');
      assert.equal(error.type, 'about:blank');
      assert.equal(error.detail, 'Bad gateway upstream down');
    });

    it('keeps the HTTP status when the body claims another and drops mistyped members', async () => {
      next = { status: 404, body: { status: 'nope', title: 7, detail: 'no such connection' } };
      const error = await client.getConnection({ projectIdOrName: 'p', connectionId: 'c' }).catch((e) => e);
      assert.ok(error instanceof ProblemError);
      assert.equal(error.status, 404);
      assert.equal(error.title, 'Not Found');
      assert.equal(error.detail, 'no such connection');
    });

    it('throws invalid_response for a 2xx answer that is not JSON', async () => {
      next = { status: 200, body: 'not json', headers: { 'content-type': 'application/json' } };
      const error = await client.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
      assert.ok(error instanceof PlatformRequestError);
      assert.equal(error.code, 'invalid_response');
    });

    it('throws invalid_response for an empty 2xx answer where JSON is due', async () => {
      next = { status: 200, body: '', headers: { 'content-type': 'application/json' } };
      const error = await client.listInvites({ orgId: 'o' }).catch((e) => e);
      assert.ok(error instanceof PlatformRequestError);
      assert.equal(error.code, 'invalid_response');
      assert.equal(server.requests.length, 1, 'an unreadable answer is not retried');
    });

    it('throws invalid_response for a JSON URL answer that is not a string', async () => {
      for (const body of ['{"url":"https://example.test"}', '"https://example.test']) {
        next = { status: 200, body, headers: { 'content-type': 'application/json' } };
        const error = await client
          .oauthConnect({ projectId: 'p', provider: 'x', groupRef: 'g', consumerRef: 'c' })
          .catch((e) => e);
        assert.ok(error instanceof PlatformRequestError, body);
        assert.equal(error.code, 'invalid_response', body);
      }
    });

    it('discards the body of a delete answered 200 with content', async () => {
      next = { status: 200, body: { deleted: true } };
      assert.equal(await client.deleteTopic({ projectIdOrName: 'p', topicId: 't' }), undefined);
    });

    it('throws invalid_response when a URL answer is empty', async () => {
      next = { status: 200, body: '', headers: { 'content-type': 'text/plain' } };
      const error = await client.oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }).catch((e) => e);
      assert.ok(error instanceof PlatformRequestError);
      assert.equal(error.code, 'invalid_response');
    });
  });

  describe('retries', () => {
    it('retries 503 and 429, honouring Retry-After in seconds', async () => {
      const answers: Reply[] = [
        { status: 503, body: { title: 'Unavailable' } },
        { status: 429, headers: { 'retry-after': '1' }, body: { title: 'Slow down' } },
        { status: 200, body: [] },
      ];
      server.reply = () => answers.shift()!;
      const started = Date.now();
      try {
        assert.deepEqual(await client.listDestinations({ projectIdOrName: 'p' }), []);
      } finally {
        server.reply = () => next;
      }
      assert.equal(server.requests.length, 3);
      assert.ok(Date.now() - started >= 950, 'waited for Retry-After: 1');
    });

    it('honours a Problem retryAfter date-time and retryable: true', async () => {
      const answers: Reply[] = [
        { status: 500, body: { title: 'Busy', retryable: true, retryAfter: new Date(Date.now() + 600).toISOString() } },
        { status: 200, body: [] },
      ];
      server.reply = () => answers.shift()!;
      const started = Date.now();
      try {
        await client.listDestinations({ projectIdOrName: 'p' });
      } finally {
        server.reply = () => next;
      }
      assert.equal(server.requests.length, 2);
      assert.ok(Date.now() - started >= 450);
    });

    it('does not retry a plain 500', async () => {
      next = { status: 500, body: { title: 'Boom' } };
      await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), ProblemError);
      assert.equal(server.requests.length, 1);
    });

    it('gives up after the configured retries and throws the last problem', async () => {
      next = { status: 503, body: { title: 'Down', detail: 'maintenance' } };
      const error = await client.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
      assert.ok(error instanceof ProblemError);
      assert.equal(error.detail, 'maintenance');
      assert.equal(server.requests.length, 4, 'first attempt and 3 retries');
    });

    it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
      next = { status: 429, headers: { 'retry-after': '3600' }, body: {} };
      // The deadline bounds the test when the rule breaks: the client would otherwise sleep for the hour asked.
      const deadline = AbortSignal.timeout(2000);
      const error = await client.listDestinations({ projectIdOrName: 'p' }, { signal: deadline }).catch((e) => e);
      assert.ok(error instanceof ProblemError, `expected the 429 at once, got ${error}`);
      assert.equal(error.retryAfterMs, 3600_000);
      assert.equal(server.requests.length, 1);
    });

    it('does not wait for a Retry-After over maxRetryAfterMs even when it would fit in the time-out', async () => {
      next = { status: 429, headers: { 'retry-after': '2' }, body: {} };
      const impatient = createPlatformClient({
        baseUrl: server.url,
        apiKey: 'k',
        timeoutMs: 30_000,
        retry: { maxRetryAfterMs: 1000 },
      });
      const started = performance.now();
      const error = await impatient.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
      assert.ok(error instanceof ProblemError && error.retryAfterMs === 2000, String(error));
      assert.equal(server.requests.length, 1);
      assert.ok(performance.now() - started < 1500, 'thrown at once, not after the 2 s asked');
    });

    it('retries dropped connections for idempotent operations', async () => {
      const answers: Reply[] = [{ destroy: true }, { status: 200, body: [] }];
      server.reply = () => answers.shift()!;
      try {
        assert.deepEqual(await client.listDestinations({ projectIdOrName: 'p' }), []);
      } finally {
        server.reply = () => next;
      }
      assert.equal(server.requests.length, 2);
    });

    it('does not resend a create after a dropped connection', async () => {
      next = { destroy: true };
      const error = await client.createProject({ appName: 'A', name: 'ab', orgId: 'o' }).catch((e) => e);
      assert.ok(error instanceof PlatformRequestError);
      assert.equal(error.code, 'network');
      assert.equal(server.requests.length, 1);
    });
  });

  describe('time-outs and aborts', () => {
    it('times each attempt out through AbortSignal', async () => {
      next = { status: 200, body: [], delayMs: 500 };
      const slow = createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k', timeoutMs: 50, retry: false });
      const error = await slow.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
      assert.ok(error instanceof PlatformRequestError);
      assert.equal(error.code, 'timeout');
    });

    it('stops at once when the caller aborts, also during a backoff wait', async () => {
      // Retry-After: 2 keeps the test short (at most 3 waits of 2 s) when the abort is ignored.
      const controller = new AbortController();
      let abortedAt = 0;
      server.reply = () => {
        // The caller leaves once the first answer is on its way: the client is then reading it or waiting to retry.
        setTimeout(() => {
          abortedAt = Date.now();
          controller.abort(new Error('user left'));
        }, 50);
        return { status: 503, headers: { 'retry-after': '2' }, body: {} };
      };
      try {
        await assert.rejects(
          client.listDestinations({ projectIdOrName: 'p' }, { signal: controller.signal }),
          /user left/,
        );
      } finally {
        server.reply = () => next;
      }
      assert.ok(Date.now() - abortedAt < 1000, 'rejected when aborted, not after the 2 s wait');
      assert.equal(server.requests.length, 1);
    });
  });
});

describe('createPlatformClient: edges', () => {
  let server: TestServer;
  let answers: Reply[];
  before(async () => {
    server = await startTestServer(() => answers.shift() ?? { status: 500, body: { title: 'unexpected request' } });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    answers = [];
  });
  const client = (options: Record<string, unknown> = {}) =>
    createPlatformClient({
      baseUrl: `${server.url}/v1`,
      apiKey: 'k',
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 },
      ...options,
    } as Parameters<typeof createPlatformClient>[0]);

  const idempotent: Array<[string, (c: PlatformClient) => Promise<unknown>, Reply]> = [
    ['deleteConnection', (c) => c.deleteConnection({ projectIdOrName: 'p', connectionId: 'c' }), { body: 'deleted' }],
    // The same fields set to the same values again leave the connection as the first call did.
    [
      'updateConnection',
      (c) =>
        c.updateConnection({
          projectIdOrName: 'p',
          connectionId: 'c',
          body: { updateMask: ['apiKey'], connection: { apiKey: 'k2' } },
        }),
      { body: sampleConnection() },
    ],
    ['getProject', (c) => c.getProject({ projectIdOrName: 'p' }), { body: { id: 'p', name: 'p' } }],
    ['getProvider', (c) => c.getProvider({ provider: 'slack' }), { body: { name: 'slack' } }],
    ['listIntegrations', (c) => c.listIntegrations({ projectIdOrName: 'p' }), { body: [] }],
    ['listProviderApps', (c) => c.listProviderApps({ projectIdOrName: 'p' }), { body: [] }],
  ];
  for (const [name, call, reply] of idempotent) {
    it(`${name} is sent again after a dropped connection`, async () => {
      answers = [{ destroy: true }, reply];
      await call(client());
      assert.equal(server.requests.length, 2);
    });
  }

  const once: Array<[string, (c: PlatformClient) => Promise<unknown>]> = [
    ['createProject', (c) => c.createProject({ name: 'p', appName: 'a' } as never)],
    [
      'createNotificationEventTopicRoute',
      (c) => c.createNotificationEventTopicRoute({ projectIdOrName: 'p', body: { topicId: 't' } } as never),
    ],
    // Each makes a new consent link.
    ['oauthConnect', (c) => c.oauthConnect({ projectId: 'p', provider: 'x', groupRef: 'g', consumerRef: 'c' })],
    ['oauthUpdate', (c) => c.oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' })],
    // A second one would make a second connection with the same credentials.
    [
      'generateConnection',
      (c) =>
        c.generateConnection({
          projectIdOrName: 'p',
          body: { provider: 'x', groupRef: 'g', consumerRef: 'c', apiKey: 'k' },
        }),
    ],
  ];
  for (const [name, call] of once) {
    it(`${name} is never sent twice: the platform may have acted on it`, async () => {
      answers = [{ destroy: true }, { body: {} }];
      await assert.rejects(call(client()), (error: PlatformRequestError) => error.code === 'network');
      assert.equal(server.requests.length, 1);
    });
  }

  it('names the path parameter that is empty, missing, . or ..', async () => {
    const c = client();
    const refused = (promise: Promise<unknown>, message: string) =>
      assert.rejects(
        promise,
        (error: Error) => error instanceof TypeError && error.message === `connect-provider: ${message}`,
      );
    await refused(c.getProject({ projectIdOrName: '' }), 'projectIdOrName must be a non-empty string');
    await refused(c.getProject({} as never), 'projectIdOrName must be a non-empty string');
    await refused(c.getConnection({ projectIdOrName: 'p', connectionId: '..' }), 'connectionId must not be . or ..');
    await refused(c.deleteConnection({ projectIdOrName: 'p', connectionId: '.' }), 'connectionId must not be . or ..');
    await refused(c.getProvider({ provider: '.' }), 'provider must not be . or ..');
    await refused(
      c.deleteIntegration({ projectIdOrName: 'p', integrationId: '' }),
      'integrationId must be a non-empty string',
    );
    await refused(c.listInvites({ orgId: 7 as never }), 'orgId must be a non-empty string');
    assert.equal(server.requests.length, 0);
  });

  it('refuses a base URL of another scheme and a credential that is not a string, and takes an empty API key as none', async () => {
    assert.throws(
      () => createPlatformClient({ baseUrl: 'ftp://platform.example/v1', apiKey: 'k' }),
      (error: Error) =>
        error instanceof TypeError && error.message === 'connect-provider: baseUrl must be an http(s) URL',
    );
    for (const credential of [5, ['k'], null]) {
      for (const name of ['apiKey', 'accessToken']) {
        assert.throws(
          () => createPlatformClient({ baseUrl: 'https://platform.example/v1', [name]: credential } as never),
          (error: Error) =>
            error instanceof TypeError &&
            error.message === 'connect-provider: give exactly one of apiKey and accessToken',
          `${name}: ${String(credential)}`,
        );
      }
    }
    answers = [{ body: [] }];
    await client({ apiKey: '', accessToken: 'jwt' }).listIntegrations({ projectIdOrName: 'p' });
    assert.equal(server.requests[0].headers.authorization, 'Bearer jwt');
    assert.equal(server.requests[0].headers['x-api-key'], undefined);
  });

  it("rejects with the caller's own reason when it aborts, and lets go of its signal after every call", async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    answers = [{ body: [], delayMs: 300 }];
    const call = client({ retry: false }).listIntegrations({ projectIdOrName: 'p' }, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(call, (error) => error === reason);
    const shared = new AbortController().signal;
    answers = Array.from({ length: 12 }, () => ({ body: [] }));
    for (let i = 0; i < 12; i++) await client().listIntegrations({ projectIdOrName: 'p' }, { signal: shared });
    assert.equal(getEventListeners(shared, 'abort').length, 0);
  });

  it('keeps what went wrong as the cause: the network error, the parse error, the time-out', async () => {
    const refusing = createPlatformClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', retry: false });
    await assert.rejects(
      refusing.listIntegrations({ projectIdOrName: 'p' }),
      (error: PlatformRequestError) => error.code === 'network' && error.cause instanceof TypeError,
    );
    answers = [{ headers: { 'content-type': 'application/json' }, body: '{"broken' }];
    await assert.rejects(
      client({ retry: false }).listIntegrations({ projectIdOrName: 'p' }),
      (error: PlatformRequestError) => error.code === 'invalid_response' && error.cause instanceof SyntaxError,
    );
    answers = [{ body: [], delayMs: 500 }];
    await assert.rejects(
      client({ retry: false, timeoutMs: 50 }).listIntegrations({ projectIdOrName: 'p' }),
      (error: PlatformRequestError) =>
        error.code === 'timeout' &&
        error.cause instanceof DOMException &&
        error.cause.name === 'TimeoutError' &&
        error.cause.message === 'no answer within 50 ms',
    );
  });

  it('refuses to send a body it cannot serialize, with the TypeError, sending nothing', async () => {
    await assert.rejects(
      client().oauthConnect({
        projectId: 'p',
        provider: 'x',
        groupRef: 'g',
        consumerRef: 'c',
        providerMetadata: { n: 1n } as never,
      }),
      TypeError,
    );
    assert.equal(server.requests.length, 0);
  });

  it('discards the body of a deleted connection, whatever its type', async () => {
    answers = [{ headers: { 'content-type': 'text/plain' }, body: 'deleted' }];
    assert.equal(await client().deleteConnection({ projectIdOrName: 'p', connectionId: 'c' }), undefined);
  });

  it('trims the whitespace around a text/plain URL', async () => {
    answers = [{ body: '  https://x.test/consent\n', headers: { 'content-type': 'text/plain' } }];
    assert.equal(await client().oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }), 'https://x.test/consent');
  });

  it('says which answer had no URL or no body: its address, or "the platform" when it has none', async () => {
    const url = `${server.url}/v1/projects/p/connections/c:oauth-update`;
    answers = [{ headers: { 'content-type': 'application/json' }, body: '42' }];
    await assert.rejects(client().oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }), {
      message: `expected a URL from ${url}, got 42`,
    });
    answers = [{ headers: { 'content-type': 'application/json' }, body: '"https://x' }];
    await assert.rejects(client().oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }), {
      message: `the answer of ${url} is not JSON`,
    });
    // A fetch of the app's own that builds its answers: they have no URL.
    const answering = (body: string) =>
      createPlatformClient({
        baseUrl: 'https://platform.example/v1',
        apiKey: 'k',
        retry: false,
        fetch: async () => new Response(body, { headers: { 'content-type': 'application/json' } }),
      });
    await assert.rejects(answering('').getProject({ projectIdOrName: 'p' }), {
      message: 'the answer of the platform is empty',
    });
    await assert.rejects(answering('42').oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }), {
      message: 'expected a URL from the platform, got 42',
    });
    await assert.rejects(answering('7'.repeat(150)).oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }), {
      message: `expected a URL from the platform, got ${'7'.repeat(100)}`,
    });
    await assert.rejects(
      answering('"x').oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }),
      (error: PlatformRequestError) =>
        error.message === 'the answer of the platform is not JSON' && error.cause instanceof SyntaxError,
    );
  });

  it('takes an empty answer to a URL operation as no URL', async () => {
    answers = [{ headers: { 'content-type': 'text/plain', 'content-length': '0' }, body: '' }];
    await assert.rejects(
      client().oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }),
      (error: PlatformRequestError) =>
        error.code === 'invalid_response' && /^expected a URL from .*, got $/.test(error.message),
    );
  });

  it('throws a call refused before sending at once, without waiting to retry it', async () => {
    // An hour between attempts, and a signal that gives up after 5 s: a retried refusal ends in its TimeoutError.
    const slow = client({ retry: { retries: 3, minDelayMs: 3_600_000, maxDelayMs: 3_600_000 } });
    await assert.rejects(slow.getProject({ projectIdOrName: '' }, { signal: AbortSignal.timeout(5000) }), TypeError);
    assert.equal(server.requests.length, 0);
  });
});
