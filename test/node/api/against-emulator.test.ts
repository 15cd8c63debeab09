// The client's operations beyond the seed against the real emulator, every
// answer checked against openapi.yaml on its way through.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformClient, ProblemError, type PlatformClient } from '../../../src/api/index.js';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { contractFetch, type ContractFetch } from '../helpers/contract.js';

describe('createPlatformClient against the emulator: the operations beyond the seed', () => {
  let emulator: Emulator;
  let client: PlatformClient;
  let contract: ContractFetch;

  before(async () => {
    emulator = createEmulator({ verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    contract = contractFetch();
    client = createPlatformClient({ baseUrl, apiKey: emulator.apiKey, fetch: contract.fetch, retry: false });
  });
  after(() => emulator.close());

  it('reads the project, with entitlements only when asked', async () => {
    const plain = await client.getProject({ projectIdOrName: 'demo' });
    assert.equal(plain.id, 'proj_demo');
    assert.equal('entitlements' in plain, false);
    const withEntitlements = await client.getProject({ projectIdOrName: 'proj_demo', includeEntitlements: true });
    assert.ok('entitlements' in withEntitlements);
  });

  it('reads a provider with its OAuth options', async () => {
    const info = await client.getProvider({ provider: 'salesforce' });
    assert.equal(info.name, 'salesforce');
    assert.equal(info.authType, 'oauth2');
    assert.equal(typeof info.oauth2Opts?.tokenURL, 'string');
  });

  it('lists integrations and provider apps', async () => {
    const integrations = await client.listIntegrations({ projectIdOrName: 'demo' });
    assert.ok(integrations.some((i) => i.id === 'int_demo'));
    const apps = await client.listProviderApps({ projectIdOrName: 'demo' });
    assert.ok(apps.length > 0 && apps.every((a) => typeof a.provider === 'string'));
  });

  it('deletes a connection, after which it is gone', async () => {
    const before = await client.listConnections({ projectIdOrName: 'demo', groupRef: 'acme' });
    assert.ok(before.some((c) => c.id === 'conn_demo'));
    await client.deleteConnection({ projectIdOrName: 'demo', connectionId: 'conn_demo' });
    const error = await client.getConnection({ projectIdOrName: 'demo', connectionId: 'conn_demo' }).then(
      () => assert.fail('the deleted connection still answers'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ProblemError && error.status === 404, String(error));
    const listed = await client.listConnections({ projectIdOrName: 'demo', groupRef: 'acme' });
    assert.ok(!listed.some((c) => c.id === 'conn_demo'));
  });

  it('saw every answer conform to openapi.yaml', () => {
    assert.deepEqual(contract.violations, []);
    for (const op of ['getProject', 'getProvider', 'listIntegrations', 'listProviderApps', 'deleteConnection']) {
      assert.ok(contract.seen.has(op), `${op} answered`);
    }
  });
});
