// Rule: the fields each credential kind requires hold whatever the catalog's providers are: the password grant's
// four, basic's two (or with apiKeyAsBasic only the field it names, the username unless it says), a custom
// provider's own inputs (a select's value one of its options, no input it lacks); a kind not taken is refused
// alone, before any value is read; and verifying reads every string a credential holds, at any depth. The seed
// catalog has no password-grant provider, no select input and no provider without its options, so these rules
// are held here on providers made for the test. Broken on purpose once each: the password grant's list emptied,
// the select check dropped, `?? 'username'` made `&& 'username'`, the kind check and the value check run together
// (issues.length === 0 dropped), stringsIn reading null as an object, and the password grant's words emptied.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpProblem } from '../../../src/http/http-problem.js';
import { checkedCredentials, verdictOf } from '../../../src/emulator/credentials.js';
import type { CatalogEntry } from '../../../src/emulator/providers.js';
import type { Credential, CredentialKind } from '../../../src/shared/sign-in.js';

const provider = (extra: Partial<CatalogEntry>): CatalogEntry => ({
  name: 'made',
  displayName: 'Made',
  scopes: [],
  baseURL: 'https://api.made.example',
  color: '#000000',
  ...extra,
});

/** The credential `checkedCredentials` keeps for `body`'s `kind`. */
const kept = (entry: CatalogEntry, kind: CredentialKind, value: unknown): Credential =>
  checkedCredentials(entry, { [kind]: value }, [kind], '');

/** The names of the issues of the 400 `checkedCredentials` throws for `body` (every kind it holds given). */
function refused(entry: CatalogEntry, body: Record<string, unknown>, prefix = ''): string[] {
  try {
    checkedCredentials(entry, body, Object.keys(body) as CredentialKind[], prefix);
  } catch (error) {
    const problem = (error as HttpProblem).init;
    assert.equal(problem.status, 400);
    return (problem.issues ?? []).map((i) => i.name ?? '');
  }
  assert.fail('not refused');
}

describe('the fields each credential kind requires, whatever the catalog holds', () => {
  it('the password grant: username, password, client ID and secret, each non-blank', () => {
    const passwordGrant = provider({ grantType: 'password' });
    const all = { username: 'u', password: 'p', clientId: 'id', clientSecret: 's' };
    assert.deepEqual(kept(passwordGrant, 'oauth2PasswordCredentials', all), { oauth2PasswordCredentials: all });
    assert.deepEqual(refused(passwordGrant, { oauth2PasswordCredentials: {} }), [
      'oauth2PasswordCredentials.username',
      'oauth2PasswordCredentials.password',
      'oauth2PasswordCredentials.clientId',
      'oauth2PasswordCredentials.clientSecret',
    ]);
    assert.deepEqual(refused(passwordGrant, { oauth2PasswordCredentials: { ...all, clientSecret: ' ' } }), [
      'oauth2PasswordCredentials.clientSecret',
    ]);
    try {
      checkedCredentials(passwordGrant, { apiKey: 'k' }, ['apiKey'], '');
      assert.fail('not refused');
    } catch (error) {
      assert.equal(
        (error as HttpProblem).init.detail,
        'apiKey is not taken: Made signs in with a username, password, client ID and secret (oauth2PasswordCredentials)',
      );
    }
  });

  it('basic: both fields without basicOpts; with apiKeyAsBasic only the field it names, the username by default', () => {
    assert.deepEqual(refused(provider({ authType: 'basic' }), { basicAuth: { username: '', password: '' } }), [
      'basicAuth.username',
      'basicAuth.password',
    ]);
    const keyAsBasic = provider({ authType: 'basic', basicOpts: { apiKeyAsBasic: true } });
    assert.deepEqual(refused(keyAsBasic, { basicAuth: { username: '', password: 'p' } }), ['basicAuth.username']);
    assert.deepEqual(kept(keyAsBasic, 'basicAuth', { username: 'key', password: '' }), {
      basicAuth: { username: 'key', password: '' },
    });
    const inPassword = provider({
      authType: 'basic',
      basicOpts: { apiKeyAsBasic: true, apiKeyAsBasicOpts: { fieldUsed: 'password' } },
    });
    assert.deepEqual(refused(inPassword, { basicAuth: { username: 'u', password: '' } }), ['basicAuth.password']);
    assert.deepEqual(kept(inPassword, 'basicAuth', { username: '', password: 'key' }), {
      basicAuth: { username: '', password: 'key' },
    });
  });

  it("custom: a select's value is one of its options (none when it has none); a provider without inputs takes none", () => {
    const region = {
      name: 'region',
      displayName: 'Region',
      fieldType: 'fieldTypeSelect' as const,
      options: [
        { value: 'eu', label: 'Europe' },
        { value: 'us', label: 'United States' },
      ],
    };
    const regions = provider({
      authType: 'custom',
      customOpts: { inputs: [region, { name: 'mode', displayName: 'Mode', fieldType: 'fieldTypeSelect' }] },
    });
    assert.deepEqual(refused(regions, { customAuth: { region: 'mars', mode: 'any' } }), [
      'customAuth.region',
      'customAuth.mode',
    ]);
    try {
      checkedCredentials(regions, { customAuth: { region: 'EU', mode: 'x' } }, ['customAuth'], '');
      assert.fail('not refused');
    } catch (error) {
      assert.equal(
        (error as HttpProblem).init.detail,
        '2 problems: customAuth.region must be one of its options; customAuth.mode must be one of its options',
      );
    }
    const us = provider({ authType: 'custom', customOpts: { inputs: [region] } });
    assert.deepEqual(kept(us, 'customAuth', { region: 'us' }), { customAuth: { region: 'us' } });

    const noInputs = provider({ authType: 'custom' });
    assert.deepEqual(kept(noInputs, 'customAuth', {}), { customAuth: {} });
    assert.deepEqual(refused(noInputs, { customAuth: { token: 't' } }), ['customAuth.token']);
  });

  it('a kind not taken is refused alone: the values are read once the kinds are right', () => {
    const apiKey = provider({ authType: 'apiKey' });
    assert.deepEqual(refused(apiKey, { apiKey: ' ', basicAuth: { username: 'u', password: 'p' } }), ['basicAuth']);
    assert.deepEqual(refused(apiKey, { apiKey: ' ' }, 'connection.'), ['connection.apiKey']);
  });

  it('verifying reads every string a credential holds, at any depth, and nothing else', () => {
    const held = (value: unknown) => verdictOf({ customAuth: value as Record<string, string> });
    assert.equal(held({ a: null, b: 5, c: { d: ['fine'] } }), 'working');
    assert.equal(held({ a: null, b: 5, c: { d: ['an-invalid-one'] } }), 'bad_credentials');
  });
});
