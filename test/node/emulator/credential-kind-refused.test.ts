// Rule: a provider's scheme takes one credential kind; generate connection and update connection refuse another
// (400 whose issue names the field sent), a missing one (naming the one it takes) and a blank or unknown value, and
// change nothing. Broken on purpose once: checkedCredentials accepting any kind (apollo then took basicAuth).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CREDENTIALS, credentialSuite } from '../helpers/credential-connections.js';

describe('a credential kind the provider does not take is refused', () => {
  const { api, generate, update, read } = credentialSuite();
  const issueNames = async (response: Response) => {
    assert.equal(response.status, 400);
    const problem = await response.json();
    return problem.issues.map((i: { name: string }) => i.name);
  };

  it('generate connection: each other kind, for each provider, 400 naming the field sent', async () => {
    for (const provider of Object.keys(CREDENTIALS)) {
      for (const [other, credential] of Object.entries(CREDENTIALS)) {
        const [kind] = Object.keys(credential);
        if (kind === Object.keys(CREDENTIALS[provider])[0]) continue;
        const response = await generate({
          provider,
          groupRef: `kind-${provider}-${other}`,
          ...CREDENTIALS[provider],
          ...credential,
        });
        assert.deepEqual(await issueNames(response), [kind], `${provider} with ${kind}`);
      }
    }
    const listed = await (await api('/projects/demo/connections')).json();
    assert.ok(!listed.some((c: { group: { groupRef: string } }) => c.group.groupRef.startsWith('kind-')), 'none made');
  });

  it('generate connection: without the kind it takes, 400 naming it', async () => {
    assert.deepEqual(await issueNames(await generate({ provider: 'apollo', groupRef: 'none' })), ['apiKey']);
    assert.deepEqual(await issueNames(await generate({ provider: 'cloudtalk', groupRef: 'none' })), ['basicAuth']);
  });

  it('generate connection: a consent provider takes no credential, and is no credential provider', async () => {
    assert.deepEqual(await issueNames(await generate({ provider: 'hubspot', groupRef: 'h', apiKey: 'k' })), ['apiKey']);
    assert.deepEqual(await issueNames(await generate({ provider: 'hubspot', groupRef: 'h' })), ['provider']);
  });

  it('generate connection: blank values, a missing or unknown custom input, by field', async () => {
    const names = (body: Record<string, unknown>) => generate({ groupRef: 'values', ...body }).then(issueNames);
    assert.deepEqual(await names({ provider: 'apollo', apiKey: '  ' }), ['apiKey']);
    // Insightly's key is the username: the password is left empty, the username may not be.
    assert.deepEqual(await names({ provider: 'insightly', basicAuth: { username: '', password: 'x' } }), [
      'basicAuth.username',
    ]);
    assert.deepEqual(await names({ provider: 'cloudtalk', basicAuth: { username: 'u', password: '' } }), [
      'basicAuth.password',
    ]);
    assert.deepEqual(await names({ provider: 'clariCopilot', customAuth: { apiKey: 'k', other: 'x' } }), [
      'customAuth.apiSecret',
      'customAuth.other',
    ]);
  });

  it('update connection: a kind other than the connection scheme, 400 naming connection.<kind>, nothing changed', async () => {
    const made = await (await generate({ provider: 'apollo', groupRef: 'kind-update', apiKey: 'kept' })).json();
    const response = await update(made.id, {
      updateMask: ['basicAuth'],
      connection: { basicAuth: { username: 'u', password: 'p' } },
    });
    assert.deepEqual(await issueNames(response), ['connection.basicAuth']);
    assert.equal((await read(made.id, '?includeCreds=true')).apiKey, 'kept');
    // An OAuth connection takes no credential at all.
    const oauth = await update('conn_demo', { updateMask: ['apiKey'], connection: { apiKey: 'k' } });
    assert.deepEqual(await issueNames(oauth), ['connection.apiKey']);
  });
});
