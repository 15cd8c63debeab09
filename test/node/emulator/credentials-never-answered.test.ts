// Rule: credentials are kept like tokens: no answer holds them (generate, update, get, list, problems, even when the
// request that fails carries them, of any kind) except get connection with includeCreds (the API key: the Connection
// schema's one credential field). Broken on purpose once: the answer of generate connection keeping `credentials`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { credentialSuite, DELAY } from '../helpers/credential-connections.js';

/** A unique marker: found in an answer only if a credential leaked into it. */
const SECRET = 'S3CRET-marker-7f1c';

describe('credentials are never in an answer unless includeCreds asks', () => {
  const { clock, api, generate, update } = credentialSuite();
  const text = async (response: Response) => response.text();

  it('no answer of any operation holds a credential given to generate or update connection', async () => {
    const answers: string[] = [];
    const bodies: Array<[string, Record<string, unknown>]> = [
      ['apollo', { apiKey: `${SECRET}-a` }],
      ['cloudtalk', { basicAuth: { username: `${SECRET}-u`, password: `${SECRET}-p` } }],
      ['paypal', { oauth2ClientCredentials: { clientId: `${SECRET}-id`, clientSecret: `${SECRET}-s` } }],
      ['clariCopilot', { customAuth: { apiKey: `${SECRET}-k`, apiSecret: `${SECRET}-s` } }],
    ];
    const ids: string[] = [];
    for (const [provider, credential] of bodies) {
      const response = await generate({ provider, groupRef: 'never', ...credential });
      assert.equal(response.status, 201);
      const body = await text(response);
      answers.push(body);
      ids.push(JSON.parse(body).id);
    }
    answers.push(await text(await update(ids[0], { updateMask: ['apiKey'], connection: { apiKey: `${SECRET}-b` } })));
    clock.advance(DELAY);
    for (const id of ids) answers.push(await text(await api(`/projects/demo/connections/${id}`)));
    answers.push(await text(await api('/projects/demo/connections')));
    answers.push(await text(await api('/projects/demo/connections?provider=paypal')));
    for (const answer of answers) assert.ok(!answer.includes(SECRET), answer);
  });

  it('no problem echoes one: a wrong kind, a value too long, an unknown field inside a credential', async () => {
    const problems = [
      await generate({ provider: 'apollo', groupRef: 'p', basicAuth: { username: SECRET, password: SECRET } }),
      await generate({ provider: 'apollo', groupRef: 'p', apiKey: `${SECRET}${'x'.repeat(5000)}` }),
      await generate({
        provider: 'cloudtalk',
        groupRef: 'p',
        basicAuth: { username: 'u', password: 1, extra: SECRET },
      }),
      await generate({ provider: 'clariCopilot', groupRef: 'p', customAuth: { apiKey: SECRET, [SECRET]: SECRET } }),
      // A value of the wrong type inside each kind the schema checks: its issue names the field, never its value.
      await generate({ provider: 'clariCopilot', groupRef: 'p', customAuth: { apiSecret: { s: SECRET } } }),
      await generate({
        provider: 'paypal',
        groupRef: 'p',
        oauth2ClientCredentials: { clientId: 'c', clientSecret: { s: SECRET } },
      }),
      await generate({
        provider: 'paypal',
        groupRef: 'p',
        oauth2PasswordCredentials: { clientId: 'c', clientSecret: 's', username: 'u', password: { s: SECRET } },
      }),
      await update('conn_demo', { updateMask: ['apiKey'], connection: { apiKey: SECRET } }),
      await update('conn_demo', {
        updateMask: ['basicAuth'],
        connection: { basicAuth: { username: 7, password: SECRET } },
      }),
      // A body whose root, or whose connection, is no object: the issue is about the whole of it, never its value.
      await api('/projects/demo/connections:generate', { body: [{ provider: 'apollo', apiKey: SECRET }] }),
      await api('/projects/demo/connections:generate', { body: SECRET }),
      await update('conn_demo', [SECRET]),
      await update('conn_demo', { updateMask: ['apiKey'], connection: [SECRET] }),
      await update('conn_demo', { updateMask: ['apiKey'], connection: SECRET }),
    ];
    for (const response of problems) {
      assert.equal(response.status, 400);
      const body = await text(response);
      // The issue names a custom input by its name; an input named as a secret is the caller's own doing.
      assert.ok(!body.replaceAll(`customAuth.${SECRET}`, '').includes(SECRET), body);
    }
  });

  it('get connection answers the API key with includeCreds (or includeRefreshToken), and only then', async () => {
    const made = await (await generate({ provider: 'apollo', groupRef: 'asked', apiKey: `${SECRET}-asked` })).json();
    const get = async (query: string) => (await api(`/projects/demo/connections/${made.id}${query}`)).json();
    assert.equal((await get('')).apiKey, undefined);
    assert.equal((await get('?includeCreds=false')).apiKey, undefined);
    assert.equal((await get('?includeCreds=true')).apiKey, `${SECRET}-asked`);
    assert.equal((await get('?includeRefreshToken=true')).apiKey, `${SECRET}-asked`);
    // No Connection field carries basic, client or custom credentials: never answered.
    const basic = await (
      await generate({
        provider: 'cloudtalk',
        groupRef: 'asked',
        basicAuth: { username: 'u', password: `${SECRET}-b` },
      })
    ).json();
    const asked = await text(await api(`/projects/demo/connections/${basic.id}?includeCreds=true`));
    assert.ok(!asked.includes(SECRET), asked);
  });
});
