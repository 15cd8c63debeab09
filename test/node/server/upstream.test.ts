// The platform's failures as the browser gets them (src/server/upstream.ts): each rebuilt as a problem of our own,
// retryable when it is, the platform's issues and detail scrubbed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler, type ConnectHandlerOptions } from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { call, problemReply } from '../helpers/handler-calls.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';
import { ServerFault } from '../../../src/server/handler-problems.js';
import { createScrubber } from '../../../src/server/scrub.js';
import { platformFault } from '../../../src/server/upstream.js';

describe("the platform's failures", () => {
  const { platform, errors, make } = handlerOnPlatformDouble();
  it(
    'answers a 400 or 422 as a validation problem, with a default detail when the platform gives none',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      platform.reply = () => problemReply(422, { detail: 'provider unknown' });
      const unprocessable = await problemOf(
        await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } }),
        400,
      );
      assert.equal(unprocessable.type, 'urn:connect-provider:problem:validation');
      assert.equal(unprocessable.title, 'Invalid request');
      assert.equal(unprocessable.detail, 'provider unknown');
      assert.ok(!('issues' in unprocessable));
      platform.reply = () => problemReply(400, { detail: 7, issues: [] });
      const bare = await problemOf(
        await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } }),
        400,
      );
      assert.equal(bare.detail, 'the platform refused the request');
      assert.ok(!('issues' in bare), 'no issue kept: no issues member');
      assert.deepEqual(errors, [], "the browser's mistakes are not the server's");
    },
  );

  it(
    "keeps at most 20 issues about the body, and an issue's value only when it is the browser's own",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const body = {
        provider: 'slack',
        providerWorkspaceRef: 'ws-1',
        providerMetadata: { region: 'eu', size: 3, flag: true, list: ['a', 'b'], nested: { deep: 'x' } },
      };
      const issues = [
        { name: 'providerMetadata.size', detail: 'too big', value: 3 },
        { in: 'body', name: 'providerMetadata.flag', detail: 'no', value: true },
        { in: 'body', name: '/providerMetadata/region', detail: 'bad region', value: 'eu' },
        { in: 'body', name: '#/providerMetadata/nested/deep', detail: 'deep', value: 'x' },
        { in: 'body', name: 'body.providerMetadata.list[1]', detail: 'item', value: 'b' },
        { in: 'body', name: 'providerMetadata.region', detail: 'not the sent value', value: 'us' },
        { in: 'body', name: 'providerMetadata.toString', detail: 'inherited', value: 'x' },
        { in: 'body', name: 'providerWorkspaceRef.length', detail: 'not an object', value: 4 },
        { in: 'body', name: 'providerMetadata.nested', detail: 'an object', value: { deep: 'x' } },
        { in: 'body', detail: 5, value: 'slack' },
        { in: 'query', name: 'provider', detail: 'dropped', value: 'slack' },
      ];
      const filler = Array.from({ length: 15 }, (_, i) => ({ in: 'body', name: `f${i}`, detail: `filler ${i}` }));
      platform.reply = () => problemReply(400, { detail: 'invalid', issues: [...issues, ...filler] });
      const problem = await problemOf(await call(handler, '/oauth-connect', { method: 'POST', body }), 400);
      assert.equal(problem.issues.length, 19, '20 read, the one about the query dropped');
      assert.deepEqual(problem.issues.slice(0, 10), [
        { detail: 'too big', in: 'body', name: 'providerMetadata.size', value: 3 },
        { detail: 'no', in: 'body', name: 'providerMetadata.flag', value: true },
        { detail: 'bad region', in: 'body', name: '/providerMetadata/region', value: 'eu' },
        { detail: 'deep', in: 'body', name: '#/providerMetadata/nested/deep', value: 'x' },
        { detail: 'item', in: 'body', name: 'body.providerMetadata.list[1]', value: 'b' },
        { detail: 'not the sent value', in: 'body', name: 'providerMetadata.region' },
        { detail: 'inherited', in: 'body', name: 'providerMetadata.toString' },
        { detail: 'not an object', in: 'body', name: 'providerWorkspaceRef.length' },
        { detail: 'an object', in: 'body', name: 'providerMetadata.nested' },
        { detail: '', in: 'body' },
      ]);
      assert.equal(problem.issues.at(-1).name, 'f8');
    },
  );

  it(
    "never echoes the browser's own value when it holds the key or the platform's address",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const host = new URL(platform.url).host;
      platform.reply = () =>
        problemReply(400, {
          issues: [
            { in: 'body', name: 'providerMetadata.region', detail: 'bad', value: `ws ${host}` },
            { in: 'body', name: 'providerAppId', detail: 'bad', value: 'app-1' },
          ],
        });
      // (A providerWorkspaceRef holding a space or a colon never reaches the platform: provider-hints tests.)
      const problem = await problemOf(
        await call(handler, '/oauth-connect', {
          method: 'POST',
          body: { provider: 'slack', providerMetadata: { region: `ws ${host}` }, providerAppId: 'app-1' },
        }),
        400,
      );
      assert.deepEqual(problem.issues, [
        { detail: 'bad', in: 'body', name: 'providerMetadata.region' },
        { detail: 'bad', in: 'body', name: 'providerAppId', value: 'app-1' },
      ]);
    },
  );

  it('answers 429 retryable, passing Retry-After in whole seconds up to an hour', { timeout: 10_000 }, async () => {
    const handler = make();
    for (const [retryAfter, passed] of [
      ['7200', '3600'],
      ['3600', '3600'],
      ['2', '2'],
    ]) {
      platform.reply = () => problemReply(429, {}, { 'retry-after': retryAfter });
      const response = await call(handler, '/connections/conn_1');
      assert.equal(response.headers.get('retry-after'), passed, retryAfter);
      const body = await problemOf(response, 429);
      assert.equal(body.retryable, true);
      assert.equal(body.detail, 'the platform is rate limiting this app; try again shortly');
    }
    // A Retry-After date 2.5 s ahead is at least 2 s and less than 3 s away: rounded up to 3.
    platform.reply = () => problemReply(429, {}, { 'retry-after': new Date(Date.now() + 2900).toUTCString() });
    const dated = await call(handler, '/connections/conn_1');
    assert.ok(['2', '3'].includes(dated.headers.get('retry-after')!), String(dated.headers.get('retry-after')));
    platform.reply = () => problemReply(429);
    const none = await call(handler, '/connections/conn_1');
    assert.equal(none.headers.get('retry-after'), null);
    assert.deepEqual(errors, [], 'rate limiting is not a failure of the server');
  });

  it(
    'maps the 5xx family: 503 retryable, other statuses 502 retryable only when the platform says, 401/403 never',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const cases: Array<[Reply, number, string, string, boolean, string]> = [
        [
          problemReply(503),
          503,
          'urn:connect-provider:problem:upstream',
          'Service Unavailable',
          true,
          'the platform answered 503',
        ],
        [
          problemReply(500),
          502,
          'urn:connect-provider:problem:upstream',
          'Bad Gateway',
          false,
          'the platform answered 500',
        ],
        [
          problemReply(500, { retryable: true }),
          502,
          'urn:connect-provider:problem:upstream',
          'Bad Gateway',
          true,
          'the platform answered 500',
        ],
        [
          problemReply(504, { retryable: 'yes' }),
          502,
          'urn:connect-provider:problem:upstream',
          'Bad Gateway',
          false,
          'the platform answered 504',
        ],
        [
          problemReply(401),
          502,
          'urn:connect-provider:problem:upstream',
          'Bad Gateway',
          false,
          "the platform refused this server's credentials",
        ],
        [
          problemReply(403),
          502,
          'urn:connect-provider:problem:upstream',
          'Bad Gateway',
          false,
          "the platform refused this server's credentials",
        ],
        [
          problemReply(409),
          502,
          'urn:connect-provider:problem:upstream',
          'Bad Gateway',
          false,
          'the platform answered 409',
        ],
        [
          { body: '{"id": ' },
          502,
          'urn:connect-provider:problem:upstream',
          'Bad Gateway',
          false,
          'the platform gave an unreadable answer',
        ],
      ];
      for (const [reply, status, type, title, retryable, detail] of cases) {
        platform.reply = () => reply;
        errors.length = 0;
        const body = await problemOf(await call(handler, '/connections/conn_1'), status);
        assert.deepEqual(
          { type: body.type, title: body.title, retryable: body.retryable, detail: body.detail },
          { type, title, retryable, detail },
          JSON.stringify(reply),
        );
        assert.equal(errors.length, 1, 'the server is told');
        assert.equal(errors[0].kind, 'platform');
        assert.equal(errors[0].status, status);
      }
    },
  );

  it(
    'answers 502 retryable when the platform cannot be reached, 504 when it is too slow',
    { timeout: 10_000 },
    async () => {
      const gone = await startTestServer();
      await gone.close();
      const unreachable = make({ baseUrl: `${gone.url}/v1` });
      const body = await problemOf(await call(unreachable, '/connections/conn_1'), 502);
      assert.deepEqual(
        { type: body.type, title: body.title, retryable: body.retryable, detail: body.detail },
        {
          type: 'urn:connect-provider:problem:upstream',
          title: 'Bad Gateway',
          retryable: true,
          detail: 'the platform could not be reached',
        },
      );
      platform.reply = () => ({ delayMs: 1000, body: sampleConnection() });
      const slow = make({ timeoutMs: 50 });
      const late = await problemOf(await call(slow, '/connections/conn_1'), 504);
      assert.deepEqual(
        { type: late.type, title: late.title, retryable: late.retryable, detail: late.detail },
        {
          type: 'urn:connect-provider:problem:upstream-timeout',
          title: 'Gateway Timeout',
          retryable: true,
          detail: 'the platform did not answer in time',
        },
      );
      assert.deepEqual(
        errors.map((e) => [e.kind, e.status]),
        [
          ['platform', 502],
          ['platform', 504],
        ],
      );
    },
  );
});

describe('the platform, as the handler reads it', () => {
  const BASE: ConnectHandlerOptions = {
    apiKey: 'edge-key-123',
    baseUrl: 'https://platform.example/v1',
    project: 'demo',
    authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
  };

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
    "echoes an issue's value only when it is the browser's own text, number or boolean, at the path the issue names",
    { timeout: 10_000 },
    async () => {
      const handler = make();
      const list = Array.from({ length: 11 }, (_, i) => `item-${i}`);
      const sent = {
        provider: 'slack',
        providerMetadata: { body: { region: 'eu' }, list, 'tag#1': 'blue', none: null },
      };
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
            issue('providerMetadata.tag#1', 'blue'),
            issue('providerMetadata.none', null),
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
        { detail: 'is wrong', in: 'body', name: 'providerMetadata.tag#1', value: 'blue' },
        { detail: 'is wrong', in: 'body', name: 'providerMetadata.none' },
        { detail: '', in: 'body', name: 'provider' },
      ]);
    },
  );
});

// The platform client throws as it is what it refuses before sending (a `.` or `..` path segment, a TypeError); the
// handler's own checks keep those from it, so these are asked of platformFault itself.
describe("a failure that is not the platform's answer", () => {
  const scrub = createScrubber('fault-key-5Tq9Wz', 'https://platform.example/v1');

  it('answers 500 "the connect handler failed" and reports it as internal, naming what was thrown', () => {
    const thrown = new TypeError('connect-provider: provider must not be . or ..\nat the path check');
    const fault = platformFault(thrown, 'get-provider', { scrub });
    assert.ok(fault instanceof ServerFault, "a 500 is the server's: onError is told");
    assert.deepEqual(fault.init, { status: 500, detail: 'the connect handler failed' });
    assert.equal(fault.kind, 'internal');
    assert.equal(
      fault.logMessage,
      'platform get-provider threw TypeError: connect-provider: provider must not be . or ..',
    );
    assert.equal(fault.error, thrown);
  });

  it('says only that the call failed when what was thrown is no Error', () => {
    const fault = platformFault('gone', 'list-connections', { scrub });
    assert.ok(fault instanceof ServerFault);
    assert.deepEqual(fault.init, { status: 500, detail: 'the connect handler failed' });
    assert.equal(fault.kind, 'internal');
    assert.equal(fault.logMessage, 'platform list-connections failed');
  });
});
