// Rule: a provider's scheme takes one credential kind; generate connection and update connection refuse another
// (400 whose issue names the field sent), a missing one (naming the one it takes) and a blank or unknown value, and
// change nothing. The problem says in words what the provider takes, and each issue its field. Broken on purpose
// once: checkedCredentials accepting any kind (apollo then took basicAuth); describeKind's words emptied; the
// client credentials' fields not required; one problem's detail counted as several.
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
    assert.deepEqual(
      await names({ provider: 'paypal', oauth2ClientCredentials: { clientId: ' ', clientSecret: '' } }),
      ['oauth2ClientCredentials.clientId', 'oauth2ClientCredentials.clientSecret'],
    );
  });

  /** The 400 problem of `response`: its detail and issues. */
  const problemOf = async (response: Response) => {
    assert.equal(response.status, 400);
    const { detail, issues } = await response.json();
    return { detail, issues };
  };
  const TAKES: Record<string, [kind: string, words: string]> = {
    apollo: ['apiKey', 'Apollo signs in with an API key (apiKey)'],
    insightly: ['basicAuth', 'Insightly signs in with a username and password (basicAuth)'],
    cloudtalk: ['basicAuth', 'CloudTalk signs in with a username and password (basicAuth)'],
    paypal: ['oauth2ClientCredentials', 'PayPal signs in with a client ID and secret (oauth2ClientCredentials)'],
    clariCopilot: ['customAuth', 'Clari Copilot signs in with its custom inputs (customAuth)'],
  };

  it('the problem says in words what each provider takes, the kind missing first, then each kind not taken', async () => {
    for (const [provider, [kind, words]] of Object.entries(TAKES)) {
      const detail = `${kind} is required: ${words}`;
      assert.deepEqual(await problemOf(await generate({ provider, groupRef: 'words' })), {
        detail,
        issues: [{ detail, in: 'body', name: kind }],
      });
      const other = kind === 'apiKey' ? 'customAuth' : 'apiKey';
      const wrong = await problemOf(
        await generate({ provider, groupRef: 'words', [other]: other === 'apiKey' ? 'k' : { a: 'b' } }),
      );
      assert.deepEqual(wrong.issues, [
        { detail, in: 'body', name: kind },
        { detail: `${other} is not taken`, in: 'body', name: other },
      ]);
    }
  });

  it('a kind not taken beside the one taken: "<kind> is not taken" and what the provider takes; several counted', async () => {
    const apollo = { provider: 'apollo', groupRef: 'words', apiKey: 'k', basicAuth: { username: 'u', password: 'p' } };
    const one = await problemOf(await generate(apollo));
    const detail = 'basicAuth is not taken: Apollo signs in with an API key (apiKey)';
    assert.deepEqual(one, { detail, issues: [{ detail, in: 'body', name: 'basicAuth' }] });
    const two = await problemOf(await generate({ ...apollo, customAuth: { a: 'b' } }));
    assert.equal(
      two.detail,
      '2 problems: basicAuth is not taken: Apollo signs in with an API key (apiKey); ' +
        'customAuth is not taken: Apollo signs in with an API key (apiKey)',
    );
    const consent = await problemOf(await generate({ provider: 'hubspot', groupRef: 'words', apiKey: 'k' }));
    const none =
      'apiKey is not taken: HubSpot signs in on a consent page (oauth-connect, oauth-update), with no credential';
    assert.deepEqual(consent, { detail: none, issues: [{ detail: none, in: 'body', name: 'apiKey' }] });
    assert.deepEqual(await problemOf(await generate({ provider: 'hubspot', groupRef: 'words' })), {
      detail: 'HubSpot signs in on a consent page: use oauth-connect',
      issues: [
        { detail: 'signs in on a consent page: use oauth-connect', in: 'body', name: 'provider', value: 'hubspot' },
      ],
    });
  });

  it('a value refused: its field and what it must be, never the value', async () => {
    assert.deepEqual(await problemOf(await generate({ provider: 'apollo', groupRef: 'words', apiKey: ' ' })), {
      detail: 'apiKey is required: a non-blank string',
      issues: [{ detail: 'apiKey is required: a non-blank string', in: 'body', name: 'apiKey' }],
    });
    const clari = await problemOf(
      await generate({ provider: 'clariCopilot', groupRef: 'words', customAuth: { apiKey: 'k', other: 'x' } }),
    );
    assert.deepEqual(clari.issues, [
      {
        detail: 'customAuth.apiSecret is required: API Secret, a non-blank string',
        in: 'body',
        name: 'customAuth.apiSecret',
      },
      { detail: 'customAuth.other is not an input of Clari Copilot', in: 'body', name: 'customAuth.other' },
    ]);
    assert.equal(clari.detail, `2 problems: ${clari.issues.map((i: { detail: string }) => i.detail).join('; ')}`);
    const basic = await problemOf(
      await generate({ provider: 'cloudtalk', groupRef: 'words', basicAuth: { username: '', password: 'p' } }),
    );
    assert.deepEqual(basic.issues, [
      { detail: 'basicAuth.username is required: a non-blank string', in: 'body', name: 'basicAuth.username' },
    ]);
  });

  it('update connection: a kind other than the connection scheme, 400 naming connection.<kind>, nothing changed', async () => {
    const made = await (await generate({ provider: 'apollo', groupRef: 'kind-update', apiKey: 'kept' })).json();
    const response = await update(made.id, {
      updateMask: ['basicAuth'],
      connection: { basicAuth: { username: 'u', password: 'p' } },
    });
    const detail = 'connection.basicAuth is not taken: Apollo signs in with an API key (apiKey)';
    assert.deepEqual(await problemOf(response), {
      detail,
      issues: [{ detail, in: 'body', name: 'connection.basicAuth' }],
    });
    assert.equal((await read(made.id, '?includeCreds=true')).apiKey, 'kept');
    // An OAuth connection takes no credential at all.
    const oauth = await update('conn_demo', { updateMask: ['apiKey'], connection: { apiKey: 'k' } });
    assert.deepEqual(await issueNames(oauth), ['connection.apiKey']);
  });
});
