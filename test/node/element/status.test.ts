// What the status line says (src/element/status.ts), from the disconnect, the flow and the rest state.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectError } from '../../../src/element/events.js';
import type { FlowState } from '../../../src/element/machine.js';
import { flowStatusKey, statusLine } from '../../../src/element/status.js';
import type { Connection, Problem } from '../../../src/shared/types.js';
import { sampleConnection } from '../../shared/fixtures.js';

const failed = (
  code: ConnectError['code'],
  options: { problem?: Problem; from?: FlowState['name'] } = {},
): FlowState => ({
  name: 'error',
  error: new ConnectError(code, 'message', options.problem),
  from: options.from ?? 'requesting',
});
const connection = (status: string) => sampleConnection({ status } as Partial<Connection>);

describe('the flow status', () => {
  it('should say each running state in its own words, the severed wait as waiting', () => {
    for (const name of ['requesting', 'authorizing', 'verifying'] as const) assert.equal(flowStatusKey({ name }), name);
    assert.equal(flowStatusKey({ name: 'blocked', url: 'https://x' }), 'blocked');
    assert.equal(flowStatusKey({ name: 'severed' }), 'waiting');
    assert.equal(flowStatusKey({ name: 'linked', url: 'https://x', reason: 'sandboxed' }), 'linkWay', 'the link way');
    assert.equal(flowStatusKey({ name: 'submitting' }), 'requesting', 'a form being sent reads as a request');
    assert.equal(flowStatusKey({ name: 'idle' }), undefined);
  });

  it('should name what went wrong where it can', () => {
    assert.equal(flowStatusKey(failed('http_error', { problem: { status: 401 } })), 'signIn');
    assert.equal(
      flowStatusKey(failed('http_error', { problem: { status: 400, issues: [{ name: 'provider' }] } as Problem })),
      'unknownProvider',
    );
    assert.equal(flowStatusKey(failed('network_error', { problem: { status: 503 } })), 'unavailable');
    assert.equal(flowStatusKey(failed('network_error')), 'network_error');
    assert.equal(flowStatusKey(failed('timeout', { from: 'verifying' })), 'verifyTimeout');
    assert.equal(flowStatusKey(failed('timeout', { from: 'authorizing' })), 'timeout');
    assert.equal(flowStatusKey(failed('invalid_config')), 'error', 'a code with no text of its own');
    assert.equal(flowStatusKey(failed('authorization_failed')), 'authorization_failed');
  });

  it('should call the provider unknown only when an issue names the provider input', () => {
    const issues = (...names: string[]) => ({ status: 400, issues: names.map((name) => ({ name })) }) as Problem;
    assert.equal(flowStatusKey(failed('http_error', { problem: issues('workspace', 'provider') })), 'unknownProvider');
    assert.equal(flowStatusKey(failed('http_error', { problem: issues('workspace') })), 'error');
  });

  it('should call only a network failure with a problem unavailable, and only a verify time-out so', () => {
    assert.equal(flowStatusKey(failed('http_error', { problem: { status: 400 } })), 'error');
    assert.equal(flowStatusKey(failed('network_error', { from: 'verifying' })), 'network_error');
  });
});

describe('the status line', () => {
  it('should put a failed disconnect and the confirmation before the flow', () => {
    assert.deepEqual(statusLine({ name: 'verifying' }, 'failed', null), ['disconnectFailed', 'error']);
    assert.deepEqual(statusLine(undefined, 'confirming', connection('working')), ['confirmDisconnect', '']);
  });

  it('should say a disconnect is done until a connection is there again', () => {
    assert.deepEqual(statusLine(undefined, 'done', null), ['disconnected', 'success']);
    assert.deepEqual(statusLine(undefined, 'done', connection('working')), ['working', 'success', true]);
  });

  it("should tell the flow's state, an error or refusal in the error tone", () => {
    assert.deepEqual(statusLine({ name: 'verifying' }, 'idle', null), ['verifying', '', true]);
    assert.equal(statusLine(failed('timeout'), 'idle', null)?.[1], 'error');
    const refused: FlowState = { name: 'bad_credentials', error: new ConnectError('bad_credentials', 'no') };
    assert.deepEqual(statusLine(refused, 'idle', null), ['bad_credentials', 'error', true]);
  });

  it('should tell the rest state when no flow speaks', () => {
    assert.deepEqual(statusLine(undefined, 'idle', connection('bad_credentials')), ['needsReconnect', 'error']);
    assert.deepEqual(statusLine(undefined, 'idle', connection('working')), ['working', 'success', true]);
    assert.deepEqual(statusLine({ name: 'working', connection: connection('working') }, 'idle', null), [
      'working',
      'success',
      true,
    ]);
    assert.equal(statusLine(undefined, 'idle', null), undefined);
    assert.equal(statusLine(undefined, 'disconnecting', undefined), undefined);
  });
});
