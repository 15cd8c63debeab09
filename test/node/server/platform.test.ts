// What of the platform's answers reaches the browser (src/server/platform.ts and the allow-lists it applies): URLs,
// connections and problems, and a 404 that can only mean wrong options told as a misconfiguration.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { call, problemReply, urlReply } from '../helpers/handler-calls.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';
import { handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

const API_KEY = 'Sk-Live-9fQ2xYplatformKEY';

const authorize: ConnectHandlerOptions['authorize'] = (request) => {
  const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  if (sid === 'ada') return { groupRef: 'acme', consumerRef: 'user-ada' };
  return null;
};

/** Every form in which the platform's address or the key could be written. */
function leakForms(platformUrl: string): string[] {
  const url = new URL(platformUrl);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return [
    API_KEY,
    API_KEY.toLowerCase(),
    API_KEY.toUpperCase(),
    encodeURIComponent(`key=${API_KEY}`),
    b64(API_KEY),
    b64(`Basic x:${API_KEY}`),
    Buffer.from(API_KEY).toString('hex'),
    `${url.origin}/v1/projects/p`,
    `${url.origin.toUpperCase()}/V1/projects/p`,
    `${url.host}/v1/projects/p`,
    `${url.hostname}:${url.port}`,
    encodeURIComponent(`${url.origin}/v1`),
    `port ${url.hostname} :${url.port}`,
  ];
}

/** The words of `text` that show a leak: the key (any run of 12 of its characters, any case), the host or the port. */
function leaks(text: string, platformUrl: string): string[] {
  const url = new URL(platformUrl);
  const found: string[] = [];
  const lower = text.toLowerCase();
  for (let i = 0; i + 12 <= API_KEY.length; i++)
    if (lower.includes(API_KEY.slice(i, i + 12).toLowerCase())) found.push('key');
  for (const form of [
    Buffer.from(API_KEY).toString('base64').slice(0, 16),
    Buffer.from(API_KEY).toString('hex').slice(0, 16),
  ]) {
    if (lower.includes(form.toLowerCase())) found.push(`encoded key ${form}`);
  }
  if (lower.includes(url.hostname)) found.push('host');
  if (text.includes(url.port)) found.push('port');
  if (/\bat .*:\d+:\d+/.test(text) || /\.ts:\d+/.test(text)) found.push('stack');
  return found;
}

describe("what of the platform's answers reaches the browser", () => {
  let platform: TestServer;
  let handler: ConnectHandler;
  const errors: ConnectHandlerErrorInfo[] = [];

  before(async () => {
    platform = await startTestServer();
    handler = createConnectHandler({
      apiKey: API_KEY,
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize,
      retry: false,
      onError: (info) => errors.push(info),
    });
  });
  after(() => platform.close());

  describe('URLs', () => {
    const refused = [
      'javascript:alert(document.domain)',
      'data:text/html,<script>alert(1)</script>',
      'http://evil.example/phish',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://consent.example/x',
      '//evil.example/x',
      'https://user:pass@consent.example/x',
      'not a url',
    ];
    for (const url of refused) {
      it(`answers 502 "unusable URL" for ${url}`, async () => {
        for (const [path, method, body] of [
          ['/oauth-connect', 'POST', { provider: 'slack' }],
          ['/connections/conn_1:oauth-update', 'PATCH', undefined],
        ] as const) {
          let calls = 0;
          platform.reply = (request) => {
            calls++;
            if (request.method === 'GET') return { body: sampleConnection({ id: 'conn_1' }) };
            return urlReply(url);
          };
          errors.length = 0;
          const response = await call(handler, path, { method, body });
          const text = await response.text();
          assert.equal(response.status, 502, `${method} ${path}: ${text}`);
          assert.equal(JSON.parse(text).type, 'urn:connect-provider:problem:unusable-url');
          assert.match(JSON.parse(text).detail, /unusable URL/);
          assert.ok(!text.includes(url.slice(0, 12)), text);
          assert.ok(calls >= 1);
          assert.equal(errors.length, 1, 'the server is told');
          assert.equal(errors[0].kind, 'platform');
        }
      });
    }

    it('passes an https URL, as JSON string or as text', async () => {
      for (const answer of [
        { body: JSON.stringify('https://consent.example/start?c=1'), headers: { 'content-type': 'application/json' } },
        urlReply('https://consent.example/start?c=1'),
      ]) {
        platform.reply = () => answer;
        const response = await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } });
        assert.equal(response.status, 200);
        assert.equal((await response.json()).url, 'https://consent.example/start?c=1');
      }
    });

    it('passes http only on a loopback platform, and only to a loopback host', async () => {
      platform.reply = () => urlReply('http://127.0.0.1:9/consent');
      assert.equal(
        (await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } })).status,
        200,
      );
      platform.reply = () => urlReply('http://consent.example/consent');
      assert.equal(
        (await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } })).status,
        502,
      );
      // The same loopback URL from a platform that is not on loopback (reached here through a fetch that maps its host).
      const remote = createConnectHandler({
        apiKey: API_KEY,
        baseUrl: 'https://platform.example/v1',
        project: 'demo',
        authorize,
        retry: false,
        onError: () => {},
        fetch: (input, init) =>
          fetch(
            String(input instanceof Request ? input.url : input).replace('https://platform.example', platform.url),
            init,
          ),
      });
      platform.reply = () => urlReply('http://127.0.0.1:9/consent');
      assert.equal((await call(remote, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } })).status, 502);
      platform.reply = () => urlReply('https://consent.example/x');
      assert.equal((await call(remote, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } })).status, 200);
    });
  });

  describe('connections', () => {
    it('sends the browser only the allow-listed fields, whatever the platform adds', async () => {
      platform.reply = () => ({
        body: {
          ...sampleConnection({ id: 'conn_1', providerWorkspaceRef: 'ws', providerConsumerRef: 'pc' }),
          providerApp: {
            id: 'app',
            projectId: 'p',
            provider: 'hubspot',
            clientId: 'cid',
            scopes: [['a', 'b']],
            clientSecret: 'LEAK-app-secret',
            createTime: '2026-01-01T00:00:00Z',
          },
          oauth2AuthorizationCode: { accessToken: { token: 'LEAK-access' }, refreshToken: { token: 'LEAK-refresh' } },
          apiKey: 'LEAK-apikey',
          basic: { username: 'u', password: 'LEAK-basic' },
          oauth2ClientCredentials: { clientId: 'c', clientSecret: 'LEAK-cc' },
          oauth2Password: { username: 'u', password: 'LEAK-pw' },
          credentials: { token: 'LEAK-token' },
          providerMetadata: { instanceUrl: 'LEAK-meta' },
          group: {
            groupRef: 'acme',
            groupName: 'Acme',
            projectId: 'p',
            createTime: '2026-01-01T00:00:00Z',
            secret: 'LEAK-group',
          },
          consumer: {
            consumerRef: 'u1',
            consumerName: 'U',
            projectId: 'p',
            createTime: '2026-01-01T00:00:00Z',
            token: 'LEAK-consumer',
          },
          status: { nested: 'LEAK-status-object' },
          futureField: 'LEAK-future',
        },
      });
      const response = await call(handler, '/connections/conn_1');
      assert.equal(response.status, 200);
      const text = await response.text();
      assert.ok(!text.includes('LEAK'), text);
      const connection = JSON.parse(text);
      assert.deepEqual(Object.keys(connection).sort(), [
        'authScheme',
        'consumer',
        'createTime',
        'group',
        'id',
        'projectId',
        'provider',
        'providerApp',
        'providerConsumerRef',
        'providerWorkspaceRef',
      ]);
      assert.deepEqual(connection.providerApp.scopes, [['a', 'b']]);
      assert.equal(connection.group.groupName, 'Acme');
    });

    for (const [name, group] of [
      ['no group', undefined],
      ['a null group', null],
      ['a group without groupRef', { groupName: 'acme' }],
      ['a groupRef that is not a string', { groupRef: ['acme'] }],
      ['another group', { groupRef: 'other' }],
      ['a group that differs in case', { groupRef: 'ACME' }],
    ] as const) {
      it(`answers 404 for a connection with ${name}`, async () => {
        const connection: Record<string, unknown> = { ...sampleConnection({ id: 'conn_1' }) };
        if (group === undefined) delete connection.group;
        else connection.group = group;
        let updates = 0;
        platform.reply = (request) => {
          if (request.method === 'PATCH') updates++;
          return request.method === 'PATCH' ? urlReply('https://consent.example/x') : { body: connection };
        };
        assert.equal((await call(handler, '/connections/conn_1')).status, 404);
        assert.equal((await call(handler, '/connections/conn_1:oauth-update', { method: 'PATCH' })).status, 404);
        assert.equal(updates, 0, 'no update URL is asked for');
      });
    }
  });

  describe('problems', () => {
    it("rebuilds a 400 from an allow-list: detail and issues scrubbed, values only the browser's own", async () => {
      const forms = leakForms(platform.url);
      platform.reply = () => ({
        status: 400,
        headers: { 'content-type': 'application/problem+json' },
        body: {
          type: `${platform.url}/problems/validation`,
          title: `Invalid ${API_KEY}`,
          status: 400,
          detail: `bad request ${forms.join(' ')}\n    at validate (/srv/platform/src/check.ts:12:5)`,
          instance: `${platform.url}/v1/oauth-connect`,
          requestId: API_KEY,
          supportUrl: `${platform.url}/help`,
          context: { key: API_KEY },
          remedy: forms.join(' '),
          causes: forms,
          issues: [
            {
              in: 'body',
              name: 'provider',
              detail: `unknown provider (key ${API_KEY.toLowerCase()})`,
              value: 'myspace',
            },
            { in: 'body', name: 'providerWorkspaceRef', detail: 'not yours', value: API_KEY },
            { in: 'body', name: 'groupRef', detail: 'bad group', value: 'acme' },
            { in: 'body', name: 'providerMetadata.region', detail: 'bad region', value: 'eu' },
            { in: 'header', name: 'X-Api-Key', detail: 'wrong', value: API_KEY },
            { in: 'body', name: `${platform.url}`, detail: forms.join(' '), value: { key: API_KEY } },
          ],
        },
      });
      const response = await call(handler, '/oauth-connect', {
        method: 'POST',
        body: { provider: 'myspace', providerWorkspaceRef: 'ws-1', providerMetadata: { region: 'eu' } },
      });
      const text = await response.text();
      assert.equal(response.status, 400, text);
      assert.deepEqual(leaks(text, platform.url), [], text);
      const problem = JSON.parse(text);
      assert.deepEqual(Object.keys(problem).sort(), [
        'detail',
        'instance',
        'issues',
        'status',
        'time',
        'title',
        'type',
      ]);
      assert.equal(problem.type, 'urn:connect-provider:problem:validation');
      assert.match(problem.detail, /^bad request/);
      const byName = Object.fromEntries(problem.issues.map((i: { name: string }) => [i.name, i]));
      assert.equal(byName.provider.value, 'myspace', "the browser's own value is kept");
      assert.equal(byName['providerMetadata.region'].value, 'eu', 'a nested own value is kept');
      assert.ok(!('value' in byName.providerWorkspaceRef), 'a value the browser did not send is dropped');
      assert.ok(!('value' in byName.groupRef), "groupRef is not the browser's input");
      assert.ok(!problem.issues.some((i: { in: string }) => i.in !== 'body'), 'issues about headers are dropped');
    });

    for (const status of [500, 502, 503, 401, 403, 418]) {
      it(`names neither the key nor the platform's address in the ${status} it turns into a 5xx`, async () => {
        const forms = leakForms(platform.url);
        platform.reply = () => ({
          status,
          headers: { 'content-type': 'application/problem+json' },
          body: {
            title: `Failed ${API_KEY}`,
            status,
            detail: `upstream ${forms.join(' ')}`,
            instance: `${platform.url}/v1/x`,
          },
        });
        errors.length = 0;
        const response = await call(handler, '/connections/conn_1');
        const text = await response.text();
        assert.ok(response.status >= 500, text);
        assert.deepEqual(leaks(text, platform.url), [], text);
        assert.equal(errors.length, 1);
        assert.ok(!errors[0].message.includes(API_KEY), errors[0].message);
      });
    }

    it('logs one console.error line by default, with no form of the key in it', async () => {
      const quiet = createConnectHandler({
        apiKey: API_KEY,
        baseUrl: `${platform.url}/v1`,
        project: 'demo',
        authorize,
        retry: false,
      });
      platform.reply = () => ({
        status: 500,
        headers: { 'content-type': 'application/problem+json' },
        body: {
          status: 500,
          title: `Key ${API_KEY.toLowerCase()}`,
          detail: `bad key ${API_KEY.toUpperCase()} ${Buffer.from(API_KEY).toString('base64')}\nline two`,
        },
      });
      // authorize()'s own error text goes to the log too: the key in it is hidden as well.
      const careless = createConnectHandler({
        apiKey: API_KEY,
        baseUrl: `${platform.url}/v1`,
        project: 'demo',
        authorize: () => {
          throw new Error(`cannot reach sessions with ${API_KEY}`);
        },
      });
      const lines: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => lines.push(args);
      try {
        assert.equal((await call(careless, '/connections/conn_1')).status, 500);
        assert.equal(lines.length, 1);
        assert.match(String(lines[0][0]), /authorize\(\) threw Error: cannot reach sessions with \[redacted\]$/);
        lines.length = 0;
        assert.equal((await call(quiet, '/connections/conn_1')).status, 502);
      } finally {
        console.error = original;
      }
      assert.equal(lines.length, 1);
      assert.equal(lines[0].length, 1);
      const line = String(lines[0][0]);
      assert.match(
        line,
        /^\[connect-provider\] GET \/connections\/conn_1 answered 502: platform get-connection answered 500/,
      );
      assert.ok(!line.includes('\n'), line);
      assert.deepEqual(
        leaks(line, platform.url).filter((l) => l !== 'host' && l !== 'port'),
        [],
        line,
      );
    });

    it('names neither the key nor the address when the platform cannot be reached', async () => {
      const gone = await startTestServer();
      await gone.close();
      const logged: string[] = [];
      const h = createConnectHandler({
        apiKey: API_KEY,
        baseUrl: `${gone.url}/v1`,
        project: 'demo',
        authorize,
        retry: false,
        onError: (i) => logged.push(i.message),
      });
      for (const [path, method, body] of [
        ['/connections/c', 'GET', undefined],
        ['/oauth-connect', 'POST', { provider: 'slack' }],
      ] as const) {
        const response = await call(h, path, { method, body });
        const text = await response.text();
        assert.equal(response.status, 502);
        assert.deepEqual(leaks(text, gone.url), [], text);
      }
      assert.equal(logged.length, 2);
      assert.match(logged[0], /platform get-connection/);
    });

    it("answers an unreadable 2xx as 502 without the platform's text", async () => {
      platform.reply = () => ({
        headers: { 'content-type': 'application/json' },
        body: `{"broken": "${platform.url} ${API_KEY}`,
      });
      const response = await call(handler, '/connections/conn_1');
      const text = await response.text();
      assert.equal(response.status, 502);
      assert.deepEqual(leaks(text, platform.url), [], text);
    });
  });

  describe('misconfiguration', () => {
    it('tells a wrong project from a missing connection on get, update and list', async () => {
      let knows = false;
      platform.reply = (request) => {
        const listing = request.path === '/v1/projects/demo/connections';
        if (listing && knows) return { body: [] };
        return problemReply(404, { title: 'Not Found' });
      };
      errors.length = 0;
      for (const [path, method] of [
        ['/connections/conn_1', 'GET'],
        ['/connections/conn_1:oauth-update', 'PATCH'],
        ['/connections?provider=slack', 'GET'],
      ] as const) {
        const response = await call(handler, path, { method });
        const problem = await response.json();
        assert.equal(response.status, 502, path);
        assert.match(problem.detail, /check baseUrl and project/);
      }
      assert.deepEqual(
        errors.map((e) => e.kind),
        ['misconfigured', 'misconfigured', 'misconfigured'],
      );
      knows = true;
      errors.length = 0;
      const missing = await call(handler, '/connections/conn_1');
      assert.equal(missing.status, 404);
      assert.equal((await missing.json()).detail, 'no such connection');
      assert.deepEqual(errors, []);
    });

    it("lists only the caller group's connections, allow-listed, whatever the platform answers", async () => {
      platform.reply = () => ({
        body: [
          {
            ...sampleConnection({ id: 'mine-old', provider: 'slack', createTime: '2026-01-01T00:00:00Z' }),
            apiKey: 'LEAK-1',
          },
          { ...sampleConnection({ id: 'theirs', provider: 'slack', groupRef: 'other' }) },
          { ...sampleConnection({ id: 'nogroup', provider: 'slack' }), group: undefined },
          {
            ...sampleConnection({ id: 'mine-new', provider: 'slack', createTime: '2026-02-01T00:00:00Z' }),
            basic: { password: 'LEAK-2' },
          },
          { ...sampleConnection({ id: 'mine-other-provider', provider: 'notion' }) },
          'not a connection',
        ],
      });
      const response = await call(handler, '/connections?provider=slack');
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.ok(!text.includes('LEAK'), text);
      assert.deepEqual(
        JSON.parse(text).map((c: { id: string }) => c.id),
        ['mine-new', 'mine-old'],
      );
      assert.equal(platform.requests.at(-1)!.query.groupRef, 'acme', 'the platform is asked for the caller group only');
    });

    it('reports a 404 to oauth-connect as a misconfiguration, with one log line', async () => {
      platform.reply = () => problemReply(404, { title: 'Not Found' });
      errors.length = 0;
      const response = await call(handler, '/oauth-connect', { method: 'POST', body: { provider: 'slack' } });
      const problem = await response.json();
      assert.equal(response.status, 502);
      assert.equal(problem.type, 'urn:connect-provider:problem:misconfigured');
      assert.match(problem.detail, /check baseUrl and project/);
      assert.equal(errors.length, 1);
      assert.equal(errors[0].kind, 'misconfigured');
      assert.match(errors[0].message, /check baseUrl and project/);
      assert.match(errors[0].message, /"demo"/);
    });
  });
});

describe('a missing connection or a wrong project', () => {
  const { platform, errors, make, asked } = handlerOnPlatformDouble();
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
      assert.deepEqual(
        [errors[0].error.name, errors[0].error.status],
        ['ProblemError', 404],
        "the platform's problem is told to the logger",
      );
    },
  );
});

describe('how long a known project is trusted', () => {
  const { platform, make, asked } = handlerOnPlatformDouble();
  it('trusts a yes for just under 5 minutes and asks again at exactly 5', { timeout: 10_000 }, async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const handler = make();
    platform.reply = (request) => (request.path.endsWith('/connections') ? { body: [] } : problemReply(404));
    const checks = () => asked().filter((request) => request.path === '/v1/projects/demo/connections').length;
    await problemOf(await call(handler, '/connections/gone'), 404);
    assert.equal(checks(), 1);
    t.mock.timers.tick(5 * 60 * 1000 - 1);
    await problemOf(await call(handler, '/connections/gone'), 404);
    assert.equal(checks(), 1, 'trusted 1 ms before 5 minutes');
    t.mock.timers.tick(1);
    await problemOf(await call(handler, '/connections/gone'), 404);
    assert.equal(checks(), 2, 'asked again at 5 minutes');
  });
});

describe("a provider's info", () => {
  const { platform, errors, make } = handlerOnPlatformDouble();
  it(
    'answers 502 for a JSON answer that is no object (a string, a number, true or null), and tells the server',
    { timeout: 10_000 },
    async () => {
      const handler = make();
      for (const text of ['"slack"', '7', 'true', 'null', '[{"name":"slack"}]']) {
        platform.reply = () => ({ headers: { 'content-type': 'application/json' }, body: text });
        errors.length = 0;
        const body = await problemOf(await call(handler, '/providers/slack'), 502);
        assert.equal(body.type, 'urn:connect-provider:problem:upstream', text);
        assert.deepEqual(
          errors.map((e) => [e.kind, e.message]),
          [
            [
              'platform',
              'GET /providers/slack answered 502: platform get-provider answered something other than an object',
            ],
          ],
          text,
        );
      }
    },
  );

  it('names get-provider in what the server is told of a failed provider call', { timeout: 10_000 }, async () => {
    const handler = make();
    platform.reply = () => problemReply(500, { title: 'Down' });
    await problemOf(await call(handler, '/providers/slack'), 502);
    assert.equal(errors.length, 1);
    assert.match(errors[0].message, /^GET \/providers\/slack answered 502: platform get-provider answered 500 Down/);
  });
});
