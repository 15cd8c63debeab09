// What the tests of connections made with credentials share: an emulator on a clock moved by hand, calls of its API
// checked against openapi.yaml, and a valid credential of each scheme of the catalog.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { contractFetch } from './contract.js';
import { emulatorApi, emulatorPerSuite, manualClock } from './emulator.js';

/** The verify delay of these tests' emulators. */
export const DELAY = 1500;

/** A valid credential of each provider that signs in without a consent page, as generate connection takes it. */
export const CREDENTIALS: Record<string, Record<string, unknown>> = {
  apollo: { apiKey: 'apollo-key-1' },
  insightly: { basicAuth: { username: 'insightly-key-1', password: '' } },
  cloudtalk: { basicAuth: { username: 'cloudtalk-user', password: 'cloudtalk-secret-1' } },
  paypal: { oauth2ClientCredentials: { clientId: 'paypal-client', clientSecret: 'paypal-secret-1' } },
  clariCopilot: { customAuth: { apiKey: 'clari-key-1', apiSecret: 'clari-secret-1' } },
};

/** The authScheme of a connection to each of them. */
export const SCHEMES: Record<string, string> = {
  apollo: 'apiKey',
  insightly: 'basic',
  cloudtalk: 'basic',
  paypal: 'oauth2/clientCredentials',
  clariCopilot: 'custom',
};

/** An emulator for the suite (verify delay DELAY, a clock moved by hand), its API checked against openapi.yaml. */
export function credentialSuite() {
  const clock = manualClock();
  const started = emulatorPerSuite({ verifyDelay: DELAY, now: clock.now });
  const contract = contractFetch();
  after(() => assert.deepEqual(contract.violations, [], 'every answer validated against openapi.yaml'));
  const api = emulatorApi(
    () => started.info,
    (url, init) => contract.fetch(url, init),
  );
  /** generate connection in the demo project: the answer. */
  const generate = (body: Record<string, unknown>) =>
    api('/projects/demo/connections:generate', { body: { consumerRef: 'c', ...body } });
  /** update connection of the demo project: the answer. */
  const update = (id: string, body: unknown) => api(`/projects/demo/connections/${id}`, { method: 'PATCH', body });
  /** get connection of the demo project, as JSON (`query` such as `?includeCreds=true`). */
  const read = async (id: string, query = '') => {
    const response = await api(`/projects/demo/connections/${id}${query}`);
    assert.equal(response.status, 200);
    return response.json();
  };
  return { clock, started, api, generate, update, read };
}
