// Rule: each provider that signs in without a consent page connects through generate connection with the credential
// kind of its scheme (an API key, basic, an API key as basic, client credentials, custom inputs): 201, `created`,
// then `working` once the verify delay has passed. Broken on purpose once: verdictOf answering `created`, and the
// catalog's insightly without apiKeyAsBasic (its empty password refused); the one-per-group lookup ignoring the
// group or the project; the workspace set whether given or not; the limit's check dropped and made `>`;
// oauth-update not refusing a credential provider.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../../src/emulator/limits.js';
import { CREDENTIALS, credentialSuite, DELAY, SCHEMES } from '../helpers/credential-connections.js';

describe('generate connection: each scheme creates and verifies', () => {
  const { clock, started, api, generate, read } = credentialSuite();

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

  it('another group, or another provider for the same group, is another connection', async () => {
    const first = await (await generate({ provider: 'apollo', groupRef: 'one', apiKey: 'k1' })).json();
    const second = await (await generate({ provider: 'apollo', groupRef: 'two', apiKey: 'k2' })).json();
    const other = await (await generate({ provider: 'cloudtalk', groupRef: 'one', ...CREDENTIALS.cloudtalk })).json();
    assert.equal(new Set([first.id, second.id, other.id]).size, 3);
    for (const made of [first, second, other]) assert.match(made.id, /^conn_[0-9a-f]{12}$/);
    assert.equal((await read(first.id, '?includeCreds=true')).apiKey, 'k1');
    // The same provider and group in another project: another connection.
    const project = await api('/projects', { body: { name: 'other-project', appName: 'Other', orgId: 'org_demo' } });
    assert.equal(project.status, 201);
    const elsewhere = await api('/projects/other-project/connections:generate', {
      body: { provider: 'apollo', groupRef: 'one', consumerRef: 'c', apiKey: 'k3' },
    });
    assert.equal(elsewhere.status, 201);
    assert.notEqual((await elsewhere.json()).id, first.id);
    assert.equal((await read(first.id, '?includeCreds=true')).apiKey, 'k1', 'the first project keeps its key');
  });

  it('keeps the workspace and metadata given, and those a later generate does not give', async () => {
    const metadata = { region: { value: 'eu', source: 'input' } };
    const body = { provider: 'apollo', groupRef: 'workspace', apiKey: 'k1' };
    const made = await (await generate({ ...body, providerWorkspaceRef: 'acme', providerMetadata: metadata })).json();
    assert.deepEqual([made.providerWorkspaceRef, made.providerMetadata], ['acme', metadata]);
    const again = await (await generate({ ...body, apiKey: 'k2' })).json();
    assert.deepEqual([again.id, again.providerWorkspaceRef, again.providerMetadata], [made.id, 'acme', metadata]);
  });

  it("refuses a new connection past the emulator's most (429), while one it holds may still change", async () => {
    const state = started.emulator.state;
    const kept = state.connections.length;
    const seed = state.connections[0];
    await generate({ provider: 'apollo', groupRef: 'at-the-most', apiKey: 'k1' });
    try {
      while (state.connections.length < LIMITS.connections) {
        state.connections.push({ ...seed, id: `conn_fill_${state.connections.length}` });
      }
      const refused = await generate({ provider: 'apollo', groupRef: 'one-too-many', apiKey: 'k' });
      assert.equal(refused.status, 429);
      assert.equal(
        (await refused.json()).detail,
        `the emulator holds ${LIMITS.connections} connections, its most; delete some first`,
      );
      assert.equal(state.connections.length, LIMITS.connections);
      const changed = await generate({ provider: 'apollo', groupRef: 'at-the-most', apiKey: 'k2' });
      assert.equal(changed.status, 201);
    } finally {
      state.connections.splice(kept + 1);
    }
  });

  it('refuses oauth-connect for a provider that signs in with credentials: 400 naming provider', async () => {
    const response = await api('/oauth-connect', {
      body: { projectId: 'demo', provider: 'apollo', groupRef: 'g', consumerRef: 'c' },
    });
    assert.equal(response.status, 400);
    const problem = await response.json();
    const detail =
      'Apollo signs in with credentials, not on a consent page: use generate connection ' +
      '(POST /projects/{projectIdOrName}/connections:generate)';
    assert.deepEqual(
      [problem.detail, problem.issues],
      [detail, [{ detail, in: 'body', name: 'provider', value: 'apollo' }]],
    );
  });

  it('refuses oauth-update of a connection made with credentials: the same 400', async () => {
    const made = await (await generate({ provider: 'apollo', groupRef: 'no-consent', apiKey: 'k' })).json();
    const response = await api(`/projects/demo/connections/${made.id}:oauth-update`, { method: 'PATCH' });
    assert.equal(response.status, 400);
    assert.match((await response.json()).detail, /^Apollo signs in with credentials, not on a consent page/);
  });
});
