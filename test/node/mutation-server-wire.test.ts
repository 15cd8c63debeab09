// Rules of src/http that mutation runs (npm run mutate -- server) showed no test held: a connect handler that the
// app wraps in its own function, Host headers at their bounds, JSON bodies at the declared limit, the header names
// of every answer, toNodeListener and toRequest at their edges, and Request-like objects that are no Request.
// Over real sockets where the rule is about the wire.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import {
  createConnectHandler,
  toNodeListener,
  type ConnectHandler,
  type FetchHandler,
} from '../../src/server/index.js';
import { toRequest } from '../../src/http/node.js';
import { problemAnswer, jsonAnswer } from '../../src/http/problem.js';
import { sampleConnection } from '../shared/fixtures.js';
import { raw } from './helpers/raw-http.js';
import { startTestServer, type TestServer } from './helpers/http-server.js';

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

const statusOf = (answer: string) => Number(answer.slice(9, 12));
const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);
/** The payload of a complete chunked body; throws when its last chunk is missing. */
function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  for (let at = 0; ;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (lineEnd < 0 || Number.isNaN(size)) throw new Error(`not a complete chunked body (at byte ${at})`);
    if (size === 0) return Buffer.concat(out);
    out.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 4 + size;
  }
}

/** The head's headers, lower-cased and sorted, without Date (it differs between two answers). */
const headersOf = (answer: string) =>
  answer
    .slice(0, answer.indexOf('\r\n\r\n'))
    .split('\r\n')
    .slice(1)
    .map((line) => line.toLowerCase())
    .filter((line) => !line.startsWith('date:'))
    .sort();

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

describe('toNodeListener and toRequest at their edges (src/http/node.ts)', () => {
  /** What a handler saw of the Request, answered as JSON. */
  const echo: FetchHandler = async (request) => {
    const copy = request.clone();
    return Response.json({
      method: request.method,
      url: request.url,
      body: await copy.text(),
      aborted: request.signal.aborted,
    });
  };
  const send = (port: number, head: string, body = '') =>
    raw(
      port,
      `${head}\r\nConnection: close\r\n${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ''}\r\n${body}`,
    );

  it('toRequest: https behind TLS, no HTTP/2 pseudo-headers, repeated headers joined, a named error', () => {
    // The IncomingMessage fields toRequest reads, as node:https and node:http2's compatibility API fill them.
    const incoming = (fields: object) =>
      ({ method: 'GET', url: '/x?y=1', socket: {}, readableEnded: false, ...fields }) as unknown as IncomingMessage;
    const request = toRequest(
      incoming({
        socket: { encrypted: true },
        headers: { ':authority': 'api.example', ':method': 'GET', host: 'api.example', 'x-list': ['a', 'b'] },
      }),
    );
    assert.equal(request.url, 'https://api.example/x?y=1');
    assert.deepEqual([...request.headers.keys()].sort(), ['host', 'x-list']);
    assert.equal(request.headers.get('x-list'), 'a, b');
    assert.equal(toRequest(incoming({ headers: { host: 'api.example' } })).url, 'http://api.example/x?y=1');
    assert.throws(
      () => toRequest(incoming({ headers: { host: 'api.example/evil' } })),
      (error: Error) =>
        error.name === 'RequestTargetError' && /the Host header is not a plain host/.test(error.message),
    );
  });

  it('routes the path of an absolute-form target, and refuses a target of another scheme', async () => {
    const server = await listen(echo);
    try {
      const ok = await send(server.port, 'GET http://api.example/echo?x=1 HTTP/1.1\r\nHost: api.example');
      assert.equal(statusOf(ok), 200);
      assert.equal(JSON.parse(bodyOf(ok)).url, 'http://api.example/echo?x=1');
      for (const target of ['ftp://api.example/echo', 'file:///etc/passwd']) {
        const refused = await send(server.port, `GET ${target} HTTP/1.1\r\nHost: api.example`);
        assert.equal(statusOf(refused), 400, target);
        assert.equal(JSON.parse(bodyOf(refused)).detail, 'the request target is not a path', target);
      }
    } finally {
      await server.close();
    }
  });

  it('refuses a Host of plain shape that is no address, saying so', async () => {
    const server = await listen(echo);
    try {
      for (const host of ['api.example:99999', '[1:2:3]']) {
        const refused = await send(server.port, `GET / HTTP/1.1\r\nHost: ${host}`);
        assert.equal(statusOf(refused), 400, host);
        assert.equal(JSON.parse(bodyOf(refused)).detail, 'the Host header is not a usable host[:port]', host);
      }
    } finally {
      await server.close();
    }
  });

  it('hands a GET or HEAD a whole Request without a body, even after a body parser ran', async () => {
    // As express.json() does on every request: req.body = {} and, here, a stream read to its end.
    const listener = toNodeListener(echo);
    const server: Server = createServer((req, res) => {
      (req as { body?: unknown }).body = {};
      req.resume();
      req.once('end', () => listener(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const get = await send(port, 'GET /echo HTTP/1.1\r\nHost: api.example');
      assert.equal(statusOf(get), 200);
      assert.deepEqual(JSON.parse(bodyOf(get)), {
        method: 'GET',
        url: 'http://api.example/echo',
        body: '',
        aborted: false,
      });
      const head = await send(port, 'HEAD /echo HTTP/1.1\r\nHost: api.example');
      assert.equal(statusOf(head), 200);
      const post = await send(
        port,
        'POST /echo HTTP/1.1\r\nHost: api.example\r\nContent-Type: application/json',
        '{"a":1}',
      );
      assert.equal(JSON.parse(bodyOf(post)).body, '{}', "a POST's body is what the parser made of it");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('gives a Request first read after the client went away an aborted signal', { timeout: 10_000 }, async () => {
    let gone!: () => void;
    const clientGone = new Promise<void>((resolve) => (gone = resolve));
    let seen!: (aborted: boolean) => void;
    const aborted = new Promise<boolean>((resolve) => (seen = resolve));
    const listener = toNodeListener(async (request) => {
      await clientGone;
      seen(request.signal.aborted);
      return new Response('late');
    });
    const server = createServer((req, res) => {
      res.once('close', () => gone());
      listener(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        socket.write('GET / HTTP/1.1\r\nHost: api.example\r\n\r\n');
        setTimeout(() => socket.destroy(), 50);
      });
      assert.equal(await aborted, true);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('has every member of a Request, read through to the whole Request', async () => {
    const seen: Record<string, unknown> = {};
    const server = await listen(async (request) => {
      const full = new Request(request.url, { method: request.method, headers: request.headers });
      for (const name of ['cache', 'credentials', 'destination', 'integrity', 'keepalive', 'mode', 'redirect']) {
        seen[name] =
          (request as unknown as Record<string, unknown>)[name] === (full as unknown as Record<string, unknown>)[name];
      }
      seen.isRequestConstructor = request.constructor === Request;
      seen.bodyUsedBefore = request.bodyUsed;
      seen.json = await request.json();
      seen.bodyUsedAfter = request.bodyUsed;
      return new Response('ok');
    });
    try {
      const answer = await send(
        server.port,
        'POST / HTTP/1.1\r\nHost: api.example\r\nContent-Type: application/json',
        '{"a":[1]}',
      );
      assert.equal(statusOf(answer), 200);
      assert.deepEqual(seen, {
        cache: true,
        credentials: true,
        destination: true,
        integrity: true,
        keepalive: true,
        mode: true,
        redirect: true,
        isRequestConstructor: true,
        bodyUsedBefore: false,
        json: { a: [1] },
        bodyUsedAfter: true,
      });
    } finally {
      await server.close();
    }
  });

  it("writes a plain handler's Response as built: cookies, reason phrase, no body, its own length", async () => {
    const server = await listen(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/empty') return new Response(null, { status: 204, statusText: 'Nothing Here' });
      const headers = new Headers({ 'content-type': 'text/plain' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response('two cookies', { status: 201, statusText: 'Made It', headers });
    });
    try {
      const cookies = await send(server.port, 'GET /cookies HTTP/1.1\r\nHost: api.example');
      assert.match(cookies, /^HTTP\/1\.1 201 Made It\r\n/);
      assert.deepEqual(cookies.match(/^set-cookie: .*$/gim), ['set-cookie: a=1; Path=/', 'set-cookie: b=2; Path=/']);
      assert.match(cookies, /\r\ncontent-length: 11\r\n/i);
      assert.equal(bodyOf(cookies), 'two cookies');
      const empty = await send(server.port, 'GET /empty HTTP/1.1\r\nHost: api.example');
      assert.match(empty, /^HTTP\/1\.1 204 Nothing Here\r\n/);
      assert.equal(bodyOf(empty), '');
    } finally {
      await server.close();
    }
  });

  it('streams a body larger than the socket takes at once, whole and in order', { timeout: 20_000 }, async () => {
    const chunk = 64 * 1024;
    const count = 128; // 8 MiB: far past the socket's buffer, so writing must wait for it to drain
    const server = await listen(async () => {
      let i = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (i === count) controller.close();
          else controller.enqueue(new Uint8Array(chunk).fill(i++ % 251));
        },
      });
      return new Response(stream, { headers: { 'content-type': 'application/octet-stream' } });
    });
    try {
      // A client that reads nothing for a while: the kernel's buffers fill, and the server's writes must wait.
      const body = await new Promise<Buffer>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => {
          socket.pause();
          socket.write('GET /big HTTP/1.1\r\nHost: api.example\r\nConnection: close\r\n\r\n');
          setTimeout(() => socket.resume(), 500);
        });
        const chunks: Buffer[] = [];
        socket.setTimeout(10_000, () =>
          socket.destroy(new Error(`stalled after ${Buffer.concat(chunks).length} bytes`)),
        );
        socket.on('data', (data: Buffer) => chunks.push(data));
        socket.on('end', () => resolve(Buffer.concat(chunks)));
        socket.on('error', reject);
      });
      const bytes = dechunk(body.subarray(body.indexOf('\r\n\r\n') + 4));
      assert.equal(bytes.length, chunk * count);
      for (let n = 0; n < count; n++) assert.equal(bytes[n * chunk], n % 251, `chunk ${n}`);
    } finally {
      await server.close();
    }
  });

  it(
    "keeps a plain handler's headers when it answers before the body arrived, with one Connection: close",
    {
      timeout: 10_000,
    },
    async () => {
      const server = await listen(
        async () =>
          new Response('{"too":"big"}', { status: 413, headers: { 'x-reason': 'big', connection: 'keep-alive' } }),
      );
      try {
        const answer = await raw(
          server.port,
          'POST / HTTP/1.1\r\nHost: api.example\r\nContent-Length: 100\r\n\r\n{"a":',
        );
        assert.equal(statusOf(answer), 413);
        assert.deepEqual(
          headersOf(answer).filter((h) => /^(connection|x-reason):/.test(h)),
          ['connection: close', 'x-reason: big'],
        );
      } finally {
        await server.close();
      }
    },
  );

  it('sends a one-chunk body the handler marked chunked as chunked, without a length', async () => {
    const server = await listen(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('one chunk'));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'transfer-encoding': 'chunked' } });
    });
    try {
      const answer = await send(server.port, 'GET / HTTP/1.1\r\nHost: api.example');
      assert.equal(headersOf(answer).filter((h) => h.startsWith('content-length:')).length, 0);
      assert.equal(dechunk(Buffer.from(bodyOf(answer))).toString(), 'one chunk');
    } finally {
      await server.close();
    }
  });

  it('closes the connection when it answers before the request body has arrived', { timeout: 10_000 }, async () => {
    const platform = await startTestServer();
    const handler = createConnectHandler({
      apiKey: 'wire-test-key',
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => null,
      retry: false,
    });
    const server = await listen(handler);
    try {
      // Half of a declared body: the handler refuses the request (401) without reading it.
      const answer = await raw(
        server.port,
        'POST /api/connect/oauth-connect HTTP/1.1\r\nHost: api.example\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"provider":',
      );
      assert.equal(statusOf(answer), 401);
      assert.match(answer, /\r\nconnection: close\r\n/i);
    } finally {
      await server.close();
      await platform.close();
    }
  });
});

describe('a Request-like object that is no Request (src/http/problem.ts)', () => {
  it('gets a 500 problem from the handler, reported to onError, not a rejected promise', async () => {
    const errors: string[] = [];
    const handler = createConnectHandler({
      apiKey: 'wire-test-key',
      baseUrl: 'http://127.0.0.1:9/v1',
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      onError: (info) => errors.push(info.message),
    });
    const likeRequest = {
      url: '/api/connect/connections',
      method: 'GET',
      headers: new Headers(),
      signal: new AbortController().signal,
    } as unknown as Request;
    const response = await handler(likeRequest);
    assert.equal(response.status, 500);
    const body = await response.json();
    assert.equal(body.detail, 'the connect handler failed');
    assert.equal(body.instance, undefined, 'no instance without an absolute URL');
    assert.deepEqual(errors, ['GET  answered 500: unexpected TypeError: Invalid URL']);
  });
});
