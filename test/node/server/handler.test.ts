// createConnectHandler end to end against the emulator: its routes, its security rules, the platform's failures and
// onError. Its options are in options.test.ts, the Node edge in front of it in ../http/node-handler.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { createConnectHandler, type ConnectHandler, type ConnectHandlerOptions } from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { startTestServer, type Reply } from '../helpers/http-server.js';

const APP = 'http://app.test';
const API_KEY = 'secret-platform-key-123';

/** The host app's sessions: cookie sid -> user. */
const SESSIONS: Record<string, { groupRef: string; consumerRef: string; groupName?: string }> = {
  ada: { groupRef: 'acme', consumerRef: 'user-ada', groupName: 'Acme Inc.' },
  otto: { groupRef: 'other', consumerRef: 'user-otto' },
};

const authorize: ConnectHandlerOptions['authorize'] = (request) => {
  const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return (sid && SESSIONS[sid]) || null;
};

function call(
  handler: ConnectHandler,
  path: string,
  init: { method?: string; body?: unknown; user?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...init.headers };
  if (init.user) headers.cookie = `sid=${init.user}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  return handler(new Request(`${APP}${path}`, { method: init.method ?? 'GET', headers, body }));
}

async function problem(response: Response, status: number) {
  assert.equal(response.status, status);
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  const body = await response.json();
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.type, 'string');
  // `instance` is an absolute URI (the platform's description says so), on the app's own origin.
  assert.equal(new URL(body.instance).origin, APP, `instance ${body.instance}`);
  return body;
}

describe('createConnectHandler against the emulator', () => {
  let emulator: Emulator;
  let handler: ConnectHandler;
  let baseUrl: string;

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    ({ baseUrl } = await emulator.listen());
    handler = createConnectHandler({ apiKey: API_KEY, baseUrl, project: 'demo', authorize });
  });
  after(() => emulator.close());

  describe('the connect routes', () => {
    it('answers oauth-connect with the URL and the messageOrigin', async () => {
      const response = await call(handler, '/api/connect/oauth-connect', {
        method: 'POST',
        user: 'ada',
        body: { provider: 'salesforce' },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const answer = await response.json();
      assert.equal(answer.messageOrigin, new URL(baseUrl).origin);
      assert.match(answer.url, /\/consent\/consent_/);
    });

    it('takes group and consumer from authorize(), never from the body', async () => {
      const response = await call(handler, '/api/connect/oauth-connect', {
        method: 'POST',
        user: 'ada',
        body: {
          provider: 'slack',
          groupRef: 'evil-corp',
          consumerRef: 'mallory',
          groupName: 'Evil',
          providerWorkspaceRef: 'ws-1',
        },
      });
      const { url } = await response.json();
      const session = emulator.state.consents.find((s) => url.endsWith(s.id))!;
      assert.equal(session.groupRef, 'acme');
      assert.equal(session.groupName, 'Acme Inc.');
      assert.equal(session.consumerRef, 'user-ada');
      assert.equal(session.providerWorkspaceRef, 'ws-1', 'provider hints are forwarded');
    });

    it("gets the caller group's connection, without credentials", async () => {
      const response = await call(handler, '/api/connect/connections/conn_demo', { user: 'ada' });
      assert.equal(response.status, 200);
      const connection = await response.json();
      assert.equal(connection.id, 'conn_demo');
      assert.equal(connection.oauth2AuthorizationCode, undefined);
      assert.equal(connection.apiKey, undefined);
    });

    it("answers oauth-update for the caller group's connection", async () => {
      const response = await call(handler, '/api/connect/connections/conn_demo:oauth-update', {
        method: 'PATCH',
        user: 'ada',
      });
      assert.equal(response.status, 200);
      const answer = await response.json();
      assert.match(answer.url, /\/consent\//);
      assert.equal(answer.messageOrigin, new URL(baseUrl).origin);
    });

    it("lists the caller group's connections, newest first, by provider, without credentials", async () => {
      const hubspot = await call(handler, '/api/connect/connections?provider=hubspot', { user: 'ada' });
      assert.equal(hubspot.status, 200);
      assert.deepEqual(
        (await hubspot.json()).map((c: { id: string }) => c.id),
        ['conn_demo'],
      );

      // A newer connection of group acme, to notion, through the emulator's consent page.
      const answer = await (
        await call(handler, '/api/connect/oauth-connect', { method: 'POST', user: 'ada', body: { provider: 'notion' } })
      ).json();
      const post = await fetch(answer.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=allow',
        redirect: 'manual',
      });
      assert.equal(post.status, 303);
      const id = emulator.state.consents.find((s) => answer.url.endsWith(s.id))!.resultConnectionId!;

      const all = await (await call(handler, '/api/connect/connections', { user: 'ada' })).json();
      assert.equal(all[0].id, id, 'newest first');
      assert.ok(all.some((c: { id: string }) => c.id === 'conn_demo'));
      for (const connection of all) {
        assert.equal(connection.oauth2AuthorizationCode, undefined);
        assert.equal(connection.apiKey, undefined);
        assert.equal(connection.group.groupRef, 'acme');
      }
      const notion = await (await call(handler, '/api/connect/connections?provider=notion', { user: 'ada' })).json();
      assert.deepEqual(
        notion.map((c: { id: string }) => c.id),
        [id],
      );
      // Another group sees none of acme's connections.
      assert.deepEqual(
        await (await call(handler, '/api/connect/connections?provider=hubspot', { user: 'otto' })).json(),
        [],
      );
      assert.ok(
        (await (await call(handler, '/api/connect/connections', { user: 'otto' })).json()).every(
          (c: { group: { groupRef: string } }) => c.group.groupRef === 'other',
        ),
      );
      await problem(await call(handler, '/api/connect/connections?provider=hubspot'), 401);
      await problem(await call(handler, '/api/connect/connections?provider=', { user: 'ada' }), 400);
    });

    it('serves under any prefix', async () => {
      for (const prefix of ['', '/connect', '/a/b/c']) {
        const response = await call(handler, `${prefix}/connections/conn_demo`, { user: 'ada' });
        assert.equal(response.status, 200, prefix);
      }
    });
  });

  describe('security rules', () => {
    it('answers 401 when authorize() returns null', async () => {
      await problem(await call(handler, '/api/connect/connections/conn_demo'), 401);
      await problem(
        await call(handler, '/api/connect/oauth-connect', { method: 'POST', body: { provider: 'slack' } }),
        401,
      );
    });

    it("answers 404 for another group's connection, exactly as for a missing one", async () => {
      const other = await problem(await call(handler, '/api/connect/connections/conn_demo', { user: 'otto' }), 404);
      const missing = await problem(await call(handler, '/api/connect/connections/conn_nope', { user: 'otto' }), 404);
      assert.equal(other.detail, missing.detail);
      await problem(
        await call(handler, '/api/connect/connections/conn_demo:oauth-update', { method: 'PATCH', user: 'otto' }),
        404,
      );
    });

    it('never asks the platform for credentials', async () => {
      const seen: string[] = [];
      const spying = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize,
        fetch: (input, init) => {
          seen.push(new Request(input, init).url);
          return fetch(input, init);
        },
      });
      await call(spying, '/c/connections/conn_demo', { user: 'ada' });
      await call(spying, '/c/connections/conn_demo:oauth-update', { method: 'PATCH', user: 'ada' });
      assert.ok(seen.length >= 2);
      for (const url of seen) assert.ok(!/includeCreds|includeRefreshToken|refresh=/.test(url), url);
    });

    it('strips credentials even when the platform sends them', async () => {
      const lying = await startTestServer(() => ({
        body: sampleConnection({
          id: 'conn_x',
          oauth2AuthorizationCode: {
            accessToken: { token: 'LEAKED-ACCESS' },
            refreshToken: { token: 'LEAKED-REFRESH' },
          },
          apiKey: 'LEAKED-KEY',
        }),
      }));
      try {
        const h = createConnectHandler({ apiKey: API_KEY, baseUrl: `${lying.url}/v1`, project: 'p', authorize });
        const response = await call(h, '/connections/conn_x', { user: 'ada' });
        const text = await response.text();
        assert.equal(response.status, 200);
        assert.ok(!text.includes('LEAKED'), text);
      } finally {
        await lying.close();
      }
    });

    it('refuses cross-site requests with 403', async () => {
      await problem(
        await call(handler, '/connections/conn_demo', { user: 'ada', headers: { 'sec-fetch-site': 'cross-site' } }),
        403,
      );
      await problem(
        await call(handler, '/oauth-connect', {
          method: 'POST',
          user: 'ada',
          body: { provider: 'slack' },
          headers: { origin: 'https://evil.test' },
        }),
        403,
      );
      await problem(
        await call(handler, '/oauth-connect', {
          method: 'POST',
          user: 'ada',
          body: { provider: 'slack' },
          headers: { origin: 'null' },
        }),
        403,
      );
    });

    it('refuses same-site and cross-site requests that carry no Origin', async () => {
      for (const site of ['same-site', 'cross-site']) {
        for (const [path, method] of [
          ['/connections/conn_demo', 'GET'],
          ['/connections/conn_demo:oauth-update', 'PATCH'],
        ] as const) {
          const body = await problem(
            await call(handler, path, { method, user: 'ada', headers: { 'sec-fetch-site': site } }),
            403,
          );
          assert.match(body.detail, new RegExp(site));
        }
      }
      assert.equal(
        (await call(handler, '/connections/conn_demo', { user: 'ada', headers: { 'sec-fetch-site': 'none' } })).status,
        200,
      );
    });

    it('refuses a Host or X-Forwarded-Host that is not a plain host[:port]', async () => {
      for (const [name, value] of [
        ['host', 'app.test/api/connect/connections/conn_demo#'],
        ['host', 'app.test@evil.test'],
        ['x-forwarded-host', 'app.test/x'],
        ['x-forwarded-host', 'app.test, evil.test/x'],
        ['x-forwarded-host', 'app.test?x'],
      ]) {
        const body = await problem(
          await call(handler, '/connections/conn_demo', { user: 'ada', headers: { [name]: value } }),
          400,
        );
        assert.match(body.detail, /plain host/);
      }
      const chain = await call(handler, '/oauth-connect', {
        method: 'POST',
        user: 'ada',
        body: { provider: 'slack' },
        headers: { origin: 'https://app.example.com', 'x-forwarded-host': 'app.example.com, internal:8080' },
      });
      assert.equal(chain.status, 200, 'a proxy chain of plain hosts is fine');
    });

    it('bounds providerMetadata by depth, entries and size with a 400 issue, and forwards what fits', async () => {
      // Written as text: JSON.stringify itself overflows the stack on such depths.
      const deep = (depth: number) =>
        `{"provider":"slack","providerMetadata":${'{"d":'.repeat(depth)}1${'}'.repeat(depth)}}`;
      const wide = JSON.stringify({
        provider: 'slack',
        providerMetadata: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])),
      });
      const big = JSON.stringify({ provider: 'slack', providerMetadata: { a: 'x'.repeat(5000) } });
      const arrays = JSON.stringify({ provider: 'slack', providerMetadata: { a: [[[[[[1]]]]]] } });
      for (const [name, text] of [
        ['depth 2,500', deep(2500)],
        ['depth 6', deep(6)],
        ['300 keys', wide],
        ['5 KB', big],
        ['nested arrays', arrays],
      ]) {
        const body = await problem(
          await call(handler, '/oauth-connect', { method: 'POST', user: 'ada', body: text }),
          400,
        );
        assert.equal(body.issues[0].name, 'providerMetadata', `${name}: ${JSON.stringify(body)}`);
        assert.match(body.detail, /providerMetadata (is nested deeper|has more than|is larger)/, name);
      }
      await problem(await call(handler, '/oauth-connect', { method: 'POST', user: 'ada', body: deep(5000) }), 413);
      let fits: Record<string, unknown> = { region: 'eu' };
      for (let i = 0; i < 3; i++) fits = { d: fits };
      const ok = await call(handler, '/oauth-connect', {
        method: 'POST',
        user: 'ada',
        body: { provider: 'slack', providerMetadata: fits },
      });
      assert.equal(ok.status, 200);
      const { url } = await ok.json();
      const session = emulator.state.consents.find((s) => url.endsWith(s.id))!;
      assert.deepEqual(session.providerMetadata, fits);
    });

    it('serves same-origin requests and server-side callers', async () => {
      const sameOrigin = await call(handler, '/oauth-connect', {
        method: 'POST',
        user: 'ada',
        body: { provider: 'slack' },
        headers: { origin: APP },
      });
      assert.equal(sameOrigin.status, 200);
      const behindProxy = await call(handler, '/oauth-connect', {
        method: 'POST',
        user: 'ada',
        body: { provider: 'slack' },
        headers: { origin: 'https://app.example.com', 'x-forwarded-host': 'app.example.com' },
      });
      assert.equal(behindProxy.status, 200);
      const serverSide = await handler(new Request(`${APP}/connections/conn_demo`, { headers: { cookie: 'sid=ada' } }));
      assert.equal(serverSide.status, 200);
    });

    it('answers CORS for allowedOrigins only', async () => {
      const h = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize,
        allowedOrigins: ['https://spa.example'],
      });
      const pre = await call(h, '/oauth-connect', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://spa.example',
          'sec-fetch-site': 'cross-site',
          'access-control-request-method': 'POST',
        },
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), 'https://spa.example');
      const post = await call(h, '/oauth-connect', {
        method: 'POST',
        user: 'ada',
        body: { provider: 'slack' },
        headers: { origin: 'https://spa.example', 'sec-fetch-site': 'cross-site' },
      });
      assert.equal(post.status, 200);
      assert.equal(post.headers.get('access-control-allow-origin'), 'https://spa.example');
      await problem(
        await call(handler, '/oauth-connect', { method: 'OPTIONS', headers: { origin: 'https://spa.example' } }),
        403,
      );
    });

    it('refuses bodies over 16 KB with 413, non-JSON with 415, malformed JSON with 400', async () => {
      await problem(
        await call(handler, '/oauth-connect', {
          method: 'POST',
          user: 'ada',
          body: { provider: 'slack', providerMetadata: { x: 'y'.repeat(17000) } },
        }),
        413,
      );
      await problem(
        await call(handler, '/oauth-connect', {
          method: 'POST',
          user: 'ada',
          body: 'provider=slack',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
      );
      await problem(await call(handler, '/oauth-connect', { method: 'POST', user: 'ada', body: '{"provider":' }), 400);
      await problem(await call(handler, '/oauth-connect', { method: 'POST', user: 'ada', body: '[1,2]' }), 400);
      const missing = await problem(
        await call(handler, '/oauth-connect', { method: 'POST', user: 'ada', body: {} }),
        400,
      );
      assert.deepEqual(
        missing.issues.map((i: { name: string }) => i.name),
        ['provider'],
      );
      const wrongType = await problem(
        await call(handler, '/oauth-connect', {
          method: 'POST',
          user: 'ada',
          body: { provider: 'slack', providerAppId: 7 },
        }),
        400,
      );
      assert.equal(wrongType.issues[0].name, 'providerAppId');
    });

    it('answers 404 to unknown routes and 405 with Allow to wrong methods', async () => {
      await problem(await call(handler, '/api/connect/nothing', { user: 'ada' }), 404);
      const wrong = await call(handler, '/api/connect/oauth-connect', { user: 'ada' });
      await problem(wrong, 405);
      assert.equal(wrong.headers.get('allow'), 'POST');
      const del = await call(handler, '/api/connect/connections/conn_demo', { method: 'DELETE', user: 'ada' });
      await problem(del, 405);
      assert.equal(del.headers.get('allow'), 'GET, PATCH');
    });

    it('refuses a provider outside the allow-list with 400', async () => {
      const h = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize,
        providers: ['salesforce', 'hubspot'],
      });
      const body = await problem(
        await call(h, '/oauth-connect', { method: 'POST', user: 'ada', body: { provider: 'slack' } }),
        400,
      );
      assert.equal(body.issues[0].name, 'provider');
      assert.equal(
        (await call(h, '/oauth-connect', { method: 'POST', user: 'ada', body: { provider: 'hubspot' } })).status,
        200,
      );
    });
  });

  describe('platform failures', () => {
    it("passes the platform's validation issues on as 400, without secrets or URLs", async () => {
      const response = await call(handler, '/oauth-connect', {
        method: 'POST',
        user: 'ada',
        body: { provider: 'myspace' },
      });
      const text = await response.clone().text();
      const body = await problem(response, 400);
      assert.deepEqual(
        body.issues.map((i: { name: string }) => i.name),
        ['provider'],
      );
      assert.ok(!text.includes(API_KEY));
      assert.ok(!text.includes(baseUrl));
    });

    it("answers 502 when the platform refuses the server's key, and names no key", async () => {
      const h = createConnectHandler({ apiKey: 'wrong-key-456', baseUrl, project: 'demo', authorize });
      const response = await call(h, '/connections/conn_demo', { user: 'ada' });
      const text = await response.clone().text();
      const body = await problem(response, 502);
      assert.match(body.detail, /credentials/);
      assert.ok(!text.includes('wrong-key-456'));
    });

    it('answers 504 with retryable: true when the platform is too slow', async () => {
      const slow = await startTestServer(() => ({ delayMs: 2000, body: {} }));
      try {
        const h = createConnectHandler({
          apiKey: API_KEY,
          baseUrl: `${slow.url}/v1`,
          project: 'p',
          authorize,
          timeoutMs: 100,
          retry: false,
        });
        const body = await problem(await call(h, '/connections/c', { user: 'ada' }), 504);
        assert.equal(body.retryable, true);
      } finally {
        await slow.close();
      }
    });

    it('answers 503 with Retry-After when the platform is down, 502 for its other errors', async () => {
      const replies: Reply[] = [
        {
          status: 503,
          headers: { 'retry-after': '7' },
          body: { title: 'Maintenance', detail: `see ${'https://status.platform.test'} key ${API_KEY}` },
        },
        { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>oops</h1>' },
      ];
      const down = await startTestServer(() => replies.shift()!);
      try {
        const h = createConnectHandler({
          apiKey: API_KEY,
          baseUrl: `${down.url}/v1`,
          project: 'p',
          authorize,
          retry: false,
        });
        const first = await call(h, '/connections/c', { user: 'ada' });
        assert.equal(first.headers.get('retry-after'), '7');
        const text = await first.clone().text();
        const body = await problem(first, 503);
        assert.equal(body.retryable, true);
        assert.ok(!text.includes(API_KEY) && !text.includes('status.platform.test'), text);
        await problem(await call(h, '/connections/c', { user: 'ada' }), 502);
      } finally {
        await down.close();
      }
    });

    it('answers 429 with Retry-After when the platform rate-limits', async () => {
      const limited = await startTestServer(() => ({ status: 429, headers: { 'retry-after': '2' }, body: {} }));
      try {
        const h = createConnectHandler({
          apiKey: API_KEY,
          baseUrl: `${limited.url}/v1`,
          project: 'p',
          authorize,
          retry: false,
        });
        const response = await call(h, '/connections/c', { user: 'ada' });
        assert.equal(response.headers.get('retry-after'), '2');
        assert.equal((await problem(response, 429)).retryable, true);
      } finally {
        await limited.close();
      }
    });

    it('answers 502 with retryable: true when the platform cannot be reached', async () => {
      const gone = await startTestServer();
      const url = gone.url;
      await gone.close();
      const h = createConnectHandler({ apiKey: API_KEY, baseUrl: `${url}/v1`, project: 'p', authorize, retry: false });
      const body = await problem(await call(h, '/connections/c', { user: 'ada' }), 502);
      assert.equal(body.retryable, true);
    });

    it('answers 500 without detail when authorize() throws', async () => {
      const h = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize: () => {
          throw new Error('db password is hunter2');
        },
      });
      const original = console.error;
      console.error = () => {};
      try {
        const response = await call(h, '/connections/conn_demo', { user: 'ada' });
        const text = await response.clone().text();
        await problem(response, 500);
        assert.ok(!text.includes('hunter2'));
      } finally {
        console.error = original;
      }
    });
  });

  describe('onError', () => {
    it('by default writes one console.error line without the key', async () => {
      const lines: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => lines.push(args);
      try {
        const h = createConnectHandler({ apiKey: API_KEY, baseUrl, project: 'no-such-project', authorize });
        const response = await call(h, '/oauth-connect', { method: 'POST', user: 'ada', body: { provider: 'slack' } });
        assert.equal(response.status, 502);
        assert.match((await response.json()).detail, /check baseUrl and project/);
      } finally {
        console.error = original;
      }
      assert.equal(lines.length, 1);
      assert.equal(lines[0].length, 1);
      const line = String(lines[0][0]);
      assert.ok(!line.includes('\n'));
      assert.ok(!line.includes(API_KEY));
      assert.match(
        line,
        /^\[connect-provider\] POST \/oauth-connect answered 502: .*no-such-project.*check baseUrl and project/,
      );
    });

    it("is called for authorize() failures and not for the browser's own mistakes", async () => {
      const seen: Array<{ kind: string; status: number }> = [];
      const h = createConnectHandler({
        apiKey: API_KEY,
        baseUrl,
        project: 'demo',
        authorize: (request) => {
          if (request.headers.get('cookie') === 'sid=boom') throw new Error('db down');
          if (request.headers.get('cookie') === 'sid=odd') return { groupRef: '', consumerRef: 'x' };
          return authorize(request);
        },
        onError: (info) => seen.push({ kind: info.kind, status: info.status }),
      });
      await call(h, '/connections/conn_demo', { user: 'boom' });
      await call(h, '/connections/conn_demo', { user: 'odd' });
      await call(h, '/connections/conn_nope', { user: 'ada' });
      await call(h, '/oauth-connect', { method: 'POST', user: 'ada', body: { provider: 'myspace' } });
      await call(h, '/connections/conn_demo', { user: 'ada', headers: { 'sec-fetch-site': 'cross-site' } });
      assert.deepEqual(seen, [
        { kind: 'authorize', status: 500 },
        { kind: 'authorize', status: 500 },
      ]);
    });
  });
});
