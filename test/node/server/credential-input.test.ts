// What the browser may send as a credential (src/server/credential-input.ts): one kind, of the platform's shape,
// each value a bounded string, of the kind the provider's scheme takes; a refusal names the field and its rule and
// never the value; and every form a platform's error could repeat the credential in, to hide it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpProblem } from '../../../src/http/http-problem.js';
import {
  checkCredentialKind,
  credentialValues,
  MAX_CUSTOM_INPUTS,
  parseCredential,
  secretForms,
} from '../../../src/server/credential-input.js';
import type { BrowserProvider } from '../../../src/shared/provider.js';
import { MAX_CREDENTIAL_LENGTH } from '../../../src/shared/sign-in.js';

/** The refusal `run` throws: its detail, and its one issue's name and detail. */
function refusal(run: () => unknown): { detail: string; name: string; issue: string } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof HttpProblem, String(error));
    assert.equal(error.init.status, 400);
    const [issue, ...more] = error.init.issues ?? [];
    assert.equal(more.length, 0);
    assert.equal(issue.in, 'body');
    assert.equal(error.init.detail, `${issue.name} ${issue.detail}`);
    return { detail: error.init.detail!, name: issue.name!, issue: issue.detail! };
  }
  assert.fail('nothing was refused');
}

describe('parseCredential', () => {
  it('should find no credential in a body without one, or with null ones', () => {
    assert.equal(parseCredential({ provider: 'apollo' }), undefined);
    assert.equal(parseCredential({ apiKey: null, basicAuth: null }), undefined);
  });

  it('should refuse a second credential, naming it and the kinds to choose from', () => {
    const refused = refusal(() => parseCredential({ apiKey: 'k', customAuth: { a: 'b' } }));
    assert.equal(refused.name, 'customAuth');
    assert.equal(
      refused.issue,
      'is a second credential: send only one of apiKey, basicAuth, oauth2ClientCredentials, oauth2PasswordCredentials, customAuth',
    );
  });

  it('should take a key of at most 4,096 characters, and say why another is refused', () => {
    assert.deepEqual(parseCredential({ apiKey: 'k'.repeat(MAX_CREDENTIAL_LENGTH) })?.kind, 'apiKey');
    assert.deepEqual(
      refusal(() => parseCredential({ apiKey: 42 })),
      {
        detail: 'apiKey must be a string',
        name: 'apiKey',
        issue: 'must be a string',
      },
    );
    assert.equal(
      refusal(() => parseCredential({ apiKey: 'k'.repeat(MAX_CREDENTIAL_LENGTH + 1) })).issue,
      'is longer than 4096 characters',
    );
  });

  it('should copy the fields of each object kind and nothing else, and refuse one that is no object', () => {
    assert.deepEqual(parseCredential({ basicAuth: { username: 'u', password: 'p', extra: 'x' } }), {
      kind: 'basicAuth',
      credential: { basicAuth: { username: 'u', password: 'p' } },
    });
    assert.deepEqual(
      parseCredential({ oauth2PasswordCredentials: { username: 'u', password: 'p', clientId: 'i', clientSecret: 's' } })
        ?.credential,
      { oauth2PasswordCredentials: { username: 'u', password: 'p', clientId: 'i', clientSecret: 's' } },
    );
    for (const field of ['username', 'password', 'clientId', 'clientSecret']) {
      const full: Record<string, string> = { username: 'u', password: 'p', clientId: 'i', clientSecret: 's' };
      delete full[field];
      assert.equal(
        refusal(() => parseCredential({ oauth2PasswordCredentials: full })).name,
        `oauth2PasswordCredentials.${field}`,
      );
    }
    assert.deepEqual(
      refusal(() => parseCredential({ basicAuth: 'u:p' })),
      {
        detail: 'basicAuth must be an object',
        name: 'basicAuth',
        issue: 'must be an object',
      },
    );
  });

  it('should take at most 20 custom inputs, each a string', () => {
    const inputs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`in${i}`, `v${i}`]));
    assert.deepEqual(parseCredential({ customAuth: inputs(MAX_CUSTOM_INPUTS) })?.credential, {
      customAuth: inputs(MAX_CUSTOM_INPUTS),
    });
    assert.deepEqual(
      refusal(() => parseCredential({ customAuth: inputs(MAX_CUSTOM_INPUTS + 1) })),
      {
        detail: 'customAuth has more than 20 inputs',
        name: 'customAuth',
        issue: 'has more than 20 inputs',
      },
    );
    assert.equal(refusal(() => parseCredential({ customAuth: { region: 1 } })).name, 'customAuth.region');
  });

  it('should copy at most 20 scopes of strings for the OAuth grants, and none for basic', () => {
    const client = { clientId: 'i', clientSecret: 's' };
    const scopes = (n: number) => Array.from({ length: n }, (_, i) => `scope${i}`);
    assert.deepEqual(parseCredential({ oauth2ClientCredentials: { ...client, scopes: scopes(20) } })?.credential, {
      oauth2ClientCredentials: { ...client, scopes: scopes(20) },
    });
    assert.deepEqual(parseCredential({ oauth2ClientCredentials: { ...client, scopes: null } })?.credential, {
      oauth2ClientCredentials: client,
    });
    assert.deepEqual(parseCredential({ basicAuth: { username: 'u', password: 'p', scopes: ['x'] } })?.credential, {
      basicAuth: { username: 'u', password: 'p' },
    });
    for (const bad of [scopes(21), 'read write', { 0: 'x' }]) {
      assert.deepEqual(
        refusal(() => parseCredential({ oauth2ClientCredentials: { ...client, scopes: bad } })),
        {
          detail: 'oauth2ClientCredentials.scopes must be a short array of strings',
          name: 'oauth2ClientCredentials.scopes',
          issue: 'must be a short array of strings',
        },
      );
    }
    assert.equal(
      refusal(() => parseCredential({ oauth2ClientCredentials: { ...client, scopes: ['a', 7] } })).name,
      'oauth2ClientCredentials.scopes[1]',
    );
  });
});

describe('checkCredentialKind', () => {
  const apollo: BrowserProvider = { name: 'apollo', authType: 'apiKey' };
  const salesforce: BrowserProvider = {
    name: 'salesforce',
    authType: 'oauth2',
    oauth2Opts: { grantType: 'authorizationCode' },
  };
  const open: BrowserProvider = { name: 'open', authType: 'none' };

  it('should pass the kind the scheme takes, and nothing for a provider that takes nothing', () => {
    checkCredentialKind(apollo, 'apiKey');
    checkCredentialKind(open, undefined);
  });

  it('should say what the provider takes instead, naming the field sent or missing', () => {
    assert.deepEqual(
      refusal(() => checkCredentialKind(apollo, undefined)),
      {
        detail: 'apiKey is required: apollo signs in with it',
        name: 'apiKey',
        issue: 'is required: apollo signs in with it',
      },
    );
    assert.equal(
      refusal(() => checkCredentialKind(apollo, 'basicAuth')).detail,
      'basicAuth is not what apollo takes: it takes apiKey',
    );
    assert.equal(
      refusal(() => checkCredentialKind(open, 'apiKey')).detail,
      'apiKey is not what open takes: it takes no credential',
    );
    assert.equal(
      refusal(() => checkCredentialKind(salesforce, 'apiKey')).detail,
      'apiKey is not what salesforce takes: it signs in through its consent page (oauth-connect)',
    );
    assert.deepEqual(
      refusal(() => checkCredentialKind(salesforce, undefined)),
      {
        detail: 'provider salesforce signs in through its consent page (oauth-connect)',
        name: 'provider',
        issue: 'salesforce signs in through its consent page (oauth-connect)',
      },
    );
  });
});

describe('the forms of a credential to hide', () => {
  it('should collect every value, in objects and arrays, without the empty ones', () => {
    assert.deepEqual(
      credentialValues({ oauth2ClientCredentials: { clientId: 'id', clientSecret: '', scopes: ['s1', 's2'] } }),
      ['id', 's1', 's2'],
    );
    assert.deepEqual(credentialValues({ apiKey: '' }), []);
  });

  it('should hide each value once, and each pair basic auth carries (user and password, client id and secret)', () => {
    const forms = secretForms({ customAuth: { a: 'q"uo\\te', b: 'q"uo\\te', c: 'plain' } });
    assert.deepEqual(forms, ['q"uo\\te', 'plain']);
    assert.deepEqual(secretForms({ basicAuth: { username: 'ü', password: 'p' } }), ['ü', 'p', 'ü:p']);
    const grant = secretForms({
      oauth2PasswordCredentials: { username: 'u', password: 'pw', clientId: 'i', clientSecret: 's' },
    });
    assert.deepEqual(grant, ['u', 'pw', 'i', 's', 'u:pw', 'i:s']);
    assert.deepEqual(secretForms({ oauth2ClientCredentials: { clientId: 'i', clientSecret: 's' } }), ['i', 's', 'i:s']);
    assert.deepEqual(secretForms({ basicAuth: { username: '', password: '' } }), [':']);
  });
});
