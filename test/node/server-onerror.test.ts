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

const API_KEY = 'onerror-key-Zp81Qx7Lm';

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
