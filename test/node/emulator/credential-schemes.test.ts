// Rule: each provider that signs in without a consent page connects through generate connection with the credential
// kind of its scheme (an API key, basic, an API key as basic, client credentials, custom inputs): 201, `created`,
// then `working` once the verify delay has passed. Broken on purpose once: verdictOf answering `created`, and the
// catalog's insightly without apiKeyAsBasic (its empty password refused).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CREDENTIALS, credentialSuite, DELAY, SCHEMES } from '../helpers/credential-connections.js';

describe('generate connection: each scheme creates and verifies', () => {
  const { clock, api, generate, read } = credentialSuite();

  for (const [provider, credential] of Object.entries(CREDENTIALS)) {
    it(`${provider}: 201 created, then working after the verify delay`, async () => {
      const response = await generate({
        provider,
        groupRef: `schemes-${provider}`,
        groupName: 'Schemes',
        ...credential,
      });
      assert.equal(response.status, 201);
      const made = await response.json();
      assert.equal(made.provider, provider);
      assert.equal(made.authScheme, SCHEMES[provider]);
      assert.equal(made.status, 'created');
      assert.deepEqual([made.group.groupRef, made.group.groupName], [`schemes-${provider}`, 'Schemes']);
      assert.equal(made.providerApp, undefined, "the user's own credentials: no provider app");
      clock.advance(DELAY - 1);
      assert.equal((await read(made.id)).status, 'created', 'not before the delay');
      clock.advance(1);
      assert.equal((await read(made.id)).status, 'working');
      const listed = await (await api(`/projects/demo/connections?provider=${provider}`)).json();
      assert.deepEqual(
        listed.map((c: { id: string }) => c.id),
        [made.id],
      );
    });
  }

  it('get-provider says what each scheme asks for, with its docs', async () => {
    const info = async (name: string) => (await api(`/providers/${name}`)).json();
    assert.deepEqual((await info('apollo')).apiKeyOpts, {
      attachmentType: 'header',
      header: { name: 'X-Api-Key' },
      docsURL: 'https://docs.apollo.io/docs/create-api-key',
    });
    const insightly = await info('insightly');
    assert.equal(insightly.authType, 'basic');
    assert.equal(insightly.basicOpts.apiKeyAsBasic, true);
    assert.equal(insightly.basicOpts.apiKeyAsBasicOpts.fieldUsed, 'username');
    assert.match(insightly.basicOpts.docsURL, /^https:\/\//);
    const cloudtalk = await info('cloudtalk');
    assert.deepEqual([cloudtalk.authType, cloudtalk.basicOpts.apiKeyAsBasic], ['basic', undefined]);
    const paypal = await info('paypal');
    assert.deepEqual(
      [paypal.authType, paypal.oauth2Opts.grantType, paypal.oauth2Opts.docsURL],
      ['oauth2', 'clientCredentials', 'https://developer.paypal.com/api/rest'],
    );
    const clari = await info('clariCopilot');
    assert.equal(clari.authType, 'custom');
    assert.deepEqual(
      clari.customOpts.inputs.map((i: { name: string; displayName: string }) => [i.name, i.displayName]),
      [
        ['apiKey', 'API Key'],
        ['apiSecret', 'API Secret'],
      ],
    );
  });

  it('generating again for the same group changes that connection (one per project, provider and group)', async () => {
    const first = await (await generate({ provider: 'apollo', groupRef: 'again', apiKey: 'k1' })).json();
    clock.advance(DELAY);
    const second = await generate({ provider: 'apollo', groupRef: 'again', consumerRef: 'c2', apiKey: 'k2' });
    assert.equal(second.status, 201);
    const body = await second.json();
    assert.deepEqual([body.id, body.status, body.consumer.consumerRef], [first.id, 'created', 'c2']);
    assert.equal((await read(first.id, '?includeCreds=true')).apiKey, 'k2');
  });

  it('refuses oauth-connect for a provider that signs in with credentials: 400 naming provider', async () => {
    const response = await api('/oauth-connect', {
      body: { projectId: 'demo', provider: 'apollo', groupRef: 'g', consumerRef: 'c' },
    });
    assert.equal(response.status, 400);
    const problem = await response.json();
    assert.deepEqual(
      problem.issues.map((i: { name: string }) => i.name),
      ['provider'],
    );
    assert.match(problem.detail, /generate connection/);
  });
});
