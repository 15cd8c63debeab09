// A client that goes away while sending its body is the client's doing: the emulator logs no internal error (no
// stack in the developer's terminal for every closed tab) and stays up for the next request.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

describe('the emulator and a client that aborts mid-body', () => {
  let emulator: Emulator;
  let port: number;

  before(async () => {
    emulator = createEmulator({ apiKey: 'abort-key', verifyDelay: 0 });
    port = Number(new URL((await emulator.listen()).baseUrl).port);
  });
  after(() => emulator.close());

  /** Sends the head and half of a 100-byte JSON body, then destroys the socket. */
  function halfABody(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Api-Key: abort-key\r\n` +
            `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"provider":"slack","pad":"`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
  }

  it('logs no internal error, and answers the next request', async () => {
    const logged: unknown[][] = [];
    const real = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      await halfABody('/v1/oauth-connect');
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      console.error = real;
    }
    assert.deepEqual(logged, []);
    const response = await fetch(`http://127.0.0.1:${port}/v1/projects/demo`, {
      headers: { 'x-api-key': 'abort-key' },
    });
    assert.equal(response.status, 200);
  });
});
