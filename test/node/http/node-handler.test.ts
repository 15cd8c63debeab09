// toNodeListener in front of createConnectHandler, as an Express or node:http app mounts it: authorize() gets a
// standard Request with the browser's headers and body, the handler's Response is written back whole, and a
// browser that goes away stops the flow. Everything here goes through real sockets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { createConnectHandler, toNodeListener, type ConnectHandlerOptions } from '../../../src/server/index.js';
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
        seen.error = `${info.message} ${String(info.error)}`;
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
