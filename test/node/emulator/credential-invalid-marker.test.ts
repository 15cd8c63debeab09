// Rule (docs/emulator.md, "Verification"): a connection made or changed with credentials ends `bad_credentials` when
// any credential value it was given contains `invalid`, in whichever field; `working` otherwise. Broken on purpose
// once: verdictOf looking at the first value only (the secret of each pair then passed).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { credentialSuite, DELAY } from '../helpers/credential-connections.js';

/** For each scheme, credentials with `invalid` in one field (the others valid): [provider, credential, where]. */
const INVALID: Array<[string, Record<string, unknown>, string]> = [
  ['apollo', { apiKey: 'key-invalid-1' }, 'apiKey'],
  ['insightly', { basicAuth: { username: 'invalid', password: '' } }, 'the key as username'],
  ['cloudtalk', { basicAuth: { username: 'user', password: 'pw-invalid' } }, 'the password'],
  ['paypal', { oauth2ClientCredentials: { clientId: 'client', clientSecret: 'secret-invalid' } }, 'the client secret'],
  ['clariCopilot', { customAuth: { apiKey: 'key', apiSecret: 'invalid-secret' } }, 'the second input'],
];

describe('verification: a credential value holding `invalid` ends bad_credentials', () => {
  const { clock, generate, update, read } = credentialSuite();

  for (const [provider, credential, where] of INVALID) {
    it(`${provider}: \`invalid\` in ${where} ends bad_credentials`, async () => {
      const made = await (await generate({ provider, groupRef: `invalid-${provider}`, ...credential })).json();
      assert.equal(made.status, 'created');
      clock.advance(DELAY);
      assert.equal((await read(made.id)).status, 'bad_credentials');
    });
  }

  it('an update with a valid key makes it working again, and one with `invalid` bad_credentials again', async () => {
    const made = await (await generate({ provider: 'apollo', groupRef: 'invalid-then', apiKey: 'invalid' })).json();
    clock.advance(DELAY);
    assert.equal((await read(made.id)).status, 'bad_credentials');
    const fixed = await update(made.id, { updateMask: ['apiKey'], connection: { apiKey: 'good-key' } });
    assert.equal((await fixed.json()).status, 'created');
    clock.advance(DELAY);
    assert.equal((await read(made.id)).status, 'working');
    await update(made.id, { updateMask: ['apiKey'], connection: { apiKey: 'now-invalid' } });
    clock.advance(DELAY);
    assert.equal((await read(made.id)).status, 'bad_credentials');
  });

  it('a value without the marker (Invalid, in another case, included) ends working', async () => {
    const made = await (await generate({ provider: 'apollo', groupRef: 'valid', apiKey: 'Invalid-looking' })).json();
    clock.advance(DELAY);
    assert.equal((await read(made.id)).status, 'working');
  });
});
