// Rules of the platform client (src/api/client.ts) that a mutation run (npm run mutate -- api) showed no test held:
// which operations are sent again after a dropped connection, the TypeError naming each unusable path parameter,
// what a failure carries as its cause and says when the answer has no URL, and that a caller's signal is let go.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createPlatformClient, PlatformRequestError, ProblemError, type PlatformClient } from '../../src/api/index.js';
import { problemFromResponse } from '../../src/api/errors.js';
import { parseRetryAfter } from '../../src/shared/retry.js';
import { startTestServer, type Reply, type TestServer } from './helpers/http-server.js';

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

  it('refuses a base URL of another scheme, and takes an empty API key as none', async () => {
    assert.throws(
      () => createPlatformClient({ baseUrl: 'ftp://platform.example/v1', apiKey: 'k' }),
      (error: Error) =>
        error instanceof TypeError && error.message === 'connect-provider: baseUrl must be an http(s) URL',
    );
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
        error.code === 'timeout' && error.cause instanceof DOMException && error.cause.name === 'TimeoutError',
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
    await assert.rejects(answering('"x').oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }), {
      message: 'the answer of the platform is not JSON',
    });
  });
});

describe('problemFromResponse and parseRetryAfter: edges', () => {
  it('names its errors, for the logs that print them', () => {
    assert.equal(new PlatformRequestError('network', 'x').name, 'PlatformRequestError');
    assert.equal(new ProblemError({ status: 500 }).name, 'ProblemError');
  });

  it('keeps the status title in the problem, and no detail for a blank or unreadable body', async () => {
    const blank = await problemFromResponse(
      new Response('  \n ', { status: 503, headers: { 'content-type': 'application/problem+json' } }),
    );
    assert.equal(blank.problem.title, 'Service Unavailable');
    assert.equal(blank.detail, undefined);
    assert.equal(blank.message, '503 Service Unavailable');
    const broken = new ReadableStream({
      start(controller) {
        controller.error(new Error('connection dropped'));
      },
    });
    const unreadable = await problemFromResponse(new Response(broken, { status: 502 }));
    assert.equal(unreadable.detail, undefined);
    assert.equal(unreadable.message, '502 Bad Gateway');
  });

  it('keeps the words of an HTML page apart when it drops its tags', async () => {
    const page = await problemFromResponse(
      new Response('<p>Service</p><p>down</p>', { status: 500, headers: { 'content-type': 'text/html' } }),
    );
    assert.equal(page.detail, 'Service down');
  });

  it("reads whole seconds or a date's shape, and not text Date.parse would read as a date", () => {
    assert.equal(parseRetryAfter(' 5 '), 5000);
    for (const value of ['in 5', 'x5', '5x', '   ']) assert.equal(parseRetryAfter(value), undefined, value);
  });
});
