// Rules of src/http that a whole-area mutation run (npm run mutate -- server) showed no test held: a connect
// handler that the app wraps in its own function, Host headers at their bounds, JSON bodies at the declared limit,
// and the header names of every answer. Over real sockets where the rule is about the wire.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import {
  createConnectHandler,
  toNodeListener,
  type ConnectHandler,
  type FetchHandler,
} from '../../src/server/index.js';
import { problemAnswer, jsonAnswer } from '../../src/http/problem.js';
import { sampleConnection } from '../shared/fixtures.js';
import { startTestServer, type TestServer } from './helpers/http-server.js';

const APP = 'http://app.test';

async function listen(handler: FetchHandler): Promise<{ port: number; close: () => Promise<void> }> {
  const listener = toNodeListener(handler);
  const server: Server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a raw request and reads the raw answer until the server closes the connection (5 s at most). */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setTimeout(5000, () => socket.destroy(new Error(`no complete answer: ${data}`)));
    socket.on('data', (chunk) => (data += chunk));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

const statusOf = (answer: string) => Number(answer.slice(9, 12));
const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

describe('a connect handler the app wraps in its own function (src/http/answer.ts)', () => {
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

describe('Host headers at their bounds (src/http/host.ts)', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    server = await listen(async (request) => new Response(new URL(request.url).host));
  });
  after(() => server.close());

  const withHost = (host: string) => raw(server.port, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);

  it('takes bracketed IPv6 addresses, with or without a port, and nothing else in brackets', async () => {
    for (const host of ['[::1]', '[::1]:8080', '[2001:db8::7]:443', '[::ffff:127.0.0.1]']) {
      const answer = await withHost(host);
      assert.equal(statusOf(answer), 200, host);
      assert.equal(bodyOf(answer), host.replace('[::ffff:127.0.0.1]', '[::ffff:7f00:1]'), host);
    }
    for (const host of ['[]', '[:]', '[zz]', '[::1', '[::g]:80', '[::1]x']) {
      const answer = await withHost(host);
      assert.equal(statusOf(answer), 400, host);
      assert.match(bodyOf(answer), /the Host header is not a plain host\[:port\]/, host);
    }
  });

  it('takes a Host of 255 characters and refuses one of 256', async () => {
    const label = (c: string) => c.repeat(63);
    const longest = [label('a'), label('b'), label('c'), label('d')].join('.');
    assert.equal(longest.length, 255);
    const answer = await withHost(longest);
    assert.equal(statusOf(answer), 200);
    assert.equal(bodyOf(answer), longest);
    // The same name with the trailing dot a fully qualified name may carry: the shape is fine, the length is not.
    const tooLong = await withHost(`${longest}.`);
    assert.equal(statusOf(tooLong), 400);
    assert.match(bodyOf(tooLong), /the Host header is not a plain host\[:port\]/);
  });
});

describe('JSON bodies at their edges (src/http/problem.ts)', () => {
  let platform: TestServer;
  let handler: ConnectHandler;

  before(async () => {
    platform = await startTestServer(() => ({
      headers: { 'content-type': 'text/plain' },
      body: 'https://consent.example/s',
    }));
    handler = createConnectHandler({
      apiKey: 'wire-test-key',
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      retry: false,
      bodyLimit: 64,
    });
  });
  after(() => platform.close());

  const body = (bytes: number) => `{"provider":"slack"}${' '.repeat(bytes - 20)}`;
  /** A POST whose body arrives as a stream with the length it declares. */
  const declared = (text: string, length: number) =>
    handler(
      new Request(`${APP}/api/oauth-connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(length) },
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text));
            controller.close();
          },
        }),
        // @ts-expect-error Node's fetch needs duplex for a streamed body; not in the DOM types.
        duplex: 'half',
      }),
    );

  it(
    'takes a body that declares exactly bodyLimit bytes, and names the limit past it',
    { timeout: 10_000 },
    async () => {
      assert.equal((await declared(body(64), 64)).status, 200);
      const refused = await declared(body(65), 65);
      assert.equal(refused.status, 413);
      assert.equal((await refused.json()).detail, 'the body is larger than 64 bytes');
    },
  );

  it('takes a JSON media type with a space before its parameters', { timeout: 10_000 }, async () => {
    const response = await handler(
      new Request(`${APP}/api/oauth-connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json ; charset=utf-8' },
        body: '{"provider":"slack"}',
      }),
    );
    assert.equal(response.status, 200);
  });
});

describe('header names of every answer (src/http/answer.ts)', () => {
  it('are lower-cased, so a caller cannot send the content type twice or change it', () => {
    const headers = { Allow: 'GET', 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=60' };
    assert.deepEqual(problemAnswer({ status: 405 }, headers).headers, {
      allow: 'GET',
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
    });
    assert.deepEqual(jsonAnswer({}, 200, headers).headers, {
      allow: 'GET',
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
  });
});
