// How each provider signs in (src/shared/sign-in.ts): the popup for consent, a form of the right inputs for every
// other scheme, and the credential in the platform's shape.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserProvider } from '../../../src/shared/provider.js';
import { credentialOf, signInOf, type SignIn } from '../../../src/shared/sign-in.js';

const info = (fields: Partial<BrowserProvider>): BrowserProvider => ({ name: 'p', ...fields });
/** The value as JSON has it: members left undefined are not there. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value));
const inputsOf = (signIn: SignIn) => (signIn.way === 'form' ? signIn.inputs.map((i) => [i.name, i.masked]) : 'popup');

describe('signInOf', () => {
  it('should sign in through the popup for consent grants, jwt, and a provider not known', () => {
    for (const grantType of ['authorizationCode', 'authorizationCodePKCE', undefined])
      assert.deepEqual(signInOf(info({ authType: 'oauth2', oauth2Opts: { grantType } })), { way: 'popup' });
    assert.deepEqual(signInOf(info({ authType: 'jwt' })), { way: 'popup' });
    assert.deepEqual(signInOf(null), { way: 'popup' });
    assert.deepEqual(signInOf(undefined), { way: 'popup' });
    assert.deepEqual(signInOf(info({})), { way: 'popup' });
    assert.deepEqual(signInOf(info({ authType: 'oauth2' })), { way: 'popup' }, 'oauth2 without its options');
  });

  it('should ask an API key provider for one masked key, with its docs link', () => {
    const signIn = signInOf(info({ authType: 'apiKey', apiKeyOpts: { docsURL: 'https://docs.example/key' } }));
    assert.deepEqual(plain(signIn), {
      way: 'form',
      kind: 'apiKey',
      inputs: [{ name: 'apiKey', label: { builtIn: 'apiKey' }, masked: true, docsURL: 'https://docs.example/key' }],
    });
  });

  it('should ask basic for a plain username and a masked password', () => {
    const signIn = signInOf(info({ authType: 'basic' }));
    assert.equal(signIn.way === 'form' && signIn.kind, 'basicAuth');
    assert.deepEqual(inputsOf(signIn), [
      ['username', false],
      ['password', true],
    ]);
  });

  it('should ask basic with apiKeyAsBasic for one masked key, in the field fieldUsed names (the username by default)', () => {
    const asUser = signInOf(info({ authType: 'basic', basicOpts: { apiKeyAsBasic: true } }));
    assert.deepEqual(inputsOf(asUser), [['username', true]]);
    assert.deepEqual(asUser.way === 'form' && asUser.inputs[0].label, { builtIn: 'apiKey' });
    const asPassword = signInOf(
      info({ authType: 'basic', basicOpts: { apiKeyAsBasic: true, apiKeyAsBasicOpts: { fieldUsed: 'password' } } }),
    );
    assert.deepEqual(inputsOf(asPassword), [['password', true]]);
  });

  it("should put the scheme's own docs link beside the first input only", () => {
    const docsOf = (signIn: SignIn) => (signIn.way === 'form' ? signIn.inputs.map((i) => i.docsURL) : 'popup');
    const basic = info({ authType: 'basic', basicOpts: { docsURL: 'https://docs.example/basic' } });
    assert.deepEqual(docsOf(signInOf(basic)), ['https://docs.example/basic', undefined]);
    const client = info({
      authType: 'oauth2',
      oauth2Opts: { grantType: 'clientCredentials', docsURL: 'https://docs.example/client' },
      // Another scheme's options are not this one's.
      apiKeyOpts: { docsURL: 'https://docs.example/key' },
      basicOpts: { docsURL: 'https://docs.example/basic' },
    });
    assert.deepEqual(docsOf(signInOf(client)), ['https://docs.example/client', undefined]);
  });

  it("should keep a scheme's own form when the info also carries basic's apiKeyAsBasic", () => {
    const basicOpts = { apiKeyAsBasic: true, apiKeyAsBasicOpts: { fieldUsed: 'password' as const } };
    const client = signInOf(info({ authType: 'oauth2', oauth2Opts: { grantType: 'clientCredentials' }, basicOpts }));
    assert.deepEqual(inputsOf(client), [
      ['clientId', false],
      ['clientSecret', true],
    ]);
    assert.deepEqual(inputsOf(signInOf(info({ authType: 'apiKey', basicOpts }))), [['apiKey', true]]);
  });

  it('should ask client credentials for a plain client ID and a masked secret', () => {
    const signIn = signInOf(info({ authType: 'oauth2', oauth2Opts: { grantType: 'clientCredentials' } }));
    assert.equal(signIn.way === 'form' && signIn.kind, 'oauth2ClientCredentials');
    assert.deepEqual(inputsOf(signIn), [
      ['clientId', false],
      ['clientSecret', true],
    ]);
  });

  it('should ask the password grant for username, password, client ID and secret', () => {
    const signIn = signInOf(info({ authType: 'oauth2', oauth2Opts: { grantType: 'password' } }));
    assert.equal(signIn.way === 'form' && signIn.kind, 'oauth2PasswordCredentials');
    assert.deepEqual(inputsOf(signIn), [
      ['username', false],
      ['password', true],
      ['clientId', false],
      ['clientSecret', true],
    ]);
  });

  it('should ask custom inputs as their field type says: text plain, select a choice, password or none masked', () => {
    const options = [{ value: 'eu', label: 'Europe' }];
    const signIn = signInOf(
      info({
        authType: 'custom',
        customOpts: {
          inputs: [
            { name: 'a', displayName: 'A', fieldType: 'fieldTypeText' },
            { name: 'b', fieldType: 'fieldTypeSelect', options },
            { name: 'c', fieldType: 'fieldTypePassword', prompt: 'The secret', docsURL: 'https://d.example' },
            { name: 'd' },
          ],
        },
      }),
    );
    assert.equal(signIn.way === 'form' && signIn.kind, 'customAuth');
    assert.deepEqual(plain(signIn.way === 'form' && signIn.inputs), [
      { name: 'a', label: { text: 'A' }, masked: false },
      { name: 'b', label: { text: 'b' }, masked: false, options },
      { name: 'c', label: { text: 'c' }, masked: true, prompt: 'The secret', docsURL: 'https://d.example' },
      { name: 'd', label: { text: 'd' }, masked: true },
    ]);
  });

  it('should ask a custom provider without inputs for nothing, and offer a select without options no choice', () => {
    assert.deepEqual(signInOf(info({ authType: 'custom' })), { way: 'form', kind: 'customAuth', inputs: [] });
    const select = signInOf(
      info({ authType: 'custom', customOpts: { inputs: [{ name: 's', fieldType: 'fieldTypeSelect' }] } }),
    );
    assert.deepEqual(select.way === 'form' && select.inputs[0].options, []);
  });

  it('should ask nothing of a provider that takes nothing, through the form', () => {
    assert.deepEqual(signInOf(info({ authType: 'none' })), { way: 'form', inputs: [] });
  });
});

describe('credentialOf', () => {
  const values = { apiKey: 'K', username: 'U', password: 'P', clientId: 'I', clientSecret: 'S', region: 'eu' };

  it('should send an API key as a string', () => {
    assert.deepEqual(credentialOf(signInOf(info({ authType: 'apiKey' })), values), { apiKey: 'K' });
  });

  it('should send an input left without a value as an empty string, never undefined', () => {
    assert.deepEqual(credentialOf(signInOf(info({ authType: 'apiKey' })), {}), { apiKey: '' });
    const custom = info({ authType: 'custom', customOpts: { inputs: [{ name: 'region' }] } });
    assert.deepEqual(credentialOf(signInOf(custom), {}), { customAuth: { region: '' } });
    assert.deepEqual(credentialOf(signInOf(info({ authType: 'basic' })), { username: 'U' }), {
      basicAuth: { username: 'U', password: '' },
    });
  });

  it('should send basic as username and password, and an API key as basic in one field with the other empty', () => {
    assert.deepEqual(credentialOf(signInOf(info({ authType: 'basic' })), values), {
      basicAuth: { username: 'U', password: 'P' },
    });
    const asPassword = info({
      authType: 'basic',
      basicOpts: { apiKeyAsBasic: true, apiKeyAsBasicOpts: { fieldUsed: 'password' } },
    });
    assert.deepEqual(credentialOf(signInOf(asPassword), { password: 'K' }), {
      basicAuth: { username: '', password: 'K' },
    });
    const asUser = info({ authType: 'basic', basicOpts: { apiKeyAsBasic: true } });
    assert.deepEqual(credentialOf(signInOf(asUser), { username: 'K' }), { basicAuth: { username: 'K', password: '' } });
  });

  it('should send client and password credentials in their objects', () => {
    const client = info({ authType: 'oauth2', oauth2Opts: { grantType: 'clientCredentials' } });
    assert.deepEqual(credentialOf(signInOf(client), values), {
      oauth2ClientCredentials: { clientId: 'I', clientSecret: 'S' },
    });
    const password = info({ authType: 'oauth2', oauth2Opts: { grantType: 'password' } });
    assert.deepEqual(credentialOf(signInOf(password), values), {
      oauth2PasswordCredentials: { username: 'U', password: 'P', clientId: 'I', clientSecret: 'S' },
    });
  });

  it('should send custom inputs by name, and nothing for the popup or a provider that takes nothing', () => {
    const custom = info({ authType: 'custom', customOpts: { inputs: [{ name: 'region' }, { name: 'apiKey' }] } });
    assert.deepEqual(credentialOf(signInOf(custom), values), { customAuth: { region: 'eu', apiKey: 'K' } });
    assert.deepEqual(credentialOf({ way: 'popup' }, values), {});
    assert.deepEqual(credentialOf(signInOf(info({ authType: 'none' })), values), {});
  });
});
