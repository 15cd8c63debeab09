// toNodeListener in front of createConnectHandler, as an Express or node:http app mounts it: authorize() gets a
// standard Request with the browser's headers and body, the handler's Response is written back whole, and a
// browser that goes away stops the flow. Everything here goes through real sockets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import {
  createConnectHandler,
  toNodeListener,
  type ConnectHandler,
  type ConnectHandlerOptions,
} from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/http-server.js';

const API_KEY = 'secret-platform-key-123';
const ADA = { groupRef: 'acme', consumerRef: 'user-ada' };

async function listen(options: ConnectHandlerOptions): Promise<{ url: string; server: Server }> {
  const listener = toNodeListener(createConnectHandler(options));
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('toNodeListener(createConnectHandler(...)) over real sockets', () => {
  let emulator: Emulator;
  let baseUrl: string;

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    ({ baseUrl } = await emulator.listen());
  });
  after(() => emulator.close());

  it('hands authorize a Request whose method, URL, headers, body, signal and clone all work', async () => {
    const seen: Record<string, unknown> = {};
    const { url, server } = await listen({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize: async (request) => {
        seen.isRequest = request instanceof Request;
        seen.method = request.method;
        seen.url = request.url;
        seen.cookie = request.headers.get('cookie');
        seen.signal = request.signal instanceof AbortSignal && !request.signal.aborted;
        // A copy of the body: the handler still reads the original after this.
        seen.body = await request.clone().text();
        // A whole Request made from it, as code that forwards the request would (it takes the body over, so
        // only for a request without one).
        if (request.method === 'GET') seen.copy = new Request(request).headers.get('cookie');
        return ADA;
      },
      onError: (info) => {
        seen.error = `${info.message} ${info.error.stack ?? info.error.message}`;
      },
    });
    try {
      const response = await fetch(`${url}/api/connect/oauth-connect?from=test`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: 'sid=ada' },
        body: JSON.stringify({ provider: 'salesforce' }),
      });
      assert.equal(response.status, 200, `${await response.clone().text()} ${String(seen.error)}`);
      assert.match((await response.json()).url, /\/consent\/consent_/);
      assert.deepEqual(
        { ...seen },
        {
          isRequest: true,
          method: 'POST',
          url: `${url}/api/connect/oauth-connect?from=test`,
          cookie: 'sid=ada',
          signal: true,
          body: '{"provider":"salesforce"}',
        },
      );
      const get = await fetch(`${url}/api/connect/connections/conn_demo`, { headers: { cookie: 'sid=ada' } });
      assert.equal(get.status, 200, `${await get.clone().text()} ${String(seen.error)}`);
      assert.equal(seen.copy, 'sid=ada');
      assert.equal(seen.body, '', 'a GET has no body');
    } finally {
      await close(server);
    }
  });

  it('writes the same answer as the Web-standard handler, with its length', async () => {
    const options: ConnectHandlerOptions = {
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      allowedOrigins: ['https://app.example'],
      authorize: () => ADA,
    };
    const { url, server } = await listen(options);
    const handler = createConnectHandler(options);
    try {
      for (const [path, init] of [
        ['/api/connect/connections/conn_demo', {}],
        ['/api/connect/connections', {}],
        ['/api/connect/connections/conn_missing', {}],
        ['/api/connect/oauth-connect', { method: 'PUT' }],
        ['/api/connect/oauth-connect', { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } }],
        // The handler's own refusal of a forwarded host it cannot trust: the listener does not answer it first.
        ['/api/connect/connections', { headers: { 'x-forwarded-host': 'a.example/x' } }],
      ] as Array<[string, RequestInit]>) {
        const headers = { origin: 'https://app.example', ...(init.headers as Record<string, string>) };
        const overSocket = await fetch(`${url}${path}`, { ...init, headers });
        const direct = await handler(new Request(`${url}${path}`, { ...init, headers }));
        const what = `${init.method ?? 'GET'} ${path}`;
        assert.equal(overSocket.status, direct.status, what);
        const body = await overSocket.text();
        // `time` differs between the two answers; everything else is the same.
        const strip = (text: string) => text.replace(/"time":"[^"]*"/, '');
        assert.equal(strip(body), strip(await direct.text()), what);
        for (const name of [
          'content-type',
          'cache-control',
          'allow',
          'access-control-allow-origin',
          'access-control-allow-credentials',
          'access-control-allow-methods',
          'vary',
        ]) {
          assert.equal(overSocket.headers.get(name), direct.headers.get(name), `${what}: ${name}`);
        }
        if (body !== '') assert.equal(overSocket.headers.get('content-length'), String(Buffer.byteLength(body)), what);
        assert.equal(overSocket.headers.get('transfer-encoding'), null, what);
      }
    } finally {
      await close(server);
    }
  });

  describe('a browser that goes away', () => {
    let platform: TestServer;
    before(async () => {
      platform = await startTestServer((request) => {
        if (request.method === 'GET') return { status: 200, body: sampleConnection({ id: 'conn_1' }) };
        return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'https://provider.example/authorize' };
      });
    });
    after(() => platform.close());

    /** Sends PATCH oauth-update on a raw socket; closes the socket once authorize has been called, if `leave`. */
    async function update(leave: boolean): Promise<{ aborted: boolean | undefined }> {
      let abortedInAuthorize: boolean | undefined;
      let authorizeCalled!: () => void;
      const called = new Promise<void>((resolve) => (authorizeCalled = resolve));
      const listener = toNodeListener(
        createConnectHandler({
          apiKey: API_KEY,
          baseUrl: `${platform.url}/v1`,
          project: 'demo',
          retry: false,
          authorize: async (request) => {
            authorizeCalled();
            if (leave) {
              // Bounded: the test fails on the assertion below, never by hanging, if the signal never aborts.
              await new Promise<void>((resolve) => {
                const timer = setTimeout(resolve, 5000);
                request.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
              });
            }
            abortedInAuthorize = request.signal.aborted;
            return ADA;
          },
        }),
      );
      const server = createServer((req, res) => listener(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      let reply = '';
      socket.on('data', (chunk) => (reply += chunk));
      socket.write(
        `PATCH /api/connect/connections/conn_1:oauth-update HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\n\r\n`,
      );
      const until = async (what: string, ok: () => boolean) => {
        for (const deadline = Date.now() + 5000; !ok(); await new Promise((resolve) => setTimeout(resolve, 10))) {
          if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
        }
      };
      try {
        await called;
        if (leave) {
          socket.destroy();
          // The handler goes on after the browser left: it asks for the connection (to answer 404 rightly) ...
          await until('get-connection at the platform', () => platform.requests.length >= 1);
          // ... and would send oauth-update right after it if it did not check: give it ample time to.
          await new Promise((resolve) => setTimeout(resolve, 300));
        } else {
          await until('the answer', () => /\r\n\r\n/.test(reply));
          assert.match(reply, /^HTTP\/1\.1 200/);
        }
      } finally {
        socket.destroy();
        await close(server);
      }
      return { aborted: abortedInAuthorize };
    }

    it('asks the platform for get-connection and then oauth-update when the browser stays', async () => {
      platform.requests.length = 0;
      const { aborted } = await update(false);
      assert.equal(aborted, false);
      assert.deepEqual(
        platform.requests.map((r) => r.method),
        ['GET', 'PATCH'],
      );
    });

    it("aborts the Request's signal and asks the platform for nothing more once the browser has gone", async () => {
      platform.requests.length = 0;
      const { aborted } = await update(true);
      assert.equal(aborted, true);
      assert.equal(
        platform.requests.some((r) => r.method === 'PATCH'),
        false,
        'oauth-update sent for a browser that went away',
      );
    });
  });
});

describe('toNodeListener(createConnectHandler(...)) in front of the emulator, as apps mount it', () => {
  let emulator: Emulator;
  let handler: ConnectHandler;

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    // The app's session: the cookie sid=ada is Ada of acme, who owns the seed's conn_demo.
    const authorize = (request: Request) =>
      /(?:^|;\s*)sid=ada(?:;|$)/.test(request.headers.get('cookie') ?? '') ? ADA : null;
    handler = createConnectHandler({ apiKey: API_KEY, baseUrl, project: 'demo', authorize });
  });
  after(() => emulator.close());

  describe('from node:http', () => {
    it('serves the handler from node:http', async () => {
      const connect = toNodeListener(handler);
      const server = createServer((req, res) => connect(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/connect/oauth-connect`, {
          method: 'POST',
          headers: { cookie: 'sid=ada', 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
          body: JSON.stringify({ provider: 'hubspot' }),
        });
        assert.equal(response.status, 200);
        assert.match((await response.json()).url, /\/consent\//);
        const cross = await fetch(`http://127.0.0.1:${port}/api/connect/connections/conn_demo`, {
          headers: { cookie: 'sid=ada', origin: 'https://evil.test' },
        });
        assert.equal(cross.status, 403);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });
  });

  describe('the request line', () => {
    async function raw(port: number, lines: string[]): Promise<string> {
      const { connect } = await import('node:net');
      return new Promise((resolve, reject) => {
        // Written, not ended: a half-closed socket would abort the request before its answer.
        const socket = connect(port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
        let data = '';
        socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
        socket.on('data', (chunk) => (data += chunk));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
    }

    it("routes the request line's path only: a Host header cannot rewrite it", async () => {
      const seen: string[] = [];
      const connect = toNodeListener(handler);
      const server = createServer((req, res) => {
        seen.push(req.url ?? '');
        // Path-based middleware in front: only its own prefix reaches the handler (the absolute form too).
        if (/^(?:http:\/\/[^/]+)?\/api\/connect\//.test(req.url ?? '')) return connect(req, res);
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      try {
        const attacks = [
          [`GET /api/connect/zzz HTTP/1.1`, `Host: 127.0.0.1:${port}/api/connect/connections/conn_demo#`],
          [`GET /api/connect/zzz HTTP/1.1`, `Host: 127.0.0.1:${port}/api/connect/connections/conn_demo?`],
          [
            `GET /api/connect/zzz HTTP/1.1`,
            `Host: 127.0.0.1:${port}`,
            'X-Forwarded-Host: a/api/connect/connections/conn_demo#',
          ],
          [`GET /api/connect/zzz/../connections/conn_demo HTTP/1.1`, `Host: 127.0.0.1:${port}`],
          [`GET /api/connect/zzz/%2e%2e/connections/conn_demo HTTP/1.1`, `Host: 127.0.0.1:${port}`],
          [`GET /api/connect/zzz\\..\\connections\\conn_demo HTTP/1.1`, `Host: 127.0.0.1:${port}`],
        ];
        for (const lines of attacks) {
          const answer = await raw(port, [...lines, 'Cookie: sid=ada', 'Connection: close']);
          assert.match(answer, /^HTTP\/1\.1 400 /, `${lines.join(' | ')}\n${answer}`);
          assert.ok(!answer.includes('conn_demo"'), answer);
        }
        const fine = await raw(port, [
          'GET /api/connect/connections/conn_demo HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          'Cookie: sid=ada',
          'Connection: close',
        ]);
        assert.match(fine, /^HTTP\/1\.1 200 /);
        assert.match(fine, /"id":"conn_demo"/);
        const absolute = await raw(port, [
          `GET http://evil.test/api/connect/connections/conn_demo HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Cookie: sid=ada',
          'Connection: close',
        ]);
        assert.match(absolute, /^HTTP\/1\.1 200 /, 'the absolute form gives its path only');
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });
  });

  describe('after a body parser', () => {
    it('rebuilds the body that express.json() consumed', async () => {
      const { default: express } = await import('express');
      const app = express();
      app.use(express.json());
      app.use('/api/connect', toNodeListener(handler));
      const server = app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      const { port } = server.address() as AddressInfo;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/connect/oauth-connect`, {
          method: 'POST',
          headers: { cookie: 'sid=ada', 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'salesforce' }),
        });
        assert.equal(response.status, 200, await response.clone().text());
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });
  });
});
