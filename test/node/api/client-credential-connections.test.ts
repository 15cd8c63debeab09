// Rule: the client's generateConnection and updateConnection reach the real emulator's generate connection and
// update connection (paths, bodies, answers checked against openapi.yaml), and a refusal comes back as a
// ProblemError naming the field. Broken on purpose once: updateConnection sending POST (the emulator then 405).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformClient, ProblemError, type PlatformClient } from '../../../src/api/index.js';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { contractFetch, type ContractFetch } from '../helpers/contract.js';

describe('createPlatformClient: generateConnection and updateConnection against the emulator', () => {
  let emulator: Emulator;
  let client: PlatformClient;
  let contract: ContractFetch;
  let clock = Date.parse('2026-06-01T12:00:00Z');

  before(async () => {
    emulator = createEmulator({ verifyDelay: 1000, now: () => new Date(clock) });
    const { baseUrl } = await emulator.listen();
    contract = contractFetch();
    client = createPlatformClient({ baseUrl, apiKey: emulator.apiKey, fetch: contract.fetch, retry: false });
  });
  after(async () => {
    assert.deepEqual(contract.violations, []);
    await emulator.close();
  });

  it('generates a connection with custom inputs, then updates them: created, then working', async () => {
    const made = await client.generateConnection({
      projectIdOrName: 'demo',
      body: {
        provider: 'clariCopilot',
        groupRef: 'acme',
        consumerRef: 'user-ada',
        customAuth: { apiKey: 'clari-key', apiSecret: 'clari-secret' },
      },
    });
    assert.deepEqual([made.provider, made.authScheme, made.status], ['clariCopilot', 'custom', 'created']);
    clock += 1000;
    assert.equal((await client.getConnection({ projectIdOrName: 'demo', connectionId: made.id })).status, 'working');
    const changed = await client.updateConnection({
      projectIdOrName: 'demo',
      connectionId: made.id,
      body: { updateMask: ['customAuth'], connection: { customAuth: { apiKey: 'k2', apiSecret: 'invalid' } } },
    });
    assert.deepEqual([changed.id, changed.status], [made.id, 'created']);
    clock += 1000;
    const read = await client.getConnection({ projectIdOrName: 'demo', connectionId: made.id });
    assert.equal(read.status, 'bad_credentials');
  });

  it('throws a ProblemError whose issue names the credential kind a provider does not take', async () => {
    await assert.rejects(
      client.generateConnection({
        projectIdOrName: 'demo',
        body: { provider: 'paypal', groupRef: 'acme', consumerRef: 'c', apiKey: 'not-for-paypal' },
      }),
      (error: unknown) => {
        assert.ok(error instanceof ProblemError);
        assert.equal(error.status, 400);
        assert.deepEqual(
          error.problem.issues?.map((i) => i.name),
          ['oauth2ClientCredentials', 'apiKey'],
        );
        return true;
      },
    );
  });
});
