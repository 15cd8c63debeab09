// What onError receives and what it may do: sync or async, whatever it throws or rejects is swallowed (no unhandled
// rejection, the same answer), and nothing it is handed holds the API key.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
} from '../../src/server/index.js';
import { APP } from './helpers/handler-calls.js';

const API_KEY = 'onerror-key+Zp81/Qx7Lm';

/** A platform that fails every request with a 500 problem. */
const failing: typeof fetch = async () =>
  new Response(JSON.stringify({ status: 500, title: 'Down', detail: 'the platform is down' }), {
    status: 500,
    headers: { 'content-type': 'application/problem+json' },
  });

function make(options: Partial<ConnectHandlerOptions>): ConnectHandler {
  return createConnectHandler({
    apiKey: API_KEY,
    baseUrl: 'https://platform.example/v1',
    project: 'demo',
    authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
    retry: false,
    fetch: failing,
    ...options,
  });
}

const get = (handler: ConnectHandler, path: string) =>
  handler(new Request(`${APP}${path}`, { headers: { 'sec-fetch-site': 'same-origin' } }));

/** Status, content type and body of an answer, without the per-request `time`. */
async function shape(response: Response) {
  const body = await response.json();
  delete body.time;
  return { status: response.status, type: response.headers.get('content-type'), body };
}

describe('onError', () => {
  it('may be async: a rejection it returns is swallowed, never unhandled, and the answer is the same', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const calls: ConnectHandlerErrorInfo[] = [];
      const rejecting = make({
        onError: async (info) => {
          calls.push(info);
          throw new Error('the log sink is down');
        },
      });
      const rejectingLater = make({
        onError: (info) => {
          calls.push(info);
          return new Promise<void>((_, reject) => setTimeout(() => reject(new Error('later')), 5));
        },
      });
      const quiet = make({ onError: () => {} });
      const expected = await shape(await get(quiet, '/connections'));
      assert.equal(expected.status, 502);
      assert.deepEqual(await shape(await get(rejecting, '/connections')), expected);
      assert.deepEqual(await shape(await get(rejectingLater, '/connections')), expected);
      assert.equal(calls.length, 2);
      // Long enough for a rejection to be reported as unhandled.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('may throw synchronously: the answer is the same', async () => {
    const throwing = make({
      onError: () => {
        throw new Error('sync failure');
      },
    });
    const quiet = make({ onError: () => {} });
    assert.deepEqual(await shape(await get(throwing, '/connections')), await shape(await get(quiet, '/connections')));
  });
});

/** Every string reachable from `value` through own properties (enumerable or not), errors' causes included. */
function allStrings(value: unknown, out: string[] = [], seen = new Set<unknown>(), depth = 0): string[] {
  if (typeof value === 'string') out.push(value);
  if (typeof value !== 'object' || value === null || seen.has(value) || depth > 12) return out;
  seen.add(value);
  for (const name of Object.getOwnPropertyNames(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, name)!;
    if ('value' in descriptor) allStrings(descriptor.value, out, seen, depth + 1);
  }
  return out;
}

describe('what onError receives', () => {
  const KEY = API_KEY;
  /** A platform that echoes the key back in every way it can. */
  const echoing: typeof fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/oauth-connect')) {
      return new Response(
        JSON.stringify({
          status: 500,
          title: `bad key ${KEY}`,
          detail: `the key ${KEY.toUpperCase()} was refused; encoded ${encodeURIComponent(KEY)}`,
          instance: `https://platform.example/v1/x?key=${KEY}`,
          context: { apiKey: KEY, nested: [{ again: `k=${KEY}` }] },
          issues: [{ detail: KEY, name: 'x', value: KEY }],
          echo: KEY,
        }),
        { status: 500, headers: { 'content-type': 'application/problem+json' } },
      );
    }
    if (url.pathname.includes('/connections/')) {
      return new Response(`<html><body>Internal error for X-Api-Key: ${KEY}</body></html>`, {
        status: 500,
        headers: { 'content-type': 'text/html' },
      });
    }
    throw new TypeError(`fetch failed: socket closed while sending ${KEY}`, {
      cause: new Error(`ECONNRESET ${KEY}`),
    });
  };

  it('never holds the API key, in any field of the info or of the error', async () => {
    const received: ConnectHandlerErrorInfo[] = [];
    const handler = make({ fetch: echoing, onError: (info) => void received.push(info) });
    const post = await handler(
      new Request(`${APP}/oauth-connect`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'slack' }),
      }),
    );
    assert.equal(post.status, 502);
    assert.equal((await get(handler, '/connections/conn_1')).status, 502);
    assert.equal((await get(handler, '/connections')).status, 502);
    assert.equal(received.length, 3);
    const lower = KEY.toLowerCase();
    for (const info of received) {
      const error = info.error as Error & { cause?: unknown; problem?: unknown };
      assert.ok(error instanceof Error, info.message);
      const texts = [
        JSON.stringify(info),
        String(error),
        error.message,
        String(error.stack),
        String(error.cause),
        JSON.stringify(error.problem) ?? '',
        JSON.stringify(error),
        ...allStrings(info),
      ];
      for (const text of texts) {
        assert.ok(!text.toLowerCase().includes(lower), `${info.message}: ${text}`);
        assert.ok(!text.includes(encodeURIComponent(KEY)), `${info.message}: ${text}`);
      }
    }
    // Still useful to a logger: what failed, and that the key was there.
    const [connect, get1, list] = received.map((i) => i.error as Error & Record<string, unknown>);
    assert.equal(connect.name, 'ProblemError');
    assert.equal(connect.status, 500);
    assert.match(String(connect.title), /^bad key \[redacted\]$/);
    assert.match(String(get1.detail), /Internal error for X-Api-Key: \[redacted\]/);
    assert.equal(list.name, 'PlatformRequestError');
    assert.match(String((list.cause as Error).message), /\[redacted\]/);
  });
});
