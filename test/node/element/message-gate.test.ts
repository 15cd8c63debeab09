// Which messages count for a flow (src/element/message-gate.ts): the own popup is trusted, a trusted origin's
// other window only claims, the rest is ignored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { judgeMessage, readCompletion, type MessageContext } from '../../../src/element/message-gate.js';

const judge = (data: unknown, context: MessageContext) => judgeMessage(readCompletion(data), context);

const success = (connection: unknown) => ({ eventType: 'AUTHORIZATION_SUCCEEDED', data: { connection } });
const failure = (data: unknown) => ({ eventType: 'AUTHORIZATION_FAILED', data });
const own: MessageContext = { fromOwnPopup: true, trustedOrigin: false, waiting: true };
const trusted: MessageContext = { fromOwnPopup: false, trustedOrigin: true, waiting: true };
const stranger: MessageContext = { fromOwnPopup: false, trustedOrigin: false, waiting: true };

describe('the platform completion message', () => {
  it('should read a success with its connection ID, and nothing else as a success', () => {
    assert.deepEqual(readCompletion(success('conn_1')), { connectionId: 'conn_1' });
    for (const id of ['', 42, null, undefined, { id: 'x' }]) assert.equal(readCompletion(success(id)), undefined);
    assert.equal(readCompletion({ eventType: 'SOMETHING_ELSE', data: { connection: 'conn_1' } }), undefined);
    for (const data of [null, undefined, 'text', 42, [], {}]) assert.equal(readCompletion(data), undefined);
    assert.equal(readCompletion({ eventType: 'AUTHORIZATION_SUCCEEDED' }), undefined, 'a success with no data');
  });

  it('should read a failure with its error or message, else a plain text', () => {
    assert.deepEqual(readCompletion(failure({ error: 'denied' })), { error: 'denied' });
    assert.deepEqual(readCompletion(failure({ message: 'no scope' })), { error: 'no scope' });
    assert.deepEqual(readCompletion(failure({ error: '' })), { error: 'the authorization failed' });
    assert.deepEqual(readCompletion(failure({ error: { x: 1 } })), { error: 'the authorization failed' });
    assert.deepEqual(readCompletion(failure(undefined)), { error: 'the authorization failed' });
  });
});

describe('the message gate', () => {
  it("should take the own popup's success as the flow's connection", () => {
    assert.equal(judge(success('conn_1'), own), 'take');
  });

  it("should only let a trusted origin's other window claim a connection, for the backend to confirm", () => {
    assert.equal(judge(success('conn_1'), trusted), 'confirm');
  });

  it('should ignore a window that is neither the own popup nor of a trusted origin', () => {
    assert.equal(judge(success('conn_1'), stranger), 'ignore');
    assert.equal(judge(failure({ error: 'x' }), stranger), 'ignore');
  });

  it('should end the flow on a failure only from the own popup (no backend can confirm a failure)', () => {
    assert.equal(judge(failure({ error: 'denied' }), own), 'fail');
    assert.equal(judge(failure({ error: 'denied' }), trusted), 'ignore');
  });

  it('should ignore every message while the flow does not wait for its popup', () => {
    for (const context of [own, trusted])
      for (const data of [success('conn_1'), failure({ error: 'x' })])
        assert.equal(judge(data, { ...context, waiting: false }), 'ignore');
  });

  it('should ignore another ID once the flow knows its connection, and keep its own', () => {
    for (const context of [own, trusted]) {
      assert.equal(judge(success('conn_2'), { ...context, knownId: 'conn_1' }), 'ignore');
      assert.notEqual(judge(success('conn_1'), { ...context, knownId: 'conn_1' }), 'ignore');
    }
  });

  it('should ignore what is no completion message', () => {
    assert.equal(judge({ hello: 'world' }, own), 'ignore');
    assert.equal(judge('AUTHORIZATION_SUCCEEDED', own), 'ignore');
  });
});
