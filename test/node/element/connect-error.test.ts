// What start() rejects with (src/element/events.ts): a ConnectError named so, with its code and message, that holds
// a problem or a connection only when the flow had one: `'problem' in error` tells a backend's answer from none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConnectError } from '../../../src/element/events.js';
import { sampleConnection } from '../../shared/fixtures.js';

describe('ConnectError', () => {
  it('should be an Error named ConnectError, with its code and message', () => {
    const error = new ConnectError('timeout', 'timed out');
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'ConnectError');
    assert.match(String(error), /^ConnectError: timed out$/);
    assert.equal(error.code, 'timeout');
  });

  it('should hold a problem and a connection only when given one', () => {
    const bare = new ConnectError('cancelled', 'cancelled');
    assert.ok(!('problem' in bare) && !('connection' in bare));
    assert.deepEqual(Object.keys(bare), ['name', 'code']);
    const connection = sampleConnection({ status: 'bad_credentials' });
    const full = new ConnectError('bad_credentials', 'refused', { status: 400 }, connection);
    assert.deepEqual(full.problem, { status: 400 });
    assert.equal(full.connection, connection);
    const withConnection = new ConnectError('bad_credentials', 'refused', undefined, connection);
    assert.ok(!('problem' in withConnection));
    assert.equal(withConnection.connection, connection);
  });
});
