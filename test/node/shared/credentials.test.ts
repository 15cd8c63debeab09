// What of a connection never leaves the server: its OAuth tokens and API key (withoutCredentials, src/shared/credentials.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withoutCredentials } from '../../../src/shared/credentials.js';
import { sampleConnection } from '../../shared/fixtures.js';

describe('withoutCredentials', () => {
  it('drops the OAuth tokens and the API key, and nothing else', () => {
    const connection = sampleConnection({
      oauth2AuthorizationCode: { accessToken: { token: 'A' }, refreshToken: { token: 'R' } },
      apiKey: 'K',
    });
    const stripped = withoutCredentials(connection);
    assert.ok(!('oauth2AuthorizationCode' in stripped));
    assert.ok(!('apiKey' in stripped));
    const { oauth2AuthorizationCode: _o, apiKey: _k, ...rest } = connection;
    assert.deepEqual(stripped, rest);
  });
});
