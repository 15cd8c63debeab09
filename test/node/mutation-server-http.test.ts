// Rules of src/http that StrykerJS showed no test held (npm run mutate -- server):
// how JSON bodies are read (media types, limits, encodings), what every answer
// carries, and how toNodeListener maps node:http to the handler and back
// (routing as middleware, bodies a parser consumed, streamed answers, closed
// connections, failures). Everything goes over real sockets to a real server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createConnectHandler, toNodeListener, type ConnectHandler } from '../../src/server/index.js';
import { raw } from './helpers/raw-http.js';
import { startTestServer, type TestServer } from './helpers/http-server.js';

const APP = 'http://app.test';

/** Listens on loopback; returns the port and a close that ends every connection. */
async function listen(server: Server): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The payload of a complete chunked body; throws when its last chunk is missing. */
function dechunk(body: string): string {
  let out = '';
  for (let rest = body; ;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (lineEnd < 0 || Number.isNaN(size)) throw new Error(`not a complete chunked body: ${JSON.stringify(body)}`);
    if (size === 0) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 4 + size);
  }
}

describe('JSON bodies and the answers of the handler (src/http/problem.ts)', () => {
  let platform: TestServer;
  let handler: ConnectHandler;

  before(async () => {
    platform = await startTestServer(() => ({
      headers: { 'content-type': 'text/plain' },
      body: 'https://consent.example/s',
    }));
    handler = createConnectHandler({
      apiKey: 'http-test-key',
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      retry: false,
      bodyLimit: 64,
    });
  });
  after(() => platform.close());

  const post = (body: BodyInit | undefined, headers: Record<string, string> = {}) =>
    handler(new Request(`${APP}/api/oauth-connect?from=test`, { method: 'POST', headers, body }));

  async function problemOf(response: Response, status: number) {
    assert.equal(response.status, status);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = await response.json();
    assert.equal(body.status, status);
    assert.equal(body.instance, `${APP}/api/oauth-connect`, 'the instance is the request URL without its query');
    return body;
  }

  it('takes application/json and any +json type, in any case and with parameters', { timeout: 10_000 }, async () => {
    for (const type of [
      'application/json',
      'Application/JSON; charset=utf-8',
      ' application/vnd.api+json ',
      'application/merge-patch+json;x=1',
      'application/json ; charset=utf-8',
    ]) {
      const response = await post('{"provider":"slack"}', { 'content-type': type });
      assert.equal(response.status, 200, type);
      assert.equal(response.headers.get('content-type'), 'application/json');
      assert.equal(response.headers.get('cache-control'), 'no-store');
    }
  });

  it(
    'answers 415 with Accept for any other type, naming it, or the header to send when there is none',
    { timeout: 10_000 },
    async () => {
      for (const type of [
        'text/plain',
        'application/jsonx',
        'text/json',
        'application/json-seq',
        'xapplication/json',
        'application/+json',
      ]) {
        const response = await post('{"provider":"slack"}', { 'content-type': type });
        assert.equal(response.headers.get('accept'), 'application/json', type);
        const body = await problemOf(response, 415);
        assert.equal(body.detail, `expected a JSON body (application/json), got ${type}`);
        assert.equal(body.type, 'about:blank');
        assert.equal(body.title, 'Unsupported Media Type');
      }
      const untyped = await problemOf(await post(new TextEncoder().encode('{"provider":"slack"}')), 415);
      assert.equal(untyped.detail, 'expected a JSON body with Content-Type: application/json');
    },
  );

  it(
    'answers 400 for an empty body, JSON that does not parse and bytes that are not UTF-8',
    { timeout: 10_000 },
    async () => {
      const json = { 'content-type': 'application/json' };
      const before = platform.requests.length;
      assert.equal((await problemOf(await post(undefined, json), 400)).detail, 'the JSON body is empty');
      assert.equal((await problemOf(await post(' \n\t ', json), 400)).detail, 'the JSON body is empty');
      assert.match((await problemOf(await post('{"provider":', json), 400)).detail, /^the body is not valid JSON: \S/);
      const latin1 = new Uint8Array([
        ...new TextEncoder().encode('{"provider":"sl'),
        0xe9,
        ...new TextEncoder().encode('"}'),
      ]);
      assert.equal((await problemOf(await post(latin1, json), 400)).detail, 'the body is not valid UTF-8');
      assert.equal(platform.requests.length, before, 'nothing unreadable reaches the platform');
    },
  );

  it('reads up to bodyLimit bytes, streamed or declared, and answers 413 past it', { timeout: 10_000 }, async () => {
    const json = { 'content-type': 'application/json' };
    const body = (bytes: number) => `{"provider":"slack"}${' '.repeat(bytes - 20)}`;
    assert.equal((await post(body(64), json)).status, 200);
    assert.equal((await problemOf(await post(body(65), json), 413)).detail, 'the body is larger than 64 bytes');
    // Streamed in small chunks, with no length declared.
    const chunks = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < text.length; i += 10) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 10)));
          controller.close();
        },
      });
    const streamed = (text: string, declaredLength?: number) =>
      handler(
        new Request(`${APP}/api/oauth-connect`, {
          method: 'POST',
          headers: declaredLength === undefined ? json : { ...json, 'content-length': String(declaredLength) },
          body: chunks(text),
          // @ts-expect-error Node's fetch needs duplex for a streamed body; not in the DOM types.
          duplex: 'half',
        }),
      );
    assert.equal((await streamed(body(64))).status, 200);
    assert.equal((await streamed(body(65))).status, 413);
    // Declared exactly at the limit, it is read; declared one byte past it, refused with the limit named.
    assert.equal((await streamed(body(64), 64)).status, 200);
    assert.equal((await problemOf(await streamed(body(65), 65), 413)).detail, 'the body is larger than 64 bytes');
    // A declared length past the limit is refused before a byte is read: the body here never comes.
    const declared = await handler(
      new Request(`${APP}/api/oauth-connect`, {
        method: 'POST',
        headers: { ...json, 'content-length': '65' },
        body: new ReadableStream({}),
        // @ts-expect-error as above
        duplex: 'half',
      }),
    );
    assert.equal(declared.status, 413);
  });

  it(
    'titles a problem by its status and types it about:blank when it has no type of its own',
    { timeout: 10_000 },
    async () => {
      const missing = await handler(
        new Request(`${APP}/api/nothing`, { headers: { 'sec-fetch-site': 'same-origin' } }),
      );
      const body = await missing.json();
      assert.equal(missing.headers.get('cache-control'), 'no-store');
      assert.deepEqual(
        { type: body.type, title: body.title, status: body.status, detail: body.detail, instance: body.instance },
        {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'no such connect route',
          instance: `${APP}/api/nothing`,
        },
      );
      assert.ok(!Number.isNaN(Date.parse(body.time)));
    },
  );
});

describe('toNodeListener (src/http/node.ts)', () => {
  /** The requests the echo handler saw: method, URL, headers and body text. */
  const seen: Array<{ method: string; url: string; headers: Headers; body: string }> = [];
  /** A Web-standard handler that answers what it was sent, as JSON. */
  const echo = async (request: Request): Promise<Response> => {
    const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    seen.push({ method: request.method, url: request.url, headers: request.headers, body });
    return Response.json({ method: request.method, url: request.url, body });
  };

  it(
    'as middleware, hands next() the paths serves() refuses, and answers the others',
    { timeout: 10_000 },
    async () => {
      const listener = toNodeListener(echo, { serves: (path) => path.startsWith('/api/') });
      const passed: string[] = [];
      const server = createServer((req, res) =>
        listener(req, res, () => {
          passed.push(req.url ?? '');
          res.writeHead(418).end('next');
        }),
      );
      const { port, close } = await listen(server);
      try {
        const skipped = await fetch(`http://127.0.0.1:${port}/other/x?api/`);
        assert.equal(skipped.status, 418);
        assert.deepEqual(passed, ['/other/x?api/']);
        const served = await fetch(`http://127.0.0.1:${port}/api/x?q=1`);
        assert.equal(served.status, 200);
        assert.equal((await served.json()).url, `http://127.0.0.1:${port}/api/x?q=1`);
        assert.equal(passed.length, 1);
      } finally {
        await close();
      }
      // Without next(), it answers every path.
      const alone = createServer(toNodeListener(echo, { serves: () => false }));
      const standalone = await listen(alone);
      try {
        assert.equal((await fetch(`http://127.0.0.1:${standalone.port}/other`)).status, 200);
      } finally {
        await standalone.close();
      }
    },
  );

  it(
    'builds the Request from the request line, the headers (repeated ones too) and the body',
    { timeout: 10_000 },
    async () => {
      const { port, close } = await listen(createServer(toNodeListener(echo)));
      seen.length = 0;
      try {
        const answer = await raw(
          port,
          [
            'POST /api/x?q=1 HTTP/1.1',
            `Host: 127.0.0.1:${port}`,
            'X-Trace: a',
            'X-Trace: b',
            'Content-Type: text/plain',
            'Content-Length: 5',
            'Connection: close',
            '',
            'hello',
          ].join('\r\n'),
        );
        assert.match(answer, /^HTTP\/1\.1 200 /);
        assert.equal(seen[0].url, `http://127.0.0.1:${port}/api/x?q=1`);
        assert.equal(seen[0].method, 'POST');
        assert.equal(seen[0].body, 'hello');
        assert.equal(seen[0].headers.get('x-trace'), 'a, b');
        // HTTP/1.0 without a Host header: the host is localhost.
        const old = await raw(port, 'GET /api/y HTTP/1.0\r\n\r\n');
        assert.match(old, /^HTTP\/1\.[01] 200 /);
        assert.equal(seen[1].url, 'http://localhost/api/y');
      } finally {
        await close();
      }
    },
  );

  it(
    'answers 400 for an X-Forwarded-Host or request target it cannot map, without calling the handler',
    { timeout: 10_000 },
    async () => {
      const { port, close } = await listen(createServer(toNodeListener(echo)));
      seen.length = 0;
      try {
        const cases: Array<[string[], RegExp]> = [
          [
            ['GET /api/x HTTP/1.1', `Host: 127.0.0.1:${port}`, 'X-Forwarded-Host: a.example/x'],
            /X-Forwarded-Host header is not a plain/,
          ],
          [
            [
              'GET /api/x HTTP/1.1',
              `Host: 127.0.0.1:${port}`,
              'X-Forwarded-Host: a.example',
              'X-Forwarded-Host: b.example?',
            ],
            /X-Forwarded-Host/,
          ],
          [['GET ftp://a.example/api/x HTTP/1.1', `Host: 127.0.0.1:${port}`], /the request target is not a path/],
          [['GET * HTTP/1.1', `Host: 127.0.0.1:${port}`], /the request target is not a path/],
        ];
        for (const [lines, detail] of cases) {
          const answer = await raw(port, `${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`);
          assert.match(answer, /^HTTP\/1\.1 400 /, lines.join(' | '));
          assert.match(answer, /content-type: application\/problem\+json/i);
          assert.match(answer, detail, answer);
        }
        assert.equal(seen.length, 0);
      } finally {
        await close();
      }
    },
  );

  it('rebuilds a body that a parser consumed: parsed JSON, text and raw bytes', { timeout: 10_000 }, async () => {
    const { default: express } = await import('express');
    const app = express();
    app.use('/json', express.json(), toNodeListener(echo));
    app.use('/text', express.text(), toNodeListener(echo));
    app.use('/raw', express.raw({ type: 'application/octet-stream' }), toNodeListener(echo));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const send = async (path: string, type: string, body: string) =>
        (await (
          await fetch(`http://127.0.0.1:${port}${path}/echo`, {
            method: 'POST',
            headers: { 'content-type': type },
            body,
          })
        ).json()) as {
          url: string;
          body: string;
        };
      const json = await send('/json', 'application/json', '{ "a" : [1, 2] }');
      assert.equal(json.body, '{"a":[1,2]}');
      assert.equal(json.url, `http://127.0.0.1:${port}/json/echo`, 'the mounted path, not the one express strips');
      assert.equal((await send('/text', 'text/plain', 'plain words')).body, 'plain words');
      assert.equal((await send('/raw', 'application/octet-stream', 'raw bytes')).body, 'raw bytes');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it(
    'writes the status line, every Set-Cookie, and a length for an answer of one chunk or none',
    { timeout: 10_000 },
    async () => {
      const answers: Record<string, () => Response> = {
        '/cookies': () => {
          const headers = new Headers({ 'x-kept': 'yes' });
          headers.append('set-cookie', 'a=1; Path=/');
          headers.append('set-cookie', 'b=2; Path=/');
          return new Response('ok', { status: 201, statusText: 'Made It', headers });
        },
        '/one-chunk': () =>
          new Response(
            new ReadableStream({
              start(c) {
                c.enqueue(new TextEncoder().encode('single'));
                c.close();
              },
            }),
          ),
        '/no-chunk': () =>
          new Response(
            new ReadableStream({
              start(c) {
                c.close();
              },
            }),
            { status: 202 },
          ),
        '/chunks': () =>
          new Response(
            new ReadableStream({
              start(c) {
                for (const part of ['one,', 'two,', 'three']) c.enqueue(new TextEncoder().encode(part));
                c.close();
              },
            }),
          ),
        '/empty': () => new Response(null, { status: 204 }),
      };
      const { port, close } = await listen(
        createServer(toNodeListener(async (request) => answers[new URL(request.url).pathname]())),
      );
      try {
        const get = (path: string) =>
          raw(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
        const cookies = await get('/cookies');
        assert.match(cookies, /^HTTP\/1\.1 201 Made It\r\n/);
        assert.deepEqual(cookies.match(/^set-cookie: .*$/gim), ['set-cookie: a=1; Path=/', 'set-cookie: b=2; Path=/']);
        assert.match(cookies, /^x-kept: yes\r$/im);
        assert.match(cookies, /^content-length: 2\r$/im);
        const one = await get('/one-chunk');
        assert.match(one, /^content-length: 6\r$/im);
        assert.ok(!/transfer-encoding/i.test(one), one);
        assert.ok(one.endsWith('\r\n\r\nsingle'), one);
        const none = await get('/no-chunk');
        assert.match(none, /^HTTP\/1\.1 202 /);
        assert.match(none, /^content-length: 0\r$/im);
        const chunked = await get('/chunks');
        assert.match(chunked, /^transfer-encoding: chunked\r$/im);
        assert.ok(!/content-length/i.test(chunked), chunked);
        assert.equal(dechunk(chunked.slice(chunked.indexOf('\r\n\r\n') + 4)), 'one,two,three');
        const empty = await get('/empty');
        assert.match(empty, /^HTTP\/1\.1 204 /);
      } finally {
        await close();
      }
    },
  );

  it(
    "closes the connection after an answer given before the request's body was read, and only then",
    { timeout: 10_000 },
    async () => {
      const refuse = async (request: Request) =>
        new URL(request.url).pathname === '/read'
          ? new Response(await request.text(), { headers: { connection: 'keep-alive' } })
          : new Response('no', { status: 401, headers: { connection: 'keep-alive' } });
      const { port, close } = await listen(createServer(toNodeListener(refuse)));
      try {
        const body = 'x'.repeat(200_000);
        const request = (path: string) =>
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
        const early = await raw(port, request('/refuse'));
        assert.match(early, /^HTTP\/1\.1 401 /);
        assert.match(early, /^connection: close\r$/im);
        assert.equal(early.match(/^connection:/gim)?.length, 1, early);
        const read = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.write(request('/read')));
          let data = '';
          socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
          socket.on('data', (chunk) => {
            data += chunk;
            if (data.length > body.length) {
              resolve(data);
              socket.destroy();
            }
          });
          socket.on('error', reject);
        });
        assert.match(read, /^HTTP\/1\.1 200 /);
        assert.match(read, /^connection: keep-alive\r$/im);
      } finally {
        await close();
      }
    },
  );

  it('answers a bare 500 without the error when the handler fails', { timeout: 10_000 }, async () => {
    const failing = toNodeListener(async () => {
      throw new Error('secret db password');
    });
    const { port, close } = await listen(createServer(failing));
    try {
      const thrown = await fetch(`http://127.0.0.1:${port}/throws`);
      assert.equal(thrown.status, 500);
      assert.equal(thrown.headers.get('content-type'), 'application/problem+json');
      const text = await thrown.text();
      assert.equal(JSON.parse(text).detail, 'the server failed to answer');
      assert.ok(!text.includes('secret'), text);
    } finally {
      await close();
    }
  });

  // writeResponse once ended such an answer normally in its finally block, so the client got a well-formed answer
  // that was silently truncated.
  it('cuts an answer whose stream fails half-way, so the client sees it incomplete', { timeout: 10_000 }, async () => {
    let sent = 0;
    const failing = toNodeListener(
      async () =>
        new Response(
          new ReadableStream({
            pull(c) {
              if (sent++ < 2) c.enqueue(new TextEncoder().encode(`part${sent};`));
              else c.error(new Error('stream broke'));
            },
          }),
        ),
    );
    const { port, close } = await listen(createServer(failing));
    try {
      const cut = await raw(port, `GET /half HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      // The connection is cut: whatever of the answer was flushed before, never its chunked end.
      if (cut !== '') assert.match(cut, /^HTTP\/1\.1 200 /);
      assert.ok(!/\r\n0\r\n\r\n$/.test(cut), `the answer must not look complete: ${JSON.stringify(cut.slice(-20))}`);
    } finally {
      await close();
    }
  });

  it("aborts the Request's signal when the client goes away", { timeout: 10_000 }, async () => {
    let signal: AbortSignal | undefined;
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const listener = toNodeListener(async (request) => {
      signal = request.signal;
      release();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return new Response('late');
    });
    const { port, close } = await listen(createServer(listener));
    try {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`GET /slow HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
      );
      await arrived;
      assert.equal(signal!.aborted, false);
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(signal!.aborted, true);
    } finally {
      await close();
    }
  });

  it(
    'refuses options that are not an object, naming what it got for a handler that is not a function',
    { timeout: 10_000 },
    () => {
      assert.throws(() => toNodeListener(echo, null as never), /toNodeListener options must be an object/);
      assert.throws(() => toNodeListener(echo, 'x' as never), /toNodeListener options must be an object/);
      assert.throws(() => toNodeListener(null as never), /createConnectHandler returns, got null/);
      assert.throws(() => toNodeListener(5 as never), /createConnectHandler returns, got number/);
      assert.equal(typeof toNodeListener(echo, { serves: undefined }), 'function');
    },
  );
});
