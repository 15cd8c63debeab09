// toNodeListener (src/http/node.ts) at the Node edge: the plain Request the handler gets (routing as middleware, bodies a
// parser consumed, Host checks), and its Response written back as a stream that stops when the client goes away.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createConnectHandler, toNodeListener, type FetchHandler } from '../../../src/server/index.js';
import { toRequest } from '../../../src/http/node.js';
import { startTestServer } from '../helpers/http-server.js';
import { raw } from '../helpers/raw-http.js';
import { listen, listenOn, dechunk, dechunkBytes, statusOf, bodyOf, headersOf } from '../helpers/node-listen.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stream of `total` chunks of 64 KB that counts how many were pulled and whether it was cancelled. */
function countingStream(total: number) {
  const chunk = new Uint8Array(64 * 1024).fill(120);
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled++ >= total) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

describe('toNodeListener hands the handler a plain Request', () => {
  it('of the standard class, whose body, clone and copy work as any Request', { timeout: 10_000 }, async () => {
    let seen: { plain: boolean; copied: string; cloned: string; read: string } | undefined;
    const { port, close } = await listen(async (request) => {
      const copy = new Request(request.clone());
      seen = {
        plain: Object.getPrototypeOf(request) === Request.prototype,
        cloned: await request.clone().text(),
        copied: await copy.text(),
        read: await request.text(),
      };
      return new Response('ok');
    });
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body: 'hello' });
      assert.equal(await answer.text(), 'ok');
      assert.deepEqual(seen, { plain: true, cloned: 'hello', copied: 'hello', read: 'hello' });
    } finally {
      await close();
    }
  });

  it('whose signal stays unaborted once the answer was written in full', { timeout: 10_000 }, async () => {
    let signal: AbortSignal | undefined;
    const { port, close } = await listen(async (request) => {
      signal = request.signal;
      return new Response('done');
    });
    try {
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'done');
      await close();
      await wait(50);
      assert.equal(signal!.aborted, false);
    } finally {
      await close();
    }
  });
});

describe('toNodeListener writes the Response as a stream', () => {
  it('pulls no more of the body than a client that stopped reading takes', { timeout: 20_000 }, async () => {
    // 64 MB in all: without back-pressure the listener would pull every chunk into memory at once.
    const { stream, seen } = countingStream(1000);
    const { port, close } = await listen(async () => new Response(stream));
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
    try {
      await new Promise((resolve) => socket.once('data', resolve));
      socket.pause();
      await wait(500);
      const held = seen.pulled;
      await wait(300);
      assert.ok(held < 300, `pulled ${held} of 1000 chunks while the client read nothing`);
      assert.equal(seen.pulled, held, 'went on pulling while the client read nothing');
    } finally {
      socket.destroy();
      await close();
    }
  });

  it('cancels the body stream when the client goes away half-way', { timeout: 10_000 }, async () => {
    const { stream, seen } = countingStream(1000);
    const { port, close } = await listen(async () => new Response(stream));
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
    try {
      await new Promise((resolve) => socket.once('data', resolve));
      socket.destroy();
      for (let i = 0; i < 50 && !seen.cancelled; i++) await wait(20);
      assert.equal(seen.cancelled, true);
    } finally {
      await close();
    }
  });
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
      const { port, close } = await listenOn(server);
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
      const standalone = await listenOn(alone);
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
      const { port, close } = await listenOn(createServer(toNodeListener(echo)));
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

  it('answers 400 for a request target it cannot map, without calling the handler', { timeout: 10_000 }, async () => {
    const { port, close } = await listenOn(createServer(toNodeListener(echo)));
    seen.length = 0;
    try {
      const cases: Array<[string[], RegExp]> = [
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
  });

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
            { statusText: 'Streamed' },
          ),
        '/empty': () => new Response(null, { status: 204 }),
      };
      const { port, close } = await listenOn(
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
        assert.match(chunked, /^HTTP\/1\.1 200 Streamed\r\n/);
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
      const { port, close } = await listenOn(createServer(toNodeListener(refuse)));
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
    const { port, close } = await listenOn(createServer(failing));
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
    const { port, close } = await listenOn(createServer(failing));
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
    const { port, close } = await listenOn(createServer(listener));
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
      assert.throws(() => toNodeListener({} as never), /createConnectHandler returns, got object/);
      assert.throws(() => toNodeListener(echo, { serves: '/api' } as never), /serves must be a function/);
      assert.equal(typeof toNodeListener(echo, { serves: undefined }), 'function');
    },
  );
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

  it("streams a body past the socket's buffer whole and in order, without a leak", { timeout: 20_000 }, async () => {
    // Each wait for the socket to drain must let go of its listeners, or Node warns of a leak after ten waits.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
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
      const bytes = dechunkBytes(body.subarray(body.indexOf('\r\n\r\n') + 4));
      assert.equal(bytes.length, chunk * count);
      for (let n = 0; n < count; n++) assert.equal(bytes[n * chunk], n % 251, `chunk ${n}`);
      await wait(10);
      assert.deepEqual(warnings, []);
    } finally {
      process.off('warning', onWarning);
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
      assert.equal(dechunkBytes(Buffer.from(bodyOf(answer))).toString(), 'one chunk');
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

  it('toRequest: a message without url, method or socket reads as GET / over http, and serves() sees /', () => {
    const bare = { headers: { host: 'api.example' } } as unknown as IncomingMessage;
    const request = toRequest(bare);
    assert.equal(request.method, 'GET');
    assert.equal(request.url, 'http://api.example/');
    const paths: string[] = [];
    const listener = toNodeListener(echo, { serves: (path) => (paths.push(path), false) });
    listener(bare, {} as ServerResponse, () => {});
    assert.deepEqual(paths, ['/']);
  });

  it('answers 400 when a body parser left a body it cannot rebuild, without the error', async () => {
    const listener = toNodeListener(echo);
    const server: Server = createServer((req, res) => {
      (req as { body?: unknown }).body = { n: 1n };
      req.resume();
      req.once('end', () => listener(req, res));
    });
    const { port, close } = await listenOn(server);
    try {
      const answer = await send(
        port,
        'POST /echo HTTP/1.1\r\nHost: api.example\r\nContent-Type: application/json',
        '{}',
      );
      assert.equal(statusOf(answer), 400);
      assert.equal(JSON.parse(bodyOf(answer)).detail, 'the request could not be read');
    } finally {
      await close();
    }
  });

  it('closes the connection after its own answer when the request body has not arrived, and only then', async () => {
    const server = await listen(async () => {
      throw new Error('down');
    });
    try {
      const early = await raw(
        server.port,
        'POST /a/../b HTTP/1.1\r\nHost: api.example\r\nContent-Length: 100\r\n\r\n{"a":',
      );
      assert.equal(statusOf(early), 400);
      assert.equal(
        JSON.parse(bodyOf(early)).detail,
        'the request path is not in normal form (dot segments, backslashes, fragments or unencoded characters)',
      );
      assert.ok(headersOf(early).includes('connection: close'), early);
      // A whole request keeps its connection after the 500 of a failing handler: read the one answer, then hang up.
      const whole = await new Promise<string>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () =>
          socket.write('GET /fails HTTP/1.1\r\nHost: api.example\r\n\r\n'),
        );
        let data = '';
        socket.setTimeout(5000, () => socket.destroy(new Error(`no answer: ${data}`)));
        socket.on('data', (chunk) => {
          data += chunk;
          const length = /\r\ncontent-length: (\d+)\r\n/i.exec(data);
          if (length && bodyOf(data).length >= Number(length[1])) {
            socket.destroy();
            resolve(data);
          }
        });
        socket.on('error', reject);
      });
      assert.equal(statusOf(whole), 500);
      assert.ok(headersOf(whole).includes('connection: keep-alive'), whole);
    } finally {
      await server.close();
    }
  });

  it('gives the handler an aborted signal when the client went away before the listener ran', async () => {
    let seen!: (aborted: boolean) => void;
    const aborted = new Promise<boolean>((resolve) => (seen = resolve));
    const listener = toNodeListener(async (request) => {
      seen(request.signal.aborted);
      return new Response('late');
    });
    // As a middleware in front would: it awaits something while the client hangs up, then hands the request on.
    const { port, close } = await listenOn(createServer((req, res) => res.once('close', () => listener(req, res))));
    try {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('GET / HTTP/1.1\r\nHost: api.example\r\n\r\n');
        setTimeout(() => socket.destroy(), 50);
      });
      assert.equal(await aborted, true);
    } finally {
      await close();
    }
  });

  it('writes a Response whose Headers have no getSetCookie (another fetch), with no Set-Cookie added', async () => {
    const server = await listen(async () => {
      const headers = new Headers({ 'x-kept': 'yes' });
      Object.defineProperty(headers, 'getSetCookie', { value: undefined });
      return { status: 202, statusText: '', headers, body: null } as unknown as Response;
    });
    try {
      const answer = await send(server.port, 'GET / HTTP/1.1\r\nHost: api.example');
      assert.equal(statusOf(answer), 202);
      assert.ok(headersOf(answer).includes('x-kept: yes'), answer);
      assert.equal(headersOf(answer).filter((h) => h.startsWith('set-cookie:')).length, 0, answer);
    } finally {
      await server.close();
    }
  });
});
