// A 2xx answer is read up to MAX_ANSWER_BYTES (8 MiB, src/api/answer-limit.ts) and refused past it, as an error's
// body is read up to 64 KiB: off the stream, chunk by chunk, the rest never read, so an endless or huge platform
// answer neither fills the server's memory nor blocks its event loop.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformClient, PlatformRequestError } from '../../../src/api/index.js';
import { MAX_ANSWER_BYTES } from '../../../src/api/answer-limit.js';
import { createConnectHandler } from '../../../src/server/index.js';
import { call } from '../helpers/handler-calls.js';

const CHUNK = Buffer.alloc(64 * 1024, 'x');
/** The most the endless platform writes before it stalls (so a client without the bound stops at its time-out). */
const ENDLESS_BYTES = 64 * 1024 * 1024;

/** A JSON array of connection-like objects, exactly `bytes` long. */
function listOf(bytes: number): Buffer {
  const item = JSON.stringify({ id: 'conn_x', provider: 'slack', group: { groupRef: 'acme' }, status: 'working' });
  const items: string[] = [];
  let size = 2;
  while (size + item.length + 1 < bytes - 64) {
    items.push(item);
    size += item.length + 1;
  }
  const text = `[${items.join(',')}]`;
  return Buffer.from(text + ' '.repeat(bytes - Buffer.byteLength(text)));
}

describe('the bound on a 2xx answer', () => {
  let server: Server;
  let url: string;
  /** What the platform does with each request. */
  let answer: (res: ServerResponse) => void;
  let written = 0;

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      answer(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    written = 0;
  });

  /** An answer streamed in chunks without Content-Length, `total` bytes of `body` (or of CHUNK, endlessly). */
  function stream(res: ServerResponse, body?: Buffer): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    let offset = 0;
    const more = () => {
      while (!res.destroyed) {
        const chunk = body ? body.subarray(offset, offset + CHUNK.length) : CHUNK;
        if (chunk.length === 0 || written >= ENDLESS_BYTES) {
          if (body) res.end();
          return; // the endless one stalls here, its socket open
        }
        offset += chunk.length;
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
    };
    more();
  }

  const client = () =>
    createPlatformClient({ baseUrl: `${url}/v1`, apiKey: 'limit-key-Hd73', timeoutMs: 20_000, retry: false });

  it('reads a list of exactly 8 MiB', async () => {
    const body = listOf(MAX_ANSWER_BYTES);
    answer = (res) => stream(res, body);
    const list = await client().listConnections({ projectIdOrName: 'demo' });
    assert.ok(Array.isArray(list) && list.length > 50_000);
  });

  it('reads an answer whose Content-Length is exactly 8 MiB', async () => {
    const body = listOf(MAX_ANSWER_BYTES);
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    };
    const list = await client().listConnections({ projectIdOrName: 'demo' });
    assert.ok(Array.isArray(list) && list.length > 50_000);
  });

  it('refuses a streamed list one byte over 8 MiB, as invalid_response naming the bound', async () => {
    const body = listOf(MAX_ANSWER_BYTES + 1);
    answer = (res) => stream(res, body);
    const error = await client()
      .listConnections({ projectIdOrName: 'demo' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof PlatformRequestError, 'the whole answer was read');
    assert.equal(error.code, 'invalid_response');
    assert.match(error.message, new RegExp(`larger than ${MAX_ANSWER_BYTES} bytes`));
  });

  it('refuses at once an answer whose Content-Length is over the bound, reading none of it', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 ** 3) });
      res.write('[');
    };
    const started = performance.now();
    const error = await client()
      .getProvider({ provider: 'slack' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof PlatformRequestError && error.code === 'invalid_response', String(error));
    assert.ok(performance.now() - started < 2000);
  });

  it('stops reading an endless answer past the bound: the handler answers 502 at once, its event loop free', async (t) => {
    answer = (res) => stream(res);
    const handler = createConnectHandler({
      apiKey: 'limit-key-Hd73',
      baseUrl: `${url}/v1`,
      project: 'demo',
      authorize: () => ({ groupRef: 'acme', consumerRef: 'ada' }),
      timeoutMs: 20_000,
      onError: () => {},
    });
    // The longest the event loop went without running a 5 ms timer, while the answer was read.
    let lag = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      lag = Math.max(lag, now - last - 5);
      last = now;
    }, 5);
    const started = performance.now();
    try {
      const response = await call(handler, '/api/connect/connections');
      const text = await response.text();
      const ms = Math.round(performance.now() - started);
      t.diagnostic(
        `502 after ${ms} ms; the platform wrote ${(written / 2 ** 20).toFixed(1)} MiB; longest event-loop stall ${Math.round(lag)} ms`,
      );
      assert.equal(response.status, 502, text);
      assert.match(text, /unreadable answer/);
      assert.ok(ms < 10_000, `answered after ${ms} ms`);
      assert.ok(written < ENDLESS_BYTES, 'the whole endless answer was read');
      assert.ok(lag < 500, `the event loop stalled ${Math.round(lag)} ms`);
    } finally {
      clearInterval(tick);
    }
  });
});
