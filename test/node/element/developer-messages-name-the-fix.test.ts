// The developer's console messages (src/element/developer-messages.ts) each name the fix, read from real answers: an
// endpoint that is not a connect backend (a typo, a handler mounted elsewhere) names the endpoint attribute, as
// written and as the page resolves it, and where the server mounts the handler; a read at rest says what its own
// route's failure costs; a provider the handler's `providers` allow-list refuses names that option and the spelling,
// and never the names the list allows. The answers come from a real HTTP server on loopback: a page server's 404
// page, and the real handler in front of a platform double.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BackendError, callBackend } from '../../../src/element/backend.js';
import {
  endMessages,
  failureMessages,
  notBackendMessage,
  readFailureMessage,
} from '../../../src/element/developer-messages.js';
import { ConnectError } from '../../../src/element/events.js';
import type { ConnectHandler } from '../../../src/server/index.js';
import { call } from '../helpers/handler-calls.js';
import { startTestServer, type Reply, type TestServer } from '../helpers/http-server.js';
import { handlerOnPlatformDouble } from '../helpers/platform-double.js';

/** The BackendError of one request the element makes, or a failed test when it is answered. */
async function failure(url: string, method = 'GET', body?: unknown): Promise<BackendError> {
  const error = await callBackend(url, method, {}, body, new AbortController().signal).then(
    (answer) => assert.fail(`answered ${JSON.stringify(answer)}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof BackendError, String(error));
  return error;
}

describe('an endpoint that is not a connect backend', () => {
  let app: TestServer;
  before(async () => {
    // A page server (Express, the Angular SSR handler) answering a path it does not serve: no handler there.
    app = await startTestServer(() => ({
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<!doctype html><pre>Cannot GET</pre>',
    }));
  });
  after(() => app.close());
  afterEach(() => {
    delete (globalThis as { document?: unknown }).document;
  });
  /** The page the element is on. */
  const onPage = (path: string) =>
    Object.assign(globalThis, { document: { baseURI: `${app.url}${path}` } as unknown as Document });

  it('should name the endpoint attribute, as written and as resolved, and where the server mounts the handler', async () => {
    onPage('/settings/');
    for (const [endpoint, resolved] of [
      ['/api/conect', `${app.url}/api/conect`],
      // A relative endpoint resolves against the page: the resolved URL is the one that tells.
      ['api/connect', `${app.url}/settings/api/connect`],
    ]) {
      const error = await failure(`${resolved}/connections`);
      const message = notBackendMessage(error, endpoint);
      assert.equal(
        message,
        `GET ${resolved}/connections answered 404 text/html; charset=utf-8, not a connect backend: check the endpoint attribute ("${endpoint}", here ${resolved}), or where the server mounts the connect handler`,
      );
      // The flow's message is the same one.
      assert.deepEqual(failureMessages(error, endpoint, false, true), [message]);
    }
  });

  it('should name an absolute endpoint once, and still without a page to resolve it against', async () => {
    const endpoint = `${app.url}/api/conect`;
    const error = await failure(`${endpoint}/connections`);
    assert.match(
      notBackendMessage(error, endpoint),
      /: check the endpoint attribute \("http:[^"]+\/api\/conect"\), or/,
    );
    assert.match(notBackendMessage(error, '/api/conect'), /\("\/api\/conect"\), or where the server mounts/);
  });

  it("should say what each read at rest cannot do without its own route, not another route's", async () => {
    const endpoint = `${app.url}/api/conect`;
    const connections = readFailureMessage(await failure(`${endpoint}/connections`), endpoint, { connections: true });
    const provider = readFailureMessage(await failure(`${endpoint}/providers/slack`), endpoint, { provider: 'slack' });
    assert.match(
      connections,
      /\/connections answered 404 .*; without this route the element cannot show the connection$/,
    );
    assert.match(
      provider,
      /\/providers\/slack answered 404 .*; without this route the element cannot tell whether slack signs in with a popup or a form, nor show its name, icon or form$/,
    );
    assert.doesNotMatch(provider, /show the connection/);
    for (const message of [connections, provider]) assert.match(message, /check the endpoint attribute/);
  });
});

describe("a provider outside the handler's providers allow-list", () => {
  const ALLOWED = ['salesforce', 'slack'];
  const { make } = handlerOnPlatformDouble();
  let handler: ConnectHandler;
  let app: TestServer;
  before(async () => {
    // The app's server: the real handler, with an allow-list, behind a real HTTP server the element calls.
    app = await startTestServer(async (request): Promise<Reply> => {
      handler ??= make({ providers: ALLOWED });
      const answer = await call(handler, request.path, { method: request.method, body: request.body || undefined });
      return {
        status: answer.status,
        headers: { 'content-type': answer.headers.get('content-type') ?? '' },
        body: await answer.text(),
      };
    });
  });
  after(() => app.close());

  /** What the element's developer hears when a flow for `provider` ends with the handler's answer to `path`. */
  async function heard(path: string, provider: string): Promise<{ messages: string[]; problem: string }> {
    const error = await failure(`${app.url}/api/connect${path}`, 'POST', { provider });
    const ended = new ConnectError(error.code, error.message, error.problem);
    return { messages: endMessages(provider, ended), problem: JSON.stringify(error.problem) };
  }

  for (const path of ['/oauth-connect', '/connections'])
    it(`should name the providers option and the spelling when POST ${path} is refused, never the names allowed`, async () => {
      const { messages, problem } = await heard(path, 'hubspt');
      assert.deepEqual(messages, [
        `the backend refused provider "hubspt": provider hubspt is not offered by this app; check the spelling of "hubspt" (names are the platform's, in lower case); to offer it, the handler's providers option (createConnectHandler({ providers })) must list it`,
      ]);
      for (const allowed of ALLOWED) {
        assert.ok(!messages.join().includes(allowed), `the message names ${allowed}`);
        assert.ok(!problem.includes(allowed), `the browser was told ${allowed}`);
      }
    });

  it("should keep the platform's own refusal of a name to the spelling: no providers option to name", () => {
    // The platform's answer for a name it does not know (the emulator's), relayed by a handler without an allow-list.
    const problem = {
      status: 400,
      title: 'Bad Request',
      detail: 'unknown provider',
      issues: [{ detail: 'unknown provider', in: 'body', name: 'provider', value: 'hubspt' }],
    };
    assert.deepEqual(endMessages('hubspt', new ConnectError('http_error', 'unknown provider', problem)), [
      `the backend refused provider "hubspt": unknown provider; names are the platform's, in lower case`,
    ]);
  });
});
