// Which messages count for a flow (src/element/message-gate.ts): the own popup is trusted, a trusted origin's
// other window only claims, the rest is ignored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { judgeMessage, readCompletion, type MessageContext } from '../../../src/element/message-gate.js';

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
    assert.deepEqual(judgeMessage(success('conn_1'), own), { act: 'take', connectionId: 'conn_1' });
  });

  it("should only let a trusted origin's other window claim a connection, for the backend to confirm", () => {
    assert.deepEqual(judgeMessage(success('conn_1'), trusted), { act: 'confirm', connectionId: 'conn_1' });
  });

  it('should ignore a window that is neither the own popup nor of a trusted origin', () => {
    assert.deepEqual(judgeMessage(success('conn_1'), stranger), { act: 'ignore' });
    assert.deepEqual(judgeMessage(failure({ error: 'x' }), stranger), { act: 'ignore' });
  });

  it('should end the flow on a failure only from the own popup (no backend can confirm a failure)', () => {
    assert.deepEqual(judgeMessage(failure({ error: 'denied' }), own), { act: 'fail', error: 'denied' });
    assert.deepEqual(judgeMessage(failure({ error: 'denied' }), trusted), { act: 'ignore' });
  });

  it('should ignore every message while the flow does not wait for its popup', () => {
    for (const context of [own, trusted])
      for (const data of [success('conn_1'), failure({ error: 'x' })])
        assert.deepEqual(judgeMessage(data, { ...context, waiting: false }), { act: 'ignore' });
  });

  it('should ignore another ID once the flow knows its connection, and keep its own', () => {
    for (const context of [own, trusted]) {
      assert.deepEqual(judgeMessage(success('conn_2'), { ...context, knownId: 'conn_1' }), { act: 'ignore' });
      assert.notDeepEqual(judgeMessage(success('conn_1'), { ...context, knownId: 'conn_1' }), { act: 'ignore' });
    }
  });

  it('should ignore what is no completion message', () => {
    assert.deepEqual(judgeMessage({ hello: 'world' }, own), { act: 'ignore' });
    assert.deepEqual(judgeMessage('AUTHORIZATION_SUCCEEDED', own), { act: 'ignore' });
  });
});
