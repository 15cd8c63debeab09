// Which console messages a failure gives the developer (src/element/developer-messages.ts), by what failed: a flow
// ended by a 401 asks whether the user is signed in, and by no other code or status; a provider the backend refused
// is said once, by the allow-list's problem type or by the platform's issue; a request that failed for good names the
// missing route only for an answer that is not a connect backend's, the CORS setup only for a network failure while
// online (worded by whether any request was ever answered), and passes on a misconfigured backend's detail only for a
// 500 that will not pass. A failure with nothing to fix says nothing. The words of each message are
// developer-messages-name-the-fix.test.ts's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BackendError } from '../../../src/element/backend.js';
import { endMessages, failureMessages, PROVIDER_NOT_ALLOWED } from '../../../src/element/developer-messages.js';
import { ConnectError } from '../../../src/element/events.js';
import type { Problem } from '../../../src/shared/types.js';

const ENDPOINT = 'https://app.test/api/connect';
const refusedIssue: Problem = {
  status: 400,
  detail: 'unknown provider',
  issues: [{ name: 'provider', detail: 'not in the catalog' }],
};

describe("a flow's end, told to the developer", () => {
  it('should ask whether the user is signed in for an http_error 401 alone', () => {
    assert.deepEqual(endMessages('hubspot', new ConnectError('http_error', 'x', { status: 401 })), [
      'the backend answered 401: is the user signed in?',
    ]);
    assert.deepEqual(endMessages('hubspot', new ConnectError('network_error', 'x', { status: 401 })), []);
    assert.deepEqual(endMessages('hubspot', new ConnectError('http_error', 'x', { status: 403 })), []);
    assert.deepEqual(endMessages('hubspot', new ConnectError('http_error', 'x')), []);
  });

  it('should say nothing of a flow that ended without an error, or with one that has no problem', () => {
    assert.deepEqual(endMessages('hubspot', undefined), []);
    assert.deepEqual(endMessages('hubspot', new ConnectError('cancelled', 'cancelled')), []);
    assert.deepEqual(endMessages('hubspot', new ConnectError('timeout', 'timed out')), []);
  });

  it("should say a refused provider once: by the allow-list's problem type, else by the platform's issue", () => {
    const allowList = { status: 400, type: PROVIDER_NOT_ALLOWED, detail: 'not offered', issues: refusedIssue.issues };
    const byList = endMessages('hubspot', new ConnectError('http_error', 'x', allowList));
    assert.equal(byList.length, 1);
    assert.match(byList[0]!, /providers option/);
    const byPlatform = endMessages('hubspot', new ConnectError('http_error', 'x', refusedIssue));
    assert.deepEqual(byPlatform, [
      `the backend refused provider "hubspot": unknown provider; names are the platform's, in lower case`,
    ]);
    assert.deepEqual(endMessages('hubspot', new ConnectError('http_error', 'x', { status: 400, issues: [] })), []);
  });
});

describe('a request that failed for good, told to the developer', () => {
  const notBackend = new BackendError('http_error', 'GET /x answered 404', false, undefined, undefined, true);
  const network = new BackendError('network_error', 'no answer', true);

  it("should name the missing route only for an answer that is not a connect backend's", () => {
    assert.equal(failureMessages(notBackend, ENDPOINT, false, true).length, 1);
    assert.match(failureMessages(notBackend, ENDPOINT, false, true)[0]!, /check the endpoint attribute/);
    const problem = new BackendError('http_error', 'refused', false, { status: 400 });
    assert.deepEqual(failureMessages(problem, ENDPOINT, false, true), []);
  });

  it('should name the CORS setup for a network failure only while online, by whether any request was answered', () => {
    const [unreached] = failureMessages(network, ENDPOINT, true, true);
    assert.match(unreached!, /could not be reached.*allowedOrigins/);
    const [preflight] = failureMessages(network, ENDPOINT, false, true);
    assert.match(preflight!, /answered reads but not this request.*preflight/);
    assert.deepEqual(failureMessages(network, ENDPOINT, true, false), [], 'offline: no setup problem');
    const http = new BackendError('http_error', 'busy', true, { status: 503 });
    assert.deepEqual(failureMessages(http, ENDPOINT, true, true), [], 'a 503 is not a network failure');
  });

  it("should pass on a misconfigured backend's detail for a 500 that will not pass, and for no other", () => {
    const misconfigured = new BackendError('http_error', 'x', false, { status: 500, detail: 'authorize() returned' });
    assert.deepEqual(failureMessages(misconfigured, ENDPOINT, false, true), ['authorize() returned']);
    const passing = new BackendError('http_error', 'x', true, { status: 500, detail: 'may pass' });
    assert.deepEqual(failureMessages(passing, ENDPOINT, false, true), []);
    const other = new BackendError('http_error', 'x', false, { status: 502, detail: 'upstream' });
    assert.deepEqual(failureMessages(other, ENDPOINT, false, true), []);
    const none = new BackendError('http_error', 'x', false);
    assert.deepEqual(failureMessages(none, ENDPOINT, false, true), []);
  });
});
