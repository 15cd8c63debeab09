// A connect handler in front of a platform double on loopback (helpers/http-server.ts) that records every request:
// before each test the double answers oauth-connect's consent URL again, its requests and onError's calls are cleared.
import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import {
  createConnectHandler,
  type ConnectHandler,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
  type ConnectUser,
} from '../../../src/server/index.js';
import { urlReply } from './handler-calls.js';
import { startTestServer, type RecordedRequest, type TestServer } from './http-server.js';

/** The API key of the handlers built on the double. */
export const DOUBLE_KEY = 'Mut-Key-7Hq2ZpLatformXyz';

/** The signed-in user of these tests. */
export const ADA: ConnectUser = { groupRef: 'acme', consumerRef: 'user-ada' };

/** The problem of an answer of this status, after checking its status (in the body too) and its content type. */
export async function problemOf(response: Response, status: number) {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  const body = JSON.parse(text);
  assert.equal(body.status, status);
  return body;
}

/**
 * Starts the double for the enclosing describe; `make` builds a handler (project demo, key DOUBLE_KEY, no retries)
 * that asks it, whose authorize() answers `user()` and whose onError calls land in `errors`.
 */
export function handlerOnPlatformDouble(user: () => unknown = () => ADA) {
  let server: TestServer | undefined;
  const started = () => {
    assert.ok(server, 'the platform double has not started');
    return server;
  };
  /** The double, read through to the server started for the describe. */
  const platform: TestServer = {
    get url() {
      return started().url;
    },
    get requests() {
      return started().requests;
    },
    get reply() {
      return started().reply;
    },
    set reply(reply) {
      started().reply = reply;
    },
    close: () => started().close(),
  };
  const errors: ConnectHandlerErrorInfo[] = [];

  function make(options: Partial<ConnectHandlerOptions> = {}): ConnectHandler {
    return createConnectHandler({
      apiKey: DOUBLE_KEY,
      baseUrl: `${platform.url}/v1`,
      project: 'demo',
      authorize: () => user() as ConnectUser | null,
      retry: false,
      onError: (info) => errors.push(info),
      ...options,
    });
  }
  /** What the handler asked the platform since the test began (the platform double records every request). */
  const asked = (): RecordedRequest[] => platform.requests;

  before(async () => {
    server = await startTestServer();
  });
  after(() => platform.close());
  beforeEach(() => {
    platform.requests.length = 0;
    platform.reply = () => urlReply('https://consent.example/start');
    errors.length = 0;
  });
  return { platform, errors, make, asked };
}
