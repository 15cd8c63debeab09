// Which connection a flow may take as its own (src/element/connection-match.ts): the one it asked for, changed
// since it began by the backend's list or, without one, by the backend's clock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  changedSince,
  changedSinceStart,
  listedBaseline,
  matchesRequest,
  stampOf,
  type ConnectionRequest,
} from '../../../src/element/connection-match.js';
import type { Connection } from '../../../src/shared/types.js';
import { sampleConnection } from '../../shared/fixtures.js';

const make = (fields: Partial<Connection>): Connection => sampleConnection(fields);

describe('matchesRequest', () => {
  const create: ConnectionRequest = { mode: 'create', provider: 'zendesk', workspace: 'acme' };

  it('should take in update mode only the flow connection', () => {
    const request: ConnectionRequest = { mode: 'update', connectionId: 'conn_1' };
    assert.equal(matchesRequest(make({ id: 'conn_1' }), request), true);
    assert.equal(matchesRequest(make({ id: 'conn_2' }), request), false);
  });

  it('should take in create mode the provider and workspace asked for, and no other', () => {
    assert.equal(matchesRequest(make({ provider: 'zendesk', providerWorkspaceRef: 'acme' }), create), true);
    assert.equal(matchesRequest(make({ provider: 'slack', providerWorkspaceRef: 'acme' }), create), false);
    assert.equal(matchesRequest(make({ provider: 'zendesk', providerWorkspaceRef: 'other' }), create), false);
    assert.equal(matchesRequest(make({ provider: 'zendesk', providerWorkspaceRef: undefined }), create), false);
  });

  it('should read no workspace asked and none given as the same', () => {
    const request: ConnectionRequest = { mode: 'create', provider: 'slack' };
    assert.equal(matchesRequest(make({ provider: 'slack', providerWorkspaceRef: undefined }), request), true);
    assert.equal(matchesRequest(make({ provider: 'slack', providerWorkspaceRef: 'w' }), request), false);
  });

  it('should hold the provider app only when the flow named one', () => {
    const request: ConnectionRequest = { mode: 'create', provider: 'slack', appId: 'app_2' };
    const app = (id: string) => ({ id }) as Connection['providerApp'];
    assert.equal(
      matchesRequest(make({ provider: 'slack', providerWorkspaceRef: undefined, providerApp: app('app_2') }), request),
      true,
    );
    assert.equal(
      matchesRequest(make({ provider: 'slack', providerWorkspaceRef: undefined, providerApp: app('app_1') }), request),
      false,
    );
    assert.equal(
      matchesRequest(make({ provider: 'slack', providerWorkspaceRef: undefined, providerApp: undefined }), request),
      false,
      'a connection with no app is not of the app asked for',
    );
    const anyApp: ConnectionRequest = { mode: 'create', provider: 'slack' };
    assert.equal(
      matchesRequest(make({ provider: 'slack', providerWorkspaceRef: undefined, providerApp: app('app_1') }), anyApp),
      true,
    );
  });
});

describe('changedSince', () => {
  const old = make({ id: 'conn_1', createTime: '2026-01-01T00:00:00Z', updateTime: '2026-01-02T00:00:00Z' });

  it('should judge by the platform stamp, the update time before the create time', () => {
    assert.equal(stampOf(old), '2026-01-02T00:00:00Z');
    assert.equal(stampOf(make({ createTime: '2026-01-01T00:00:00Z', updateTime: undefined })), '2026-01-01T00:00:00Z');
  });

  it('should call a connection the backend listed at the start unchanged, and a new or updated one changed', () => {
    const baseline = listedBaseline([old]);
    assert.equal(changedSince(old, baseline), false);
    assert.equal(changedSince({ ...old, updateTime: '2026-01-03T00:00:00Z' }, baseline), true);
    assert.equal(changedSince({ ...old, id: 'conn_2' }, baseline), true);
  });

  it("should fall back to the backend's clock, never the browser's, and judge nothing before it answered", () => {
    const clock = Date.parse('2026-01-02T00:00:00Z');
    assert.equal(changedSince(old, { clock }), true, 'changed at the very time of the first answer');
    assert.equal(changedSince(old, { clock: clock + 1 }), false);
    assert.equal(changedSince(old, { clock: undefined }), false);
  });
});

describe('changedSinceStart', () => {
  const seen = make({ id: 'conn_1', createTime: '2026-01-01T00:00:00Z', updateTime: '2026-01-02T00:00:00Z' });

  it('should count an update by form only once the connection changed from the stamp it had at the start', () => {
    const request: ConnectionRequest = { mode: 'update', connectionId: 'conn_1', stampAtStart: '2026-01-02T00:00:00Z' };
    assert.equal(changedSinceStart(seen, request), false, 'an old bad_credentials does not end the reconnect');
    assert.equal(changedSinceStart({ ...seen, updateTime: '2026-01-03T00:00:00Z' }, request), true);
  });

  it('should count at once without a stamp at the start, and in create mode', () => {
    assert.equal(changedSinceStart(seen, { mode: 'update', connectionId: 'conn_1' }), true);
    assert.equal(changedSinceStart(seen, { mode: 'create', provider: 'hubspot' }), true);
  });
});
