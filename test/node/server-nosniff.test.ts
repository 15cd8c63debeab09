// Every answer of the handler carries X-Content-Type-Options: nosniff, whatever its status or route, so no browser
// reads a JSON or problem answer as anything else.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConnectHandler, toNodeListener } from '../../src/server/index.js';
import { sampleConnection } from '../shared/fixtures.js';
import { raw } from './helpers/raw-http.js';

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
