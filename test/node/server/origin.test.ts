// Which requests the handler serves (src/server/guard.ts): the cross-site refusal (Origin compared whole, Sec-Fetch-Site),
// in the words the browser gets, and CORS for the allowedOrigins only.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectHandler, type ConnectHandler, type ConnectHandlerOptions } from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { APP, call } from '../helpers/handler-calls.js';
import { ADA, handlerOnPlatformDouble, problemOf } from '../helpers/platform-double.js';

const API_KEY = 'origin-key-Jr83Ks';

/** A platform stand-in that answers every request with the caller group's connection. */
const platform: typeof fetch = async () =>
  new Response(JSON.stringify(sampleConnection({ id: 'conn_1' })), { headers: { 'content-type': 'application/json' } });

function make(): ConnectHandler {
  return createConnectHandler({
    apiKey: API_KEY,
    baseUrl: 'https://platform.example/v1',
    project: 'demo',
    authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
    retry: false,
    fetch: platform,
  });
}

const get = (handler: ConnectHandler, url: string, headers: Record<string, string>) =>
  handler(new Request(url, { headers }));

describe('the origin check', () => {
  it('refuses an Origin of the same host but another scheme when the request is https', async () => {
    const handler = make();
    const refused = await get(handler, 'https://app.test/connections/conn_1', {
      origin: 'http://app.test',
      'sec-fetch-site': 'same-site',
    });
    assert.equal(refused.status, 403);
    const problem = await refused.json();
    assert.equal(problem.type, 'urn:connect-provider:problem:forbidden-origin');
    // The host is the page's: the server is wrong about its own scheme, and the detail says how to tell it.
    assert.match(problem.detail, /arrived as https:\/\/app\.test, another scheme than the page's/);
    assert.match(problem.detail, /ORIGIN variable/);
    assert.match(problem.detail, /X-Forwarded-Proto/);
    assert.match(problem.detail, /allowedOrigins/);
    const served = await get(handler, 'https://app.test/connections/conn_1', {
      origin: 'https://app.test',
      'sec-fetch-site': 'same-origin',
    });
    assert.equal(served.status, 200);
  });

  it('takes the scheme from X-Forwarded-Proto behind a proxy, and compares the host only when it is unknown', async () => {
    const handler = make();
    const behindProxy = (origin: string, proto?: string) =>
      get(handler, 'http://app.test/connections/conn_1', {
        origin,
        'sec-fetch-site': 'same-origin',
        ...(proto ? { 'x-forwarded-proto': proto } : {}),
      });
    assert.equal((await behindProxy('http://app.test', 'https')).status, 403);
    assert.equal((await behindProxy('http://app.test', 'HTTPS, http')).status, 403);
    assert.equal((await behindProxy('http://app.test', 'https ,http')).status, 403);
    assert.equal((await behindProxy('https://app.test', 'https')).status, 200);
    assert.equal((await behindProxy('http://app.test', 'http')).status, 200);
    assert.equal((await behindProxy('https://app.test', 'http')).status, 403);
    // A proxy that terminates TLS and says nothing: the scheme is unknown, the host decides.
    assert.equal((await behindProxy('https://app.test')).status, 200);
    assert.equal((await behindProxy('http://app.test')).status, 200);
  });

  it('reads Sec-Fetch-Site in any case', async () => {
    const handler = make();
    for (const site of ['Cross-Site', 'CROSS-SITE', 'Same-Site']) {
      const response = await get(handler, 'http://app.test/connections/conn_1', { 'sec-fetch-site': site });
      assert.equal(response.status, 403, site);
    }
    const withOrigin = await get(handler, 'http://app.test/connections/conn_1', {
      origin: 'http://app.test',
      'sec-fetch-site': 'Cross-Site',
    });
    assert.equal(withOrigin.status, 403);
    assert.equal(
      (await get(handler, 'http://app.test/connections/conn_1', { 'sec-fetch-site': 'Same-Origin' })).status,
      200,
    );
  });
});

describe('the Origin check, in the words the browser gets', () => {
  const BASE: ConnectHandlerOptions = {
    apiKey: 'edge-key-123',
    baseUrl: 'https://platform.example/v1',
    project: 'demo',
    authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
  };

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

describe('CORS for allowedOrigins', () => {
  let user: unknown = ADA;
  const { make, asked } = handlerOnPlatformDouble(() => user);
  beforeEach(() => {
    user = ADA;
  });
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
      assert.equal(asking.headers.get('access-control-allow-methods'), 'GET, POST, PATCH, DELETE');
      assert.equal(asking.headers.get('access-control-allow-headers'), 'content-type, x-csrf-token');
      assert.equal(asking.headers.get('access-control-max-age'), '600');
      const plain = await preflight({});
      assert.equal(plain.headers.get('access-control-allow-headers'), 'content-type');
      assert.equal(asked().length, 0, 'a preflight never reaches the platform');
    },
  );

  it('lets an allowed origin read every answer, its problems too, with credentials', { timeout: 10_000 }, async () => {
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
  });
});

describe('the Origin against the Host and X-Forwarded-Host headers', () => {
  const { platform, make, asked } = handlerOnPlatformDouble();
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
