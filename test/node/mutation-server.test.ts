// Rules of src/server that StrykerJS showed no test held (npm run mutate -- server):
// CORS and origin checks, the bounds of what the browser may send, how the
// platform's failures and connections are rebuilt for the browser, the handler's
// options and its log. Each is checked through what the browser or the platform
// sees: real HTTP to a platform double on loopback, the handler's own answers.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
  type ConnectUser,
} from '../../src/server/index.js';
import { sampleConnection } from '../shared/fixtures.js';
import { APP, call, problemReply, urlReply } from './helpers/handler-calls.js';
import { startTestServer, type RecordedRequest, type Reply, type TestServer } from './helpers/http-server.js';

const API_KEY = 'Mut-Key-7Hq2ZpLatformXyz';
const ADA: ConnectUser = { groupRef: 'acme', consumerRef: 'user-ada' };

async function problemOf(response: Response, status: number) {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  const body = JSON.parse(text);
  assert.equal(body.status, status);
  return body;
}

describe('the connect handler, rule by rule (mutation testing of src/server)', () => {
  let platform: TestServer;
  const errors: ConnectHandlerErrorInfo[] = [];
  let user: unknown = ADA;

  function make(options: Partial<ConnectHandlerOptions> = {}): ConnectHandler {
    return createConnectHandler({
      apiKey: API_KEY,
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => user as ConnectUser | null,
      retry: false,
      onError: (info) => errors.push(info),
      ...options,
    });
  }
  /** What the handler asked the platform since the test began (the platform double records every request). */
  const asked = (): RecordedRequest[] => platform.requests;

  before(async () => {
    platform = await startTestServer();
  });
  after(() => platform.close());
  beforeEach(() => {
    platform.requests.length = 0;
    platform.reply = () => urlReply('https://consent.example/start');
    errors.length = 0;
    user = ADA;
  });

  describe('CORS for allowedOrigins', () => {
    it(
      'answers a preflight with the methods, the asked headers (content-type by default) and a 10-minute cache',
      { timeout: 10_000 },
      async () => {
        const handler = make({ allowedOrigins: ['https://spa.example'] });
        const preflight = (headers: Record<string, string>) =>
          call(handler, '/oauth-connect', {
            method: 'OPTIONS',
            headers: {
              origin: 'https://spa.example',
              'sec-fetch-site': 'cross-site',
              'access-control-request-method': 'POST',
              ...headers,
            },
          });
        const asking = await preflight({ 'access-control-request-headers': 'content-type, x-csrf-token' });
        assert.equal(asking.status, 204);
        assert.equal(await asking.text(), '');
        assert.equal(asking.headers.get('access-control-allow-origin'), 'https://spa.example');
        assert.equal(asking.headers.get('access-control-allow-credentials'), 'true');
        assert.equal(asking.headers.get('vary'), 'Origin');
        assert.equal(asking.headers.get('access-control-allow-methods'), 'GET, POST, PATCH');
        assert.equal(asking.headers.get('access-control-allow-headers'), 'content-type, x-csrf-token');
        assert.equal(asking.headers.get('access-control-max-age'), '600');
        const plain = await preflight({});
        assert.equal(plain.headers.get('access-control-allow-headers'), 'content-type');
        assert.equal(asked().length, 0, 'a preflight never reaches the platform');
      },
    );

    it(
      'lets an allowed origin read every answer, its problems too, with credentials',
      { timeout: 10_000 },
      async () => {
        const handler = make({ allowedOrigins: ['https://spa.example', 'https://admin.example'] });
        const headers = { origin: 'https://admin.example', 'sec-fetch-site': 'cross-site' };
        const ok = await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' }, headers });
        assert.equal(ok.status, 200);
        for (const response of [ok]) {
          assert.equal(response.headers.get('access-control-allow-origin'), 'https://admin.example');
          assert.equal(response.headers.get('access-control-allow-credentials'), 'true');
          assert.equal(response.headers.get('vary'), 'Origin');
        }
        user = null;
        const signedOut = await call(handler, '/connections/conn_1', { headers });
        await problemOf(signedOut.clone(), 401);
        assert.equal(signedOut.headers.get('access-control-allow-origin'), 'https://admin.example');
        assert.equal(signedOut.headers.get('access-control-allow-credentials'), 'true');
        // A same-origin request gets no CORS headers, and an OPTIONS from it is an ordinary request (405).
        user = ADA;
        const own = await call(handler, '/oauth-connect', {
          method: 'POST',
          body: { provider: 'slack' },
          headers: { origin: APP },
        });
        assert.equal(own.status, 200);
        assert.equal(own.headers.get('access-control-allow-origin'), null);
        const options = await call(handler, '/oauth-connect', { method: 'OPTIONS', headers: { origin: APP } });
        await problemOf(options.clone(), 405);
        assert.equal(options.headers.get('allow'), 'POST');
      },
    );
  });

  describe('origin checks', () => {
    it(
      'refuses an Origin that does not parse, and a same-host Origin the browser marks cross-site',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        const bad = await problemOf(
          await call(handler, '/connections/conn_1', { headers: { origin: 'not a url' } }),
          403,
        );
        assert.equal(bad.type, 'urn:connect-provider:problem:forbidden-origin');
        assert.equal(bad.title, 'Forbidden');
        assert.match(bad.detail, /not a valid origin/);
        const crossSite = await problemOf(
          await call(handler, '/connections/conn_1', { headers: { origin: APP, 'sec-fetch-site': 'cross-site' } }),
          403,
        );
        assert.match(crossSite.detail, /cross-site/);
        assert.equal(asked().length, 0, 'a refused request never reaches the platform');
      },
    );

    it(
      'serves an Origin on the Host header or on any host of an X-Forwarded-Host chain, in any case',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        platform.reply = () => ({ body: sampleConnection({ id: 'conn_1' }) });
        const cases: Array<[Record<string, string>, number]> = [
          [{ origin: 'https://public.example', host: 'public.example' }, 200],
          [{ origin: 'https://public.example', 'x-forwarded-host': 'edge.internal:8080 ,  PUBLIC.example' }, 200],
          [{ origin: 'https://PUBLIC.EXAMPLE', 'x-forwarded-host': 'public.example' }, 200],
          [{ origin: APP, 'sec-fetch-site': 'same-site' }, 200],
          [{ origin: 'https://public.example', 'x-forwarded-host': 'edge.internal' }, 403],
          [{ origin: 'https://public.example:8443', host: 'public.example' }, 403],
        ];
        for (const [headers, status] of cases) {
          const response = await call(handler, '/connections/conn_1', { headers });
          assert.equal(response.status, status, JSON.stringify(headers));
        }
      },
    );

    it(
      'refuses a Host that is not plain with the bad-host problem, before anything else',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        const body = await problemOf(
          await call(handler, '/connections/conn_1', {
            headers: { host: 'app.test/x', origin: 'https://evil.example' },
          }),
          400,
        );
        assert.equal(body.type, 'urn:connect-provider:problem:bad-host');
        assert.equal(body.title, 'Bad Request');
        assert.match(body.detail, /^the Host header/);
        const forwarded = await problemOf(
          await call(handler, '/connections/conn_1', { headers: { 'x-forwarded-host': 'a.example, b.example/x' } }),
          400,
        );
        assert.match(forwarded.detail, /^the X-Forwarded-Host header/);
      },
    );
  });

  describe("oauth-connect's body", () => {
    const connect = (handler: ConnectHandler, body: unknown) =>
      call(handler, '/oauth-connect', { method: 'POST', body });
    const sent = () => JSON.parse(asked().at(-1)!.body);

    it('bounds provider and each hint at 512 characters, and forwards what fits', { timeout: 10_000 }, async () => {
      const handler = make();
      const long = 'p'.repeat(512);
      // The hints fit their own rules (a hostname label of 253 at most, an ID of 128 at most: provider-hints tests).
      const workspace = 'w'.repeat(253);
      const app = 'a'.repeat(128);
      assert.equal(
        (await connect(handler, { provider: long, providerWorkspaceRef: workspace, providerAppId: app })).status,
        200,
      );
      assert.deepEqual(sent(), {
        projectId: 'demo',
        provider: long,
        providerWorkspaceRef: workspace,
        providerAppId: app,
        groupRef: 'acme',
        consumerRef: 'user-ada',
      });
      const before = asked().length;
      for (const field of ['provider', 'providerWorkspaceRef', 'providerAppId']) {
        const body = await problemOf(await connect(handler, { provider: 'slack', [field]: `${long}x` }), 400);
        assert.equal(body.type, 'urn:connect-provider:problem:validation');
        assert.equal(body.title, 'Invalid request');
        assert.equal(body.detail, `${field} is too long`);
        assert.deepEqual(
          body.issues,
          [{ detail: 'is too long', in: 'body', name: field }],
          'a long value is not echoed',
        );
      }
      assert.equal(asked().length, before, 'nothing refused reaches the platform');
    });

    it(
      'drops empty and null hints, refuses hints and ignored fields that are not strings, echoing short values only',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        assert.equal(
          (
            await connect(handler, {
              provider: 'slack',
              providerWorkspaceRef: '',
              providerAppId: null,
              groupRef: null,
              consumerName: null,
              providerMetadata: null,
            })
          ).status,
          200,
        );
        assert.deepEqual(sent(), { projectId: 'demo', provider: 'slack', groupRef: 'acme', consumerRef: 'user-ada' });
        assert.equal(
          (await connect(handler, { provider: 'slack', groupRef: 'evil', consumerRef: 'mallory' })).status,
          200,
        );
        assert.equal(sent().groupRef, 'acme', 'group and consumer come from authorize(), never from the body');
        const cases: Array<[Record<string, unknown>, string, unknown]> = [
          [{ provider: '   ' }, 'provider', '   '],
          [{ provider: ' '.repeat(512) }, 'provider', ' '.repeat(512)],
          [{ provider: ' '.repeat(513) }, 'provider', undefined],
          [{ provider: 7 }, 'provider', 7],
          [{ provider: false }, 'provider', false],
          [{ provider: { name: 'slack' } }, 'provider', undefined],
          [{ provider: 'slack', providerAppId: true }, 'providerAppId', true],
          [{ provider: 'slack', providerWorkspaceRef: ['ws'] }, 'providerWorkspaceRef', undefined],
          [{ provider: 'slack', groupRef: 5 }, 'groupRef', 5],
          [{ provider: 'slack', consumerName: { a: 1 } }, 'consumerName', undefined],
          [{ provider: 'slack', groupName: 600 }, 'groupName', 600],
        ];
        for (const [body, name, value] of cases) {
          const problem = await problemOf(await connect(handler, body), 400);
          assert.equal(problem.issues.length, 1, JSON.stringify(body));
          assert.equal(problem.issues[0].name, name, JSON.stringify(body));
          assert.equal(problem.issues[0].in, 'body');
          assert.deepEqual(problem.issues[0].value, value, JSON.stringify(body));
          assert.equal('value' in problem.issues[0], value !== undefined, JSON.stringify(body));
        }
        assert.equal((await problemOf(await connect(handler, { provider: 7 }), 400)).detail, 'provider is required');
        const wrongType = await problemOf(await connect(handler, { provider: 'slack', providerAppId: 7 }), 400);
        assert.equal(wrongType.detail, 'providerAppId must be a string');
        assert.equal(wrongType.issues[0].detail, 'must be a string');
        for (const text of ['null', '"slack"', '[{"provider":"slack"}]', '7']) {
          const root = await problemOf(await connect(handler, text), 400);
          assert.equal(root.detail, '(root) must be a JSON object', text);
          assert.deepEqual(root.issues, [{ detail: 'must be a JSON object', in: 'body', name: '(root)' }], text);
        }
      },
    );

    it(
      'takes providerMetadata up to exactly 5 levels, 200 keys and items, and 4096 bytes of JSON',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        const nest = (levels: number) => {
          let value: Record<string, unknown> = { leaf: 1 };
          for (let i = 1; i < levels; i++) value = { d: value };
          return value;
        };
        const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
        // {"a":"…"} is 8 bytes around its text; é is 2 bytes in UTF-8.
        const fits: Array<[string, Record<string, unknown>]> = [
          ['5 levels', nest(5)],
          ['200 keys', keys(200)],
          ['199 keys and an array of 1', { ...keys(198), list: [1] }],
          ['4096 bytes', { a: 'x'.repeat(4088) }],
          ['nulls', { a: null, b: [null, 1], c: { d: null } }],
        ];
        for (const [name, providerMetadata] of fits) {
          assert.equal((await connect(handler, { provider: 'slack', providerMetadata })).status, 200, name);
          assert.deepEqual(sent().providerMetadata, providerMetadata, name);
        }
        const refused: Array<[string, unknown, string]> = [
          ['6 levels', nest(6), 'providerMetadata is nested deeper than 5 levels'],
          ['6 levels of arrays', { a: [[[[[]]]]] }, 'providerMetadata is nested deeper than 5 levels'],
          ['201 keys', keys(201), 'providerMetadata has more than 200 keys and items'],
          [
            '200 keys and an array of 1',
            { ...keys(199), list: [1] },
            'providerMetadata has more than 200 keys and items',
          ],
          ['4097 bytes', { a: 'x'.repeat(4089) }, 'providerMetadata is larger than 4096 bytes'],
          ['4098 bytes in 2053 characters', { a: 'é'.repeat(2045) }, 'providerMetadata is larger than 4096 bytes'],
          ['an array', ['eu'], 'providerMetadata must be an object'],
          ['a string', 'eu', 'providerMetadata must be an object'],
        ];
        for (const [name, providerMetadata, detail] of refused) {
          const body = await problemOf(await connect(handler, { provider: 'slack', providerMetadata }), 400);
          assert.equal(body.detail, detail, name);
          assert.equal(body.issues[0].name, 'providerMetadata', name);
        }
      },
    );
  });

  describe('connection IDs and the provider query', () => {
    it(
      'answers 404 without asking the platform for an ID that is empty, too long, undecodable or holds a control character',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        platform.reply = (request) =>
          request.method === 'PATCH' ? urlReply('https://consent.example/u') : { body: sampleConnection({ id: 'x' }) };
        for (const id of ['%E0%A4%A', 'a%00b', 'a%1Fb', 'a%7Fb', 'i'.repeat(513), '%69'.repeat(513)]) {
          for (const [path, method] of [
            [`/connections/${id}`, 'GET'],
            [`/connections/${id}:oauth-update`, 'PATCH'],
          ]) {
            const body = await problemOf(await call(handler, path, { method }), 404);
            assert.equal(body.detail, 'no such connection', id);
          }
        }
        assert.equal(asked().length, 0);
        const longest = 'i'.repeat(512);
        assert.equal((await call(handler, `/connections/${longest}`)).status, 200);
        assert.equal(asked()[0].path, `/v1/projects/demo/connections/${longest}`);
        assert.equal((await call(handler, '/connections/a%20b%2Fc:oauth-update', { method: 'PATCH' })).status, 200);
        assert.equal(
          asked().at(-1)!.path,
          '/v1/projects/demo/connections/a%20b%2Fc:oauth-update',
          'decoded, then encoded again',
        );
      },
    );

    it(
      'refuses a provider query that is blank, too long or holds a control character; forwards one that fits',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        platform.reply = () => ({ body: [] });
        for (const query of ['', '%20%20', 'a%01', 'a%7F', 'p'.repeat(513)]) {
          const body = await problemOf(await call(handler, `/connections?provider=${query}`), 400);
          assert.equal(body.type, 'urn:connect-provider:problem:validation', query);
          assert.equal(body.title, 'Invalid request');
          assert.deepEqual(body.issues, [
            { detail: 'must be a non-empty provider name', in: 'query', name: 'provider' },
          ]);
          assert.equal(body.detail, 'provider must be a non-empty provider name');
        }
        assert.equal(asked().length, 0);
        assert.equal((await call(handler, `/connections?provider=${'p'.repeat(512)}`)).status, 200);
        assert.equal(asked()[0].query.provider, 'p'.repeat(512));
        assert.equal((await call(handler, '/connections')).status, 200);
        assert.ok(!('provider' in asked()[1].query), 'no provider asked: any provider');
      },
    );

    it(
      'answers a provider outside the allow-list with provider-not-allowed, in the body or the query',
      { timeout: 10_000 },
      async () => {
        const handler = make({ providers: ['slack'] });
        platform.reply = () => ({ body: [] });
        const listed = await problemOf(await call(handler, '/connections?provider=notion'), 400);
        assert.equal(listed.type, 'urn:connect-provider:problem:provider-not-allowed');
        assert.equal(listed.title, 'Provider not allowed');
        assert.deepEqual(listed.issues, [
          { detail: 'is not offered by this app', in: 'query', name: 'provider', value: 'notion' },
        ]);
        const connected = await problemOf(
          await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'notion' } }),
          400,
        );
        assert.equal(connected.type, 'urn:connect-provider:problem:provider-not-allowed');
        assert.equal(connected.title, 'Provider not allowed');
        assert.deepEqual(connected.issues, [
          { detail: 'is not offered by this app', in: 'body', name: 'provider', value: 'notion' },
        ]);
        assert.equal(connected.detail, 'provider notion is not offered by this app');
        assert.equal(listed.detail, 'provider notion is not offered by this app');
        assert.equal(asked().length, 0);
        assert.equal((await call(handler, '/connections?provider=slack')).status, 200);
        assert.equal(asked()[0].query.provider, 'slack');
      },
    );
  });

  describe("the platform's failures", () => {
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

  describe("the platform's URLs", () => {
    it(
      'refuses a URL with a user name or a password alone, naming its scheme in the log',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        for (const [url, scheme] of [
          ['https://user@consent.example/x', 'https'],
          ['https://:secret@consent.example/x', 'https'],
          ['javascript:alert(1)', 'javascript'],
          ['no scheme at all', 'none'],
        ]) {
          platform.reply = () => urlReply(url);
          errors.length = 0;
          const body = await problemOf(
            await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } }),
            502,
          );
          assert.deepEqual(
            { type: body.type, title: body.title, retryable: body.retryable },
            { type: 'urn:connect-provider:problem:unusable-url', title: 'Bad Gateway', retryable: false },
          );
          assert.equal(
            errors[0].message,
            `POST /oauth-connect answered 502: platform oauth-connect answered an unusable URL (scheme ${scheme}:)`,
          );
          assert.equal(errors[0].kind, 'platform');
        }
      },
    );
  });

  describe("the platform's connections", () => {
    it(
      'keeps strings up to 2048 characters, timestamps that parse up to 64, enum values the spec has, scopes within bounds',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        const long = 'i'.repeat(2048);
        const stamp64 = `2026-01-01T00:00:00.${'0'.repeat(43)}Z`;
        const scope256 = 's'.repeat(256);
        const fits = {
          ...sampleConnection({ id: 'conn_1' }),
          provider: long,
          updateTime: stamp64,
          authScheme: 'apiKey',
          status: 'bad_credentials',
          providerWorkspaceRef: 'ws',
          providerConsumerRef: 'pc',
          providerApp: {
            id: 'app',
            externalRef: 'ext',
            scopes: [Array.from({ length: 256 }, () => scope256), ['a']],
            updateTime: '2026-02-01T00:00:00Z',
          },
        };
        platform.reply = () => ({ body: fits });
        const kept = await (await call(handler, '/connections/conn_1')).json();
        assert.equal(kept.provider, long);
        assert.equal(kept.updateTime, stamp64);
        assert.equal(kept.authScheme, 'apiKey');
        assert.equal(kept.status, 'bad_credentials');
        assert.deepEqual(kept.providerApp, fits.providerApp);
        assert.equal(kept.providerConsumerRef, 'pc');

        const over = {
          ...sampleConnection({ id: 'conn_1' }),
          provider: `${long}x`,
          createTime: `${stamp64.slice(0, -1)}0Z`,
          updateTime: 'yesterday',
          authScheme: 'bearer',
          status: 'deleted',
          providerApp: {
            id: 'app',
            scopes: [Array.from({ length: 257 }, () => 'a'), [`${scope256}s`], ['ok', 3], 'read', ['kept']],
          },
          consumer: ['u1'],
        };
        platform.reply = () => ({ body: over });
        const dropped = await (await call(handler, '/connections/conn_1')).json();
        for (const field of ['provider', 'createTime', 'updateTime', 'authScheme', 'status', 'consumer'])
          assert.ok(!(field in dropped), `${field}: ${JSON.stringify(dropped[field])}`);
        assert.deepEqual(dropped.providerApp.scopes, [['kept']]);
        platform.reply = () => ({
          body: {
            ...sampleConnection({ id: 'conn_1' }),
            providerApp: { id: 'app', scopes: Array.from({ length: 257 }, () => ['a']) },
          },
        });
        assert.deepEqual((await (await call(handler, '/connections/conn_1')).json()).providerApp, { id: 'app' });
        platform.reply = () => ({
          body: { ...sampleConnection({ id: 'conn_1' }), providerApp: { id: 'app', scopes: 'read write' } },
        });
        assert.deepEqual((await (await call(handler, '/connections/conn_1')).json()).providerApp, { id: 'app' });
      },
    );

    it(
      'lists newest first, those without a creation time last, only the asked provider, whatever the platform sends',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        platform.reply = () => ({
          body: [
            sampleConnection({ id: 'undated', provider: 'slack', createTime: 'someday' }),
            sampleConnection({ id: 'old', provider: 'slack', createTime: '2026-01-01T00:00:00Z' }),
            sampleConnection({ id: 'notion', provider: 'notion', createTime: '2026-03-01T00:00:00Z' }),
            sampleConnection({ id: 'new', provider: 'slack', createTime: '2026-02-01T00:00:00Z' }),
          ],
        });
        const ids = async (path: string) => (await (await call(handler, path)).json()).map((c: { id: string }) => c.id);
        assert.deepEqual(await ids('/connections?provider=slack'), ['new', 'old', 'undated']);
        assert.deepEqual(await ids('/connections'), ['notion', 'new', 'old', 'undated']);
        assert.deepEqual(
          asked()[0].query,
          { groupRef: 'acme', provider: 'slack' },
          "the group's connections, of any consumer",
        );
      },
    );

    it('answers 502 and tells the server when the list is not an array', { timeout: 10_000 }, async () => {
      const handler = make();
      platform.reply = () => ({ body: { connections: [sampleConnection()] } });
      const body = await problemOf(await call(handler, '/connections'), 502);
      assert.equal(body.type, 'urn:connect-provider:problem:upstream');
      assert.equal(body.detail, 'the platform gave an unreadable answer');
      assert.equal(errors.length, 1);
      assert.equal(errors[0].kind, 'platform');
      assert.match(
        errors[0].message,
        /^GET \/connections answered 502: platform list-connections answered something other than an array$/,
      );
    });
  });

  describe('a missing connection or a wrong project', () => {
    it(
      'asks once, with the caller group and consumer, whether the project exists, and trusts a yes for 5 minutes',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        platform.reply = (request) => (request.path.endsWith('/connections') ? { body: [] } : problemReply(404));
        for (let i = 0; i < 3; i++) {
          await problemOf(await call(handler, '/connections/gone'), 404);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.deepEqual(
          asked().map((r) => r.path),
          [
            '/v1/projects/demo/connections/gone',
            '/v1/projects/demo/connections',
            '/v1/projects/demo/connections/gone',
            '/v1/projects/demo/connections/gone',
          ],
        );
        assert.deepEqual(asked()[1].query, { groupRef: 'acme', consumerRef: 'user-ada' });
        assert.deepEqual(errors, []);
      },
    );

    it(
      'keeps a 404 a missing connection when the project check fails for another reason, and does not trust that',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        platform.reply = (request) => (request.path.endsWith('/connections') ? problemReply(500) : problemReply(404));
        for (let i = 0; i < 2; i++)
          assert.equal((await problemOf(await call(handler, '/connections/gone'), 404)).detail, 'no such connection');
        assert.equal(asked().length, 4, 'asked again: a failed check is no verdict');
        assert.deepEqual(errors, []);
      },
    );

    it(
      'names the project and the operation in the log of a misconfiguration, never the key',
      { timeout: 10_000 },
      async () => {
        const handler = make({ project: 'acme-prod' });
        platform.reply = () => problemReply(404);
        const body = await problemOf(await call(handler, '/connections/gone'), 502);
        assert.equal(body.type, 'urn:connect-provider:problem:misconfigured');
        assert.equal(body.title, 'Bad Gateway');
        assert.equal(body.retryable, false);
        assert.equal(errors.length, 1);
        assert.equal(errors[0].kind, 'misconfigured');
        assert.equal(errors[0].status, 502);
        assert.match(
          errors[0].message,
          /the platform answered 404 to get-connection for project "acme-prod" at http:\/\/127\.0\.0\.1:\d+\/v1: check/,
        );
        assert.ok(errors[0].error instanceof Error, 'the platform error is handed to the logger');
      },
    );
  });

  describe('routes, methods and who is calling', () => {
    it('serves each route with or without a trailing slash, and nothing past it', { timeout: 10_000 }, async () => {
      const handler = make();
      platform.reply = (request) => {
        if (request.method !== 'GET') return urlReply('https://consent.example/u');
        return { body: request.path.endsWith('/connections') ? [] : sampleConnection({ id: 'c1' }) };
      };
      const served: Array<[string, string]> = [
        ['POST', '/x/oauth-connect/'],
        ['GET', '/x/connections/'],
        ['GET', '/x/connections/c1/'],
        ['PATCH', '/x/connections/c1:oauth-update/'],
      ];
      for (const [method, path] of served) {
        const response = await call(handler, path, {
          method,
          ...(method === 'POST' ? { body: { provider: 'slack' } } : {}),
        });
        assert.equal(response.status, 200, `${method} ${path}`);
      }
      for (const path of [
        '/x/oauth-connectx',
        '/x/connections/c1/more',
        '/x/connections//',
        '/x/connectionsx',
        '/x/oauth-connect/x',
      ]) {
        const body = await problemOf(await call(handler, path), 404);
        assert.equal(body.detail, 'no such connect route', path);
      }
    });

    it('answers 405 naming the one allowed method of each route', { timeout: 10_000 }, async () => {
      const handler = make();
      for (const [path, allowed] of [
        ['/connections/c1:oauth-update', 'PATCH'],
        ['/connections', 'GET'],
        ['/connections/c1', 'GET'],
        ['/oauth-connect', 'POST'],
      ]) {
        const response = await call(handler, path, { method: 'PUT' });
        assert.equal(response.headers.get('allow'), allowed, path);
        const body = await problemOf(response, 405);
        assert.equal(body.detail, `PUT is not allowed here; allowed: ${allowed}`);
      }
      const long = await problemOf(await call(handler, '/connections', { method: 'PROPFIND-PROPFIND-PROPFIND' }), 405);
      assert.equal(long.detail, 'PROPFIND-PROPFIND-PR is not allowed here; allowed: GET');
      assert.equal(asked().length, 0);
    });

    it("forwards the user's names only when authorize() gives them", { timeout: 10_000 }, async () => {
      user = { ...ADA, groupName: 'Acme Inc.', consumerName: 'Ada' };
      const handler = make();
      await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } });
      const named = JSON.parse(asked()[0].body);
      assert.equal(named.groupName, 'Acme Inc.');
      assert.equal(named.consumerName, 'Ada');
      user = { ...ADA, groupName: '', consumerName: null };
      await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } });
      const unnamed = JSON.parse(asked()[1].body);
      assert.ok(!('groupName' in unnamed) && !('consumerName' in unnamed), asked()[1].body);
    });

    it(
      'answers 500 and tells the server when authorize() returns a user it cannot use',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        const long = 'g'.repeat(513);
        const unusable: unknown[] = [
          'acme',
          { groupRef: 'acme' },
          { groupRef: 'acme', consumerRef: '' },
          { groupRef: 7, consumerRef: 'u' },
          { groupRef: long, consumerRef: 'u' },
          { groupRef: 'acme', consumerRef: long },
          { ...ADA, groupName: long },
          { ...ADA, consumerName: long },
          { ...ADA, groupName: 5 },
          { ...ADA, consumerName: {} },
        ];
        for (const value of unusable) {
          user = value;
          errors.length = 0;
          const body = await problemOf(await call(handler, '/connections/c1'), 500);
          assert.equal(body.detail, 'the app could not check who you are', JSON.stringify(value));
          assert.equal(errors.length, 1, JSON.stringify(value));
          assert.equal(errors[0].kind, 'authorize');
          assert.match(errors[0].message, /authorize\(\) must return null or \{ groupRef, consumerRef \}/);
        }
        assert.equal(asked().length, 0);
        platform.reply = () => ({ body: sampleConnection({ id: 'c1', groupRef: 'g'.repeat(512) }) });
        for (const value of [
          {
            groupRef: 'g'.repeat(512),
            consumerRef: 'c'.repeat(512),
            groupName: 'n'.repeat(512),
            consumerName: 'm'.repeat(512),
          },
          { ...ADA, groupRef: 'g'.repeat(512), groupName: null, consumerName: undefined },
        ]) {
          user = value;
          assert.equal((await call(handler, '/connections/c1')).status, 200, JSON.stringify(value).slice(0, 80));
        }
        user = undefined;
        await problemOf(await call(handler, '/connections/c1'), 401);
      },
    );

    it(
      'logs what authorize() threw on one line: its name and first line, or its type',
      { timeout: 10_000 },
      async () => {
        let thrown: unknown = new RangeError(`session store down\n${'x'.repeat(300)}`);
        const handler = make({
          authorize: () => {
            throw thrown;
          },
        });
        await problemOf(await call(handler, '/connections/c1'), 500);
        assert.equal(
          errors[0].message,
          'GET /connections/c1 answered 500: authorize() threw RangeError: session store down',
        );
        assert.equal(errors[0].error, thrown);
        thrown = `session ${'y'.repeat(300)}`;
        await problemOf(await call(handler, '/connections/c1'), 500);
        assert.equal(errors[1].message, 'GET /connections/c1 answered 500: authorize() threw string');
        thrown = new Error(`sessions unreachable with ${API_KEY.toLowerCase()} and ${API_KEY}`);
        await problemOf(await call(handler, '/connections/c1'), 500);
        assert.equal(
          errors.at(-1)!.message,
          'GET /connections/c1 answered 500: authorize() threw Error: sessions unreachable with [redacted] and [redacted]',
        );
        errors.splice(2);
        thrown = new Error('z'.repeat(300));
        await problemOf(await call(handler, '/connections/c1'), 500);
        assert.equal(
          errors[2].message,
          `GET /connections/c1 answered 500: authorize() threw Error: ${'z'.repeat(239)}…`,
        );
      },
    );

    it(
      'answers 500 "the connect handler failed" for an unexpected error, and tells the server',
      { timeout: 10_000 },
      async () => {
        user = {
          consumerRef: 'u',
          get groupRef(): string {
            throw new TypeError('groupRef getter broke');
          },
        };
        const handler = make();
        const body = await problemOf(await call(handler, '/connections/c1'), 500);
        assert.equal(body.detail, 'the connect handler failed');
        assert.equal(errors.length, 1);
        assert.equal(errors[0].kind, 'internal');
        assert.equal(
          errors[0].message,
          'GET /connections/c1 answered 500: unexpected TypeError: groupRef getter broke',
        );
      },
    );
  });

  describe('what the server is told (onError)', () => {
    it(
      'gives method, path and status, hides the key in any case, keeps one line and at most 200 characters of path',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        platform.reply = () =>
          problemReply(500, { title: `Broken ${API_KEY.toUpperCase()}`, detail: `first line ${API_KEY}\nsecond line` });
        const path = `/connections/${'c'.repeat(300)}`;
        await problemOf(await call(handler, path), 502);
        assert.equal(errors.length, 1);
        const [info] = errors;
        assert.equal(info.method, 'GET');
        assert.equal(info.path, path);
        assert.equal(info.status, 502);
        assert.equal(info.kind, 'platform');
        assert.equal(
          info.message,
          `GET ${path.slice(0, 200)} answered 502: platform get-connection answered 500 Broken [redacted]: first line [redacted]`,
        );
      },
    );

    it(
      "logs the first 160 characters of the platform's detail, and what the client says when there is no answer",
      { timeout: 10_000 },
      async () => {
        const handler = make();
        platform.reply = () => problemReply(500, { title: 'Down', detail: 'd'.repeat(300) });
        await problemOf(await call(handler, '/connections/c1'), 502);
        assert.equal(
          errors[0].message,
          `GET /connections/c1 answered 502: platform get-connection answered 500 Down: ${'d'.repeat(159)}…`,
        );
        platform.reply = () => ({ body: 'not json' });
        await problemOf(await call(handler, '/connections/c1'), 502);
        assert.match(
          errors[1].message,
          /^GET \/connections\/c1 answered 502: platform get-connection the answer to GET .* is not JSON$/,
        );
      },
    );

    it('answers the same when the logger throws', { timeout: 10_000 }, async () => {
      const handler = make({
        onError: () => {
          throw new Error('logger down');
        },
      });
      platform.reply = () => problemReply(500);
      const body = await problemOf(await call(handler, '/connections/c1'), 502);
      assert.equal(body.detail, 'the platform answered 500');
    });

    it(
      'tells nothing and answers 499 when the browser went away before the platform answered',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        const controller = new AbortController();
        // The browser leaves while the platform looks the connection up.
        platform.reply = (request) => {
          if (request.method !== 'GET') return urlReply('https://consent.example/u');
          controller.abort();
          return { body: sampleConnection({ id: 'c1' }) };
        };
        const response = await call(handler, '/connections/c1:oauth-update', {
          method: 'PATCH',
          signal: controller.signal,
        });
        const body = await problemOf(response, 499);
        assert.equal(body.title, 'Client Closed Request');
        assert.equal(body.detail, 'the request was aborted');
        assert.deepEqual(
          asked().map((r) => r.method),
          ['GET'],
          'no update URL is asked for a browser that left',
        );
        assert.deepEqual(errors, []);
      },
    );
  });

  describe('options', () => {
    it(
      'reads bodies up to bodyLimit bytes (16384 by default) and answers 413 past it',
      { timeout: 10_000 },
      async () => {
        const padded = (bytes: number) => {
          const json = '{"provider":"slack"}';
          return json + ' '.repeat(bytes - json.length);
        };
        const byDefault = make();
        assert.equal((await call(byDefault, '/oauth-connect', { method: 'POST', body: padded(16384) })).status, 200);
        const over = await problemOf(
          await call(byDefault, '/oauth-connect', { method: 'POST', body: padded(16385) }),
          413,
        );
        assert.equal(over.detail, 'the body is larger than 16384 bytes');
        const small = make({ bodyLimit: 100 });
        assert.equal((await call(small, '/oauth-connect', { method: 'POST', body: padded(100) })).status, 200);
        await problemOf(await call(small, '/oauth-connect', { method: 'POST', body: padded(101) }), 413);
      },
    );

    it(
      'takes whole numbers from 1 up to the bounds for bodyLimit (1 MiB) and timeoutMs (10 minutes)',
      { timeout: 10_000 },
      () => {
        for (const options of [{ bodyLimit: 1 }, { bodyLimit: 1024 * 1024 }, { timeoutMs: 1 }, { timeoutMs: 600000 }]) {
          assert.equal(typeof make(options), 'function', JSON.stringify(options));
        }
        for (const [options, message] of [
          [{ bodyLimit: 1024 * 1024 + 1 }, /bodyLimit must be a whole number from 1 to 1048576, got number 1048577/],
          [{ bodyLimit: 0 }, /bodyLimit must be a whole number from 1 to 1048576, got number 0/],
          [{ bodyLimit: 1.5 }, /bodyLimit/],
          [{ bodyLimit: Number.NaN }, /bodyLimit/],
          [{ timeoutMs: 600001 }, /timeoutMs must be a whole number from 1 to 600000/],
          [{ timeoutMs: -5 }, /timeoutMs/],
          [{ bodyLimit: null }, /bodyLimit must be a whole number from 1 to 1048576, got null/],
        ] as const) {
          assert.throws(
            () => make(options as never),
            (error: unknown) => error instanceof TypeError && message.test(error.message),
            JSON.stringify(options),
          );
        }
      },
    );

    it(
      'refuses provider names that are blank, and origins that are not exactly scheme, host and port',
      { timeout: 10_000 },
      () => {
        const refused: Array<[Partial<ConnectHandlerOptions>, RegExp]> = [
          [
            { providers: ['slack', '  '] },
            /providers must hold provider names \(non-empty strings\), got the string " {2}"/,
          ],
          [{ allowedOrigins: ['https://spa.example/app'] }, /allowedOrigins\[0\] must be an origin/],
          [{ allowedOrigins: ['https://spa.example', 'ftp://spa.example'] }, /allowedOrigins\[1\] must be an origin/],
          [{ allowedOrigins: ['spa.example'] }, /allowedOrigins\[0\] must be an origin like/],
          [
            { allowedOrigins: [42 as never] },
            /allowedOrigins\[0\] must be an origin string like "https:\/\/app.example", got number 42/,
          ],
          [{ messageOrigin: 'https://consent.example/' }, /messageOrigin must be an origin/],
          [{ project: '   ' }, /project is required/],
          [{ apiKey: '   ' }, /apiKey is required/],
          [{ apiKey: 'key\u00e9' }, /apiKey holds spaces or characters/],
          [{ baseUrl: 'https://platform.example/v1?x=1' }, /must not hold credentials, a query or a fragment/],
          [{ baseUrl: 'https://platform.example/v1#x' }, /must not hold credentials, a query or a fragment/],
          [{ baseUrl: 'https://:pw@platform.example/v1' }, /must not hold credentials/],
          [{ baseUrl: 'https://platform.example/api/v2/' }, /did you mean "https:\/\/platform.example\/api\/v2\/v1"\?/],
          [{ baseUrl: 'https://platform.example/v10' }, /baseUrl must end in \/v1/],
          [{ retry: null as never }, /retry must be false or an object like \{ retries: 2 \}, got null/],
          [{ retry: [] as never }, /retry must be false or an object/],
        ];
        for (const [options, message] of refused) {
          assert.throws(
            () => make(options),
            (error: unknown) => error instanceof TypeError && message.test(error.message),
            JSON.stringify(options),
          );
        }
        for (const options of [
          { allowedOrigins: ['http://localhost:5173', 'https://spa.example'] },
          { messageOrigin: 'https://consent.example' },
          { apiKey: '~!key' },
          { retry: { retries: 0 } },
        ]) {
          assert.equal(typeof make(options), 'function', JSON.stringify(options));
        }
      },
    );

    it(
      'answers with messageOrigin when given, and reaches the platform under a baseUrl that ends in a slash',
      { timeout: 10_000 },
      async () => {
        const handler = make({ messageOrigin: 'https://consent.example', baseUrl: `${platform.url}/v1/` });
        const answer = await (
          await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } })
        ).json();
        assert.deepEqual(answer, { url: 'https://consent.example/start', messageOrigin: 'https://consent.example' });
        assert.equal(asked()[0].path, '/v1/oauth-connect');
      },
    );

    it(
      'retries a failing platform twice by default, and not at all with retry: false',
      { timeout: 10_000 },
      async () => {
        platform.reply = () => problemReply(503, {}, { 'retry-after': '0' });
        await problemOf(await call(make({ retry: undefined }), '/connections/c1'), 503);
        assert.equal(asked().length, 3);
        platform.requests.length = 0;
        await problemOf(await call(make(), '/connections/c1'), 503);
        assert.equal(asked().length, 1);
        // A Retry-After past 3 s is not waited for.
        platform.requests.length = 0;
        platform.reply = () => problemReply(503, {}, { 'retry-after': '4' });
        await problemOf(await call(make({ retry: undefined }), '/connections/c1'), 503);
        assert.equal(asked().length, 1);
      },
    );

    it('warns at start-up only for plain http off loopback', { timeout: 10_000 }, () => {
      const warnings: string[] = [];
      const original = console.warn;
      console.warn = (line: string) => warnings.push(line);
      try {
        for (const baseUrl of [
          'http://localhost/v1',
          'http://LOCALHOST./v1',
          'http://api.localhost:8080/v1',
          'http://127.10.0.1/v1',
          'http://[::1]:4010/v1',
          'https://platform.example/v1',
        ]) {
          make({ baseUrl });
          assert.deepEqual(warnings, [], baseUrl);
        }
        for (const baseUrl of [
          'http://platform.example/v1',
          'http://127.0.0.1.nip.io/v1',
          'http://localhostx/v1',
          'http://notlocalhost/v1',
          'http://[::2]/v1',
        ]) {
          warnings.length = 0;
          make({ baseUrl });
          assert.equal(warnings.length, 1, baseUrl);
          assert.match(
            warnings[0],
            /^\[connect-provider\] baseUrl http:\/\/.* is plain http on a host that is not loopback/,
          );
        }
      } finally {
        console.warn = original;
      }
    });
  });

  describe("what the browser sees of the platform's text (the scrubber)", () => {
    const KEY = 'sk+Live/Key=9Zq~Abc.Def';
    /** The detail the browser gets when the platform refuses a request with `text` as its detail. */
    async function seen(handler: ConnectHandler, text: string): Promise<string> {
      platform.reply = () => problemReply(400, { detail: text });
      return (await problemOf(await call(handler, '/connections/c1'), 400)).detail;
    }
    /** A handler whose platform has another address, reached through a fetch that maps it to the double. */
    const behind = (baseUrl: string) =>
      make({
        apiKey: KEY,
        baseUrl,
        fetch: (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          return fetch(url.replace(new URL(baseUrl).origin, platform.url), init);
        },
      });

    it(
      'hides the key in any case, URL-encoded, in hex, and any run of 12 of its characters, but not a run of 11',
      { timeout: 10_000 },
      async () => {
        const handler = make({ apiKey: KEY });
        assert.equal(
          await seen(handler, `a ${KEY.toUpperCase()} b ${KEY.toLowerCase()} c`),
          'a [redacted] b [redacted] c',
        );
        assert.equal(await seen(handler, `q=${encodeURIComponent(KEY)}&r=1`), 'q=[redacted]&r=1');
        const hex = Buffer.from(KEY).toString('hex');
        assert.equal(await seen(handler, `hex ${hex} HEX ${hex.toUpperCase()}.`), 'hex [redacted] HEX [redacted].');
        assert.equal(await seen(handler, `part x${KEY.slice(5, 17)}y`), 'part x[redacted]y');
        assert.equal(
          await seen(handler, `short ${KEY.slice(0, 11)} and ${KEY.slice(12)}`),
          `short ${KEY.slice(0, 11)} and ${KEY.slice(12)}`,
        );
      },
    );

    it('hides the key base64-encoded, standard and URL-safe, at each byte alignment', { timeout: 10_000 }, async () => {
      const handler = make({ apiKey: KEY });
      for (const prefix of ['', 'a', 'ab', 'abc']) {
        for (const encoding of ['base64', 'base64url'] as const) {
          const encoded = Buffer.from(`${prefix}${KEY}!`).toString(encoding);
          const detail = await seen(handler, `token ${encoded} end`);
          assert.match(detail, /^token \S*\[redacted\]\S* end$/, `${prefix} ${encoding}: ${detail}`);
          assert.ok(detail.length < encoded.length, `${prefix} ${encoding}: ${detail}`);
        }
      }
      // Base64 is case-sensitive: the same letters in another case are not the key.
      const other = Buffer.from(KEY).toString('base64').replace(/=+$/, '').toLowerCase();
      assert.equal(await seen(handler, other), other);
    });

    it(
      "hides the platform's host and port in any form, an explicit port also as a bare number",
      { timeout: 10_000 },
      async () => {
        const handler = make();
        const { hostname, port, host } = new URL(platform.url);
        assert.equal(
          await seen(handler, `host ${hostname} and ${host} then`),
          'host [redacted] and [redacted] [redacted] then',
        );
        assert.equal(
          await seen(handler, `port ${port}, ${port}5, 1${port} and .${port}`),
          `port [redacted], ${port}5, 1${port} and .${port}`,
        );
        assert.equal(await seen(handler, `encoded ${encodeURIComponent(`x:${port}`)}`), 'encoded x [redacted]');
        assert.equal(
          await seen(handler, `see ${platform.url}/v1/x?key=1 or ftp://files.example/a, then`),
          'see [url] or [url] then',
        );
      },
    );

    it(
      'hides an IPv6 platform in its compressed, expanded and short forms, with or without brackets',
      { timeout: 10_000 },
      async () => {
        const handler = behind('http://[::1]:4010/v1');
        assert.equal(
          await seen(handler, 'at ::1 or [::1] or 0000:0000:0000:0000:0000:0000:0000:0001 or 0:0:0:0:0:0:0:1 end'),
          'at [redacted] or [redacted] or [redacted] or [redacted] end',
        );
        assert.equal(
          await seen(handler, 'port 4010 or :4010 or %3A4010'),
          'port [redacted] or [redacted] or [redacted]',
        );
      },
    );

    it('hides an implicit port only after a colon', { timeout: 10_000 }, async () => {
      const handler = behind('https://Platform.Example/v1');
      assert.equal(
        await seen(handler, 'PLATFORM.example:443 and 443 apples and platform.example%3a443'),
        '[redacted] [redacted] and 443 apples and [redacted] [redacted]',
      );
    });

    it(
      'removes stack frames and control characters, folds runs of spaces, and cuts at 500 characters',
      { timeout: 10_000 },
      async () => {
        const handler = make();
        assert.equal(
          await seen(
            handler,
            'boom\n    at handler (/srv/app/routes.js:41:13)\n    at async Promise.all (index 0)\n    at node:internal/process/task_queues:95:5 end',
          ),
          'boom end',
        );
        assert.equal(await seen(handler, 'C:\\srv\\app.js:12:5 and at Array.map (native) done'), 'and done');
        assert.equal(await seen(handler, 'a\u0001b\u007fc\u0000d   e\tf'), 'a b c d e\tf');
        const long = await seen(handler, 'w'.repeat(600));
        assert.equal(long, `${'w'.repeat(499)}…`);
        assert.equal(await seen(handler, 'v'.repeat(500)), 'v'.repeat(500));
      },
    );
  });
});
