// Rules of src/api that StrykerJS showed no test held (npm run mutate -- api):
// the Problem Details parsing, the backoff and Retry-After arithmetic, and the
// client's options, each checked through what a caller sees.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformClient, PlatformRequestError, ProblemError } from '../../src/api/index.js';
import { normalizeProblem, problemFromResponse } from '../../src/api/errors.js';
import { statusTitle } from '../../src/shared/problem.js';
import { withoutCredentials } from '../../src/shared/credentials.js';
import { backoffDelay, parseRetryAfter, sleep } from '../../src/shared/retry.js';
import { sampleConnection } from '../shared/fixtures.js';
import { startTestServer, type Reply, type TestServer } from './helpers/http-server.js';
import type { PlatformClient } from '../../src/api/index.js';

describe('statusTitle', () => {
  it('gives the standard reason phrase of every status the platform uses', () => {
    const phrases: Record<number, string> = {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      405: 'Method Not Allowed',
      408: 'Request Timeout',
      409: 'Conflict',
      413: 'Content Too Large',
      415: 'Unsupported Media Type',
      422: 'Unprocessable Content',
      429: 'Too Many Requests',
      500: 'Internal Server Error',
      502: 'Bad Gateway',
      503: 'Service Unavailable',
      504: 'Gateway Timeout',
    };
    for (const [status, phrase] of Object.entries(phrases)) assert.equal(statusTitle(Number(status)), phrase, status);
  });

  it('falls back to a generic phrase by class, 500 being the first server status', () => {
    assert.equal(statusTitle(418), 'Client Error');
    assert.equal(statusTitle(499), 'Client Error');
    assert.equal(statusTitle(500 + 7), 'Server Error');
    assert.equal(statusTitle(599), 'Server Error');
  });
});

describe('ProblemError', () => {
  it('says status and title, and the detail when there is one', () => {
    assert.equal(new ProblemError({ status: 409, title: 'Taken' }).message, '409 Taken');
    assert.equal(
      new ProblemError({ status: 409, title: 'Taken', detail: 'name in use' }).message,
      '409 Taken: name in use',
    );
    assert.equal(new ProblemError({ status: 404 }).message, '404 Not Found');
  });

  it('defaults type to about:blank and serializes as the problem', () => {
    const error = new ProblemError({ status: 400, detail: 'bad', requestId: 'r1' }, 2000);
    assert.equal(error.type, 'about:blank');
    assert.equal(error.name, 'ProblemError');
    assert.equal(error.retryAfterMs, 2000);
    assert.deepEqual(error.toJSON(), {
      status: 400,
      detail: 'bad',
      requestId: 'r1',
      type: 'about:blank',
      title: 'Bad Request',
    });
    assert.equal(new ProblemError({ status: 400 }).retryAfterMs, undefined);
    assert.ok(!('retryAfterMs' in new ProblemError({ status: 400 })));
  });

  it('copies only the members the problem has', () => {
    const error = new ProblemError({ status: 500, title: 'Boom' });
    for (const key of ['detail', 'instance', 'issues', 'retryable', 'context']) assert.ok(!(key in error), key);
  });
});

describe('normalizeProblem', () => {
  it('keeps well-typed members and drops mistyped ones', () => {
    const problem = normalizeProblem(
      {
        type: 5,
        title: 'T',
        detail: ['x'],
        retryable: 'yes',
        causes: ['a', 3, 'b'],
        context: ['not', 'a', 'record'],
        issues: 'nope',
      },
      422,
    );
    assert.deepEqual(problem, { status: 422, title: 'T', causes: ['a', 'b'] });
  });

  it('keeps the typed members of each issue, an empty detail when it has none, and skips non-objects', () => {
    const problem = normalizeProblem(
      {
        issues: [
          { type: 't', title: 'ti', in: 'query', name: 'n', value: 0, detail: 'd' },
          { detail: 7, value: undefined },
          'junk',
          null,
          [1],
        ],
      },
      400,
    );
    assert.deepEqual(problem.issues, [
      { type: 't', title: 'ti', in: 'query', name: 'n', value: 0, detail: 'd' },
      { detail: '', value: undefined },
    ]);
  });

  it('keeps extension members, never letting one replace a standard member', () => {
    const problem = normalizeProblem({ vendor: { a: 1 }, status: 'x', retryable: false, context: { k: 1 } }, 503);
    assert.deepEqual(problem, { status: 503, retryable: false, context: { k: 1 }, vendor: { a: 1 } });
    assert.deepEqual(normalizeProblem('text', 500), { status: 500 });
    assert.deepEqual(normalizeProblem([1, 2], 500), { status: 500 });
    assert.deepEqual(normalizeProblem(null, 500), { status: 500 });
  });
});

describe('problemFromResponse', () => {
  const response = (body: string, status: number, headers: Record<string, string> = {}) =>
    new Response(body, { status, headers });

  it('reads a JSON body whatever its content type, and keeps the text of a broken one', async () => {
    const json = await problemFromResponse(
      response('{"detail":"d","title":"T"}', 400, { 'content-type': 'text/plain' }),
    );
    assert.equal(json.detail, 'd');
    assert.equal(json.title, 'T');
    const broken = await problemFromResponse(response('{"detail": ', 502, { 'content-type': 'application/json' }));
    assert.equal(broken.detail, '{"detail":');
    assert.equal(broken.title, 'Bad Gateway');
    const empty = await problemFromResponse(response('', 500, { 'content-type': 'application/json' }));
    assert.equal(empty.detail, undefined);
    assert.equal(empty.title, 'Internal Server Error');
  });

  it('turns a text or HTML body into a detail of at most 500 characters', async () => {
    const long = await problemFromResponse(response('x'.repeat(600), 500));
    assert.equal(long.detail, 'x'.repeat(500));
    const longJson = await problemFromResponse(
      response(`{${'y'.repeat(600)}`, 500, { 'content-type': 'application/json' }),
    );
    assert.equal(longJson.detail?.length, 500);
    const html = await problemFromResponse(response('<p>a</p>\n\n<b>b</b>', 503, { 'content-type': 'text/html' }));
    assert.equal(html.detail, 'a b');
    const blank = await problemFromResponse(response('  <br/> ', 503, { 'content-type': 'text/html' }));
    assert.equal(blank.detail, undefined);
  });

  it('takes Retry-After from the header before the body', async () => {
    const later = new Date(Date.now() + 60_000).toISOString();
    const both = await problemFromResponse(
      response(JSON.stringify({ retryAfter: later }), 429, { 'content-type': 'application/json', 'retry-after': '2' }),
    );
    assert.equal(both.retryAfterMs, 2000);
    const body = await problemFromResponse(
      response(JSON.stringify({ retryAfter: later }), 429, { 'content-type': 'application/json' }),
    );
    assert.ok(body.retryAfterMs! > 55_000 && body.retryAfterMs! <= 60_000, String(body.retryAfterMs));
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  it('reads delta-seconds, HTTP-dates and RFC 3339 date-times, never negative', () => {
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('2026-11-22T10:00:01.500Z', now), 1500);
    assert.equal(parseRetryAfter('2026-11-22T09:00:00Z', now), 0);
  });

  it('gives undefined for anything else', () => {
    for (const value of [undefined, null, 3, '', '   ', 'soon'])
      assert.equal(parseRetryAfter(value, now), undefined, String(value));
  });
});

describe('backoffDelay', () => {
  const options = { baseMs: 100, maxMs: 1000 };

  it('doubles from baseMs, with a jitter over the upper half of the window', () => {
    assert.equal(
      backoffDelay(0, options, () => 0),
      50,
    );
    assert.equal(
      backoffDelay(0, options, () => 1),
      100,
    );
    assert.equal(
      backoffDelay(1, options, () => 0),
      100,
    );
    assert.equal(
      backoffDelay(2, options, () => 0.5),
      300,
    );
    assert.equal(
      backoffDelay(-3, options, () => 1),
      100,
    );
  });

  it('never goes over maxMs', () => {
    assert.equal(
      backoffDelay(10, options, () => 1),
      1000,
    );
    assert.equal(
      backoffDelay(10, options, () => 0),
      500,
    );
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    const started = Date.now();
    await sleep(30);
    assert.ok(Date.now() - started >= 25);
  });

  it("rejects with the signal's reason, at once when already aborted", async () => {
    await assert.rejects(sleep(10_000, AbortSignal.abort(new Error('gone'))), /gone/);
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('left'));
    await assert.rejects(pending, /left/);
  });

  it('stops listening to the signal once it resolved', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = (...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    };
    signal.removeEventListener = (...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    };
    await sleep(5, signal);
    assert.equal(listeners, 0);
  });
});

describe('withoutCredentials', () => {
  it('drops the OAuth tokens and the API key, and nothing else', () => {
    const connection = sampleConnection({
      oauth2AuthorizationCode: { accessToken: { token: 'A' }, refreshToken: { token: 'R' } },
      apiKey: 'K',
    });
    const stripped = withoutCredentials(connection);
    assert.ok(!('oauth2AuthorizationCode' in stripped));
    assert.ok(!('apiKey' in stripped));
    const { oauth2AuthorizationCode: _o, apiKey: _k, ...rest } = connection;
    assert.deepEqual(stripped, rest);
  });
});

describe('createPlatformClient options', () => {
  let server: TestServer;
  let next: Reply;

  before(async () => {
    server = await startTestServer(() => next);
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    next = { status: 200, body: [] };
  });

  it('accepts a base URL with trailing slashes and asks for JSON, problems or text', async () => {
    const client = createPlatformClient({ baseUrl: `${server.url}/v1///`, apiKey: 'k' });
    await client.listDestinations({ projectIdOrName: 'p' });
    assert.equal(server.requests[0].path, '/v1/projects/p/destinations');
    assert.equal(server.requests[0].headers.accept, 'application/json, application/problem+json, text/plain');
    assert.equal(server.requests[0].headers['content-type'], undefined, 'no body, no content type');
  });

  it('refuses an empty credential and an unusable search URL', () => {
    assert.throws(
      () => createPlatformClient({ baseUrl: server.url, apiKey: '' }),
      /exactly one of apiKey and accessToken/,
    );
    assert.throws(
      () => createPlatformClient({ baseUrl: server.url, accessToken: '' }),
      /exactly one of apiKey and accessToken/,
    );
    assert.throws(
      () => createPlatformClient({ baseUrl: server.url, apiKey: 'k', searchUrl: 'nope' }),
      /searchUrl must be an absolute URL, got "nope"/,
    );
    assert.throws(
      () => createPlatformClient({ baseUrl: server.url, apiKey: 'k', fetch: 5 as never }),
      /no fetch available/,
    );
  });

  it('names the empty path parameter', async () => {
    const client = createPlatformClient({ baseUrl: server.url, apiKey: 'k' });
    await assert.rejects(client.listInvites({ orgId: '' }), /orgId must be a non-empty string/);
    await assert.rejects(
      client.deleteTopic({ projectIdOrName: 'p', topicId: '' }),
      /topicId must be a non-empty string/,
    );
    await assert.rejects(
      client.deleteDestination({ projectIdOrName: 'p', destination: '' }),
      /destination must be a non-empty string/,
    );
    await assert.rejects(
      client.deleteIntegration({ projectIdOrName: 'p', integrationId: '' }),
      /integrationId must be a non-empty string/,
    );
    await assert.rejects(
      client.oauthUpdate({ projectIdOrName: 'p', connectionId: '' }),
      /connectionId must be a non-empty string/,
    );
    assert.equal(server.requests.length, 0);
  });

  it('says which request failed, and how', async () => {
    const client = createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k', retry: false, timeoutMs: 50 });
    next = { destroy: true };
    const patient = createPlatformClient({ baseUrl: `${server.url}/v1`, apiKey: 'k', retry: false });
    const dropped = await patient.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
    assert.ok(dropped instanceof PlatformRequestError);
    assert.match(dropped.message, new RegExp(`^GET ${server.url}/v1/projects/p/destinations failed: `));
    next = { body: [], delayMs: 300 };
    const slow = await client.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
    assert.equal(slow.code, 'timeout');
    assert.equal(slow.message, `GET ${server.url}/v1/projects/p/destinations got no answer within 50 ms`);
    next = { body: 'nope', headers: { 'content-type': 'application/json' } };
    const garbled = await patient.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
    assert.equal(garbled.code, 'invalid_response');
    assert.match(garbled.message, /is not JSON/);
  });

  it('retries a retryable problem after its backoff, and not a problem marked retryable: false', async () => {
    const client = createPlatformClient({
      baseUrl: server.url,
      apiKey: 'k',
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 },
    });
    next = { status: 500, body: { retryable: false } };
    await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), ProblemError);
    assert.deepEqual(
      server.requests.map((r) => r.path),
      ['/projects/p/destinations'],
    );
    server.requests.length = 0;
    next = { status: 500, body: { retryable: true } };
    await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), ProblemError);
    assert.equal(server.requests.length, 2, 'the first attempt and one retry');
  });

  it('retries a time-out of an idempotent operation, and no more than asked', async () => {
    const client = createPlatformClient({
      baseUrl: server.url,
      apiKey: 'k',
      timeoutMs: 50,
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 },
    });
    next = { body: [], delayMs: 200 };
    const error = await client.listDestinations({ projectIdOrName: 'p' }).catch((e) => e);
    assert.equal(error.code, 'timeout');
    assert.equal(server.requests.length, 3);
  });

  it('does not retry an answer that does not parse', async () => {
    const client = createPlatformClient({
      baseUrl: server.url,
      apiKey: 'k',
      retry: { retries: 2, minDelayMs: 1, maxDelayMs: 1 },
    });
    next = { body: 'nope', headers: { 'content-type': 'application/json' } };
    await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), PlatformRequestError);
    assert.equal(server.requests.length, 1);
  });

  it('waits the default backoff (250 ms, then more) when the platform names no time', async () => {
    const client = createPlatformClient({ baseUrl: server.url, apiKey: 'k', retry: { retries: 1 } });
    next = { status: 503, body: {} };
    const started = Date.now();
    await assert.rejects(client.listDestinations({ projectIdOrName: 'p' }), ProblemError);
    assert.ok(Date.now() - started >= 120, 'at least half of the first 250 ms window');
    assert.equal(server.requests.length, 2);
  });
});

describe('createPlatformClient retries and aborts, operation by operation', () => {
  let server: TestServer;
  let answers: Reply[];
  const body = { objectName: 'o', fieldFilters: [] };
  // Every operation that is safe to send twice, with the request it makes.
  const idempotent: Array<[string, (c: PlatformClient) => Promise<unknown>, Reply]> = [
    ['listInvites', (c) => c.listInvites({ orgId: 'o' }), { body: [] }],
    [
      'oauthConnect',
      (c) => c.oauthConnect({ projectId: 'p', provider: 'x', groupRef: 'g', consumerRef: 'c' }),
      { body: 'https://x.test/' },
    ],
    ['oauthUpdate', (c) => c.oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }), { body: 'https://x.test/' }],
    [
      'getConnection',
      (c) => c.getConnection({ projectIdOrName: 'p', connectionId: 'c' }),
      { body: sampleConnection() },
    ],
    ['listConnections', (c) => c.listConnections({ projectIdOrName: 'p' }), { body: [] }],
    ['listDestinations', (c) => c.listDestinations({ projectIdOrName: 'p' }), { body: [] }],
    [
      'deleteDestination',
      (c) => c.deleteDestination({ projectIdOrName: 'p', destination: 'd' }),
      { body: { gone: true } },
    ],
    [
      'deleteIntegration',
      (c) => c.deleteIntegration({ projectIdOrName: 'p', integrationId: 'i' }),
      { body: { gone: true } },
    ],
    ['deleteTopic', (c) => c.deleteTopic({ projectIdOrName: 'p', topicId: 't' }), { status: 204 }],
    [
      'searchRecords',
      (c) => c.searchRecords({ projectIdOrName: 'p', integrationId: 'i', groupRef: 'g', body }),
      { body: { result: [] } },
    ],
    ['listTopicDestinationRoutes', (c) => c.listTopicDestinationRoutes({ projectIdOrName: 'p' }), { body: [] }],
    [
      'listNotificationEventTopicRoutes',
      (c) => c.listNotificationEventTopicRoutes({ projectIdOrName: 'p' }),
      { body: [] },
    ],
  ];

  before(async () => {
    server = await startTestServer(() => answers.shift() ?? { status: 500, body: { title: 'unexpected request' } });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });
  const client = () =>
    createPlatformClient({
      baseUrl: server.url,
      searchUrl: server.url,
      apiKey: 'k',
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 },
    });

  for (const [name, call, reply] of idempotent) {
    it(`${name} is sent again after a dropped connection`, async () => {
      answers = [{ destroy: true }, reply];
      await call(client());
      assert.equal(server.requests.length, 2);
    });
  }

  it('does not send anything for a signal aborted before the call', async () => {
    answers = [{ body: [] }];
    await assert.rejects(
      client().listDestinations({ projectIdOrName: 'p' }, { signal: AbortSignal.abort(new Error('never mind')) }),
      /never mind/,
    );
    assert.equal(server.requests.length, 0);
  });

  it('stops a request in flight when the caller aborts, and still times out with a signal given', async () => {
    answers = [{ body: [], delayMs: 3000 }];
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('left')), 100);
    const started = Date.now();
    await assert.rejects(client().listDestinations({ projectIdOrName: 'p' }, { signal: controller.signal }), /left/);
    assert.ok(Date.now() - started < 2000, 'did not wait for the answer');
    answers = [{ body: [], delayMs: 3000 }];
    const quick = createPlatformClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 100, retry: false });
    const error = await quick
      .listDestinations({ projectIdOrName: 'p' }, { signal: new AbortController().signal })
      .catch((e) => e);
    assert.equal(error.code, 'timeout');
  });

  it('waits a Retry-After equal to maxRetryAfterMs, and never retries with retry: false', async () => {
    answers = [{ status: 429, headers: { 'retry-after': '1' }, body: {} }, { body: [] }];
    const patient = createPlatformClient({ baseUrl: server.url, apiKey: 'k', retry: { maxRetryAfterMs: 1000 } });
    assert.deepEqual(await patient.listDestinations({ projectIdOrName: 'p' }), []);
    assert.equal(server.requests.length, 2);
    server.requests.length = 0;
    answers = [{ status: 503, body: {} }, { body: [] }];
    const once = createPlatformClient({ baseUrl: server.url, apiKey: 'k', retry: false });
    await assert.rejects(once.listDestinations({ projectIdOrName: 'p' }), ProblemError);
    assert.equal(server.requests.length, 1);
  });

  it('trims the whitespace around a text/plain URL', async () => {
    answers = [{ body: '  https://x.test/consent\n', headers: { 'content-type': 'text/plain' } }];
    assert.equal(await client().oauthUpdate({ projectIdOrName: 'p', connectionId: 'c' }), 'https://x.test/consent');
  });
});
