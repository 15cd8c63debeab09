// What every answer of the handler carries (src/server/handler.ts, src/http/response-parts.ts): X-Content-Type-Options: nosniff, lower-cased header
// names, and the same answer from a handler the app wraps in its own function.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { createConnectHandler, toNodeListener, type ConnectHandler } from '../../../src/server/index.js';
import { problemParts } from '../../../src/http/http-problem.js';
import { jsonParts } from '../../../src/http/json-response.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';
import { raw } from '../helpers/raw-http.js';
import { listen, statusOf, bodyOf, headersOf } from '../helpers/node-listen.js';

const platform: typeof fetch = async (input) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.pathname.endsWith('/conn_500'))
    return new Response('{"status":500}', { status: 500, headers: { 'content-type': 'application/problem+json' } });
  const body = url.pathname.endsWith('/connections') ? [] : sampleConnection({ id: 'conn_1' });
  return new Response(url.pathname.includes('/providers/') ? '{"name":"slack"}' : JSON.stringify(body), {
    headers: { 'content-type': 'application/json' },
  });
};

describe('X-Content-Type-Options', () => {
  const handler = createConnectHandler({
    apiKey: 'nosniff-key-Wd73',
    baseUrl: 'https://platform.example/v1',
    project: 'demo',
    authorize: (request) => (request.headers.get('cookie') ? { groupRef: 'acme', consumerRef: 'u1' } : null),
    allowDisconnect: true,
    allowedOrigins: ['https://spa.example'],
    retry: false,
    fetch: platform,
    onError: () => {},
  });
  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    handler(
      new Request(`http://app.test${path}`, {
        method,
        headers: { 'sec-fetch-site': 'same-origin', cookie: 'sid=1', ...headers },
      }),
    );

  it('is nosniff on every answer: success, problem, preflight and no content', async () => {
    const answers = [
      await send('GET', '/connections/conn_1'),
      await send('GET', '/connections'),
      await send('GET', '/providers/slack'),
      await send('DELETE', '/connections/conn_1'),
      await send('GET', '/connections/conn_500'),
      await send('GET', '/nowhere'),
      await send('PUT', '/connections'),
      await send('GET', '/connections', { cookie: '' }),
      await send('GET', '/connections', { 'sec-fetch-site': 'cross-site' }),
      await send('OPTIONS', '/connections', {
        origin: 'https://spa.example',
        'sec-fetch-site': 'cross-site',
        'access-control-request-method': 'GET',
      }),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 204, 502, 404, 405, 401, 403, 204],
    );
    for (const answer of answers)
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', `${answer.status}`);
  });

  it('is nosniff on what toNodeListener answers itself', async () => {
    const server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const answer = await raw(port, 'GET /a/../connections HTTP/1.1\r\nHost: app.test\r\nConnection: close\r\n\r\n');
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.match(answer, /\r\nx-content-type-options: nosniff\r\n/i);
      const served = await raw(
        port,
        'GET /connections HTTP/1.1\r\nHost: app.test\r\nCookie: sid=1\r\nConnection: close\r\n\r\n',
      );
      assert.match(served, /^HTTP\/1\.1 200 /);
      assert.match(served, /\r\nx-content-type-options: nosniff\r\n/i);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a connect handler the app wraps in its own function (src/http/response-parts.ts)', () => {
  let platform: TestServer;
  let handler: ConnectHandler;

  before(async () => {
    platform = await startTestServer(() => ({ body: sampleConnection() }));
    handler = createConnectHandler({
      apiKey: 'wire-test-key',
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      allowedOrigins: ['https://app.example'],
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      retry: false,
    });
  });
  after(() => platform.close());

  it('answers as the handler itself does, a body-less 204 preflight included', { timeout: 10_000 }, async () => {
    // toNodeListener cannot see through the app's function: it writes the Response the handler built.
    const wrapped = await listen((request) => handler(request));
    const bare = await listen(handler);
    const statuses: number[] = [];
    try {
      for (const request of [
        'OPTIONS /api/connect/oauth-connect HTTP/1.1\r\nOrigin: https://app.example\r\n' +
          'Access-Control-Request-Method: POST\r\n',
        'GET /api/connect/connections/conn_1 HTTP/1.1\r\nOrigin: https://app.example\r\n',
        'PUT /api/connect/oauth-connect HTTP/1.1\r\nOrigin: https://app.example\r\n',
      ]) {
        const send = (port: number) => raw(port, `${request}Host: api.example\r\nConnection: close\r\n\r\n`);
        const [viaWrapper, viaHandler] = [await send(wrapped.port), await send(bare.port)];
        const what = request.split('\r\n')[0];
        assert.equal(statusOf(viaWrapper), statusOf(viaHandler), what);
        const strip = (text: string) => text.replace(/"time":"[^"]*"/, '');
        assert.equal(strip(bodyOf(viaWrapper)), strip(bodyOf(viaHandler)), what);
        assert.deepEqual(headersOf(viaWrapper), headersOf(viaHandler), what);
        statuses.push(statusOf(viaWrapper));
      }
      assert.deepEqual(statuses, [204, 200, 405]);
      const preflight = await raw(
        wrapped.port,
        'OPTIONS /api/connect/oauth-connect HTTP/1.1\r\nOrigin: https://app.example\r\n' +
          'Access-Control-Request-Method: POST\r\nHost: api.example\r\nConnection: close\r\n\r\n',
      );
      assert.equal(statusOf(preflight), 204);
      assert.equal(bodyOf(preflight), '');
    } finally {
      await wrapped.close();
      await bare.close();
    }
  });
});

describe('header names of every answer (src/http/response-parts.ts)', () => {
  it('are lower-cased, so a caller cannot send the content type twice or change it', () => {
    const headers = { Allow: 'GET', 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=60' };
    assert.deepEqual(problemParts({ status: 405 }, headers).headers, {
      allow: 'GET',
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
    });
    assert.deepEqual(jsonParts({}, 200, headers).headers, {
      allow: 'GET',
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
  });
});
