// What the browser may send about a provider (src/shared/provider.ts): a workspace that a hostname may hold, and a
// provider app ID, each only as a string.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isProviderAppId, isWorkspaceRef } from '../../../src/shared/provider.js';

describe('isWorkspaceRef', () => {
  it('is letters, digits, hyphens and dots, starting and ending with a letter or digit, at most 253', () => {
    for (const value of ['a', 'acme', 'Acme-2.eu', 'a'.repeat(253)]) assert.equal(isWorkspaceRef(value), true, value);
    for (const value of ['', '-acme', 'acme-', '.acme', 'ac_me', 'ac me', 'a'.repeat(254)])
      assert.equal(isWorkspaceRef(value), false, value);
  });

  it('is only a string, not a number or a list that reads as one', () => {
    for (const value of [42, ['acme'], undefined, null]) assert.equal(isWorkspaceRef(value), false, String(value));
  });
});

describe('isProviderAppId', () => {
  it('is letters, digits, _ and -, at most 128', () => {
    for (const value of ['a', 'app_1-X', 'a'.repeat(128)]) assert.equal(isProviderAppId(value), true, value);
    for (const value of ['', 'app.1', 'app 1', 'a'.repeat(129)]) assert.equal(isProviderAppId(value), false, value);
  });

  it('is only a string, not a number or a list that reads as one', () => {
    for (const value of [42, ['app'], undefined, null]) assert.equal(isProviderAppId(value), false, String(value));
  });
});
