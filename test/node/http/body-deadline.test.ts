// The body-read deadline (src/http/body-reader.ts): a client that sends its body too slowly (byte by byte) is answered 408
// once the body has taken 10 s, instead of holding the handler for as long as it likes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createConnectHandler, toNodeListener, type ConnectHandlerErrorInfo } from '../../../src/server/index.js';

describe('the body-read deadline', () => {
  let server: Server;
  let port: number;
  const errors: ConnectHandlerErrorInfo[] = [];
  let platformCalls = 0;

  before(async () => {
    const handler = createConnectHandler({
      apiKey: 'deadline-key-Mv28',
      baseUrl: 'https://platform.example/v1',
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
      retry: false,
      onError: (info) => errors.push(info),
      fetch: async () => {
        platformCalls++;
        return new Response('https://consent.example/x', { headers: { 'content-type': 'text/plain' } });
      },
    });
    server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers 408 to a body sent byte by byte past 10 s', { timeout: 30_000 }, async () => {
    const body = '{"provider":"slack","pad":"xxxxxxxxxx"}';
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/connect/oauth-connect HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${body.length}\r\nSec-Fetch-Site: same-origin\r\n\r\n`,
        );
        let sent = 0;
        // One byte every 500 ms: the whole body would take 20 s.
        const drip = setInterval(() => {
          if (sent < body.length && !socket.destroyed) socket.write(body[sent++]);
        }, 500);
        let data = '';
        socket.on('data', (chunk) => (data += chunk));
        socket.on('close', () => {
          clearInterval(drip);
          resolve(data);
        });
        socket.on('error', () => {});
      });
      connectTimeout(reject);
    });
    const elapsed = Date.now() - started;
    assert.match(answer, /^HTTP\/1\.1 408 /, answer);
    assert.match(answer, /content-type: application\/problem\+json/i);
    assert.match(answer, /"status":408/);
    assert.ok(elapsed >= 9_500 && elapsed < 15_000, `answered after ${elapsed} ms`);
    assert.equal(platformCalls, 0);
    assert.deepEqual(errors, [], "a slow client is the client's doing, not the server's");
  });

  it('still serves a body sent in a few slow pieces within the deadline', { timeout: 30_000 }, async () => {
    const body = '{"provider":"slack"}';
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/connect/oauth-connect HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${body.length}\r\nSec-Fetch-Site: same-origin\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
        );
        setTimeout(() => socket.write(body.slice(5)), 1500);
        let data = '';
        socket.on('data', (chunk) => (data += chunk));
        socket.on('close', () => resolve(data));
      });
    });
    assert.match(answer, /^HTTP\/1\.1 200 /, answer);
  });
});

function connectTimeout(reject: (error: Error) => void): void {
  setTimeout(() => reject(new Error('no answer within 25 s')), 25_000).unref();
}
