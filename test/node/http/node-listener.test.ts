// toNodeListener (src/http/node.ts) at the Node edge: the handler gets a plain Web Request, and the Response it
// returns is written back as a stream that waits for the socket and stops when the client goes away.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { toNodeListener, type FetchHandler } from '../../../src/http/node.js';

async function listen(handler: FetchHandler): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer(toNodeListener(handler));
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
