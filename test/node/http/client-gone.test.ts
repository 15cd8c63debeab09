// A browser that goes away while sending its body is the browser's doing: answered (or at least treated) as 499,
// never reported to onError as a failure of the server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { createConnectHandler, toNodeListener, type ConnectHandlerErrorInfo } from '../../../src/server/index.js';
import { isClientGone } from '../../../src/http/client-gone.js';

const API_KEY = 'abort-key-Qe51Vb';

describe('a client that aborts mid-body', () => {
  let emulator: Emulator;
  let server: Server;
  let port: number;
  const errors: ConnectHandlerErrorInfo[] = [];
  const statuses: number[] = [];
  let platformCalls = 0;

  before(async () => {
    emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    const handler = createConnectHandler({
      apiKey: API_KEY,
      baseUrl,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
      retry: false,
      onError: (info) => errors.push(info),
      fetch: (input, init) => {
        platformCalls++;
        return fetch(input, init);
      },
    });
    // Through the Response path (a wrapper is no registered answer handler), to see the status the handler chose.
    const listener = toNodeListener(async (request) => {
      const response = await handler(request);
      statuses.push(response.status);
      return response;
    });
    // And through the direct answer path, which writes no Response.
    const direct = toNodeListener(handler);
    server = createServer((req, res) => (req.url?.startsWith('/direct/') ? direct(req, res) : listener(req, res)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await emulator.close();
  });

  /** Sends the head and half of a 100-byte body, then destroys the socket. */
  function halfABody(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
            `Content-Length: 100\r\nSec-Fetch-Site: same-origin\r\n\r\n{"provider":"slack","pad":"`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
  }

  async function settled(count: number): Promise<void> {
    for (let i = 0; i < 100 && statuses.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    // Time for onError, if anything were reported.
    await new Promise((r) => setTimeout(r, 50));
  }

  it('is treated as 499 and not reported as internal', async () => {
    await halfABody('/api/connect/oauth-connect');
    await settled(1);
    assert.deepEqual(statuses, [499]);
    await halfABody('/direct/api/connect/oauth-connect');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(errors, []);
    assert.equal(platformCalls, 0);
  });
});

describe('isClientGone', () => {
  const coded = (code: unknown) => Object.assign(new Error('socket trouble'), { code });

  it("knows the errors of a body stream whose client went away: AbortError, Node's 'aborted', the reset codes", () => {
    for (const error of [
      new DOMException('the client left', 'AbortError'),
      new Error('aborted'),
      coded('ECONNRESET'),
      coded('ECONNABORTED'),
      coded('ERR_STREAM_PREMATURE_CLOSE'),
    ]) {
      assert.equal(isClientGone(error), true, `${error.name}: ${error.message}`);
    }
  });

  it('takes nothing else for a client gone: other errors, codes and messages, or a thrown value that is no Error', () => {
    for (const error of [
      new Error('Aborted'),
      new Error('aborted early'),
      new TypeError('terminated'),
      coded('ETIMEDOUT'),
      coded(undefined),
      { name: 'AbortError', message: 'aborted', code: 'ECONNRESET' },
      'aborted',
      null,
    ]) {
      assert.equal(isClientGone(error), false, String((error as Error)?.message ?? error));
    }
  });
});
