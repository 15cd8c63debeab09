// Rule: src/shared/sign-in.ts's tables are the one statement of each sign-in scheme, credential kind and field, and
// everything that reads a credential agrees with them: openapi.yaml's schemes, grants and credential schemas; the
// form the element builds (signInOf, credentialOf); the handler's parsing (parseCredential, checkCredentialKind);
// the emulator's validation (the document's, then checkedCredentials) and what it stores. Broken on purpose once:
// a field added to CREDENTIALS.oauth2ClientCredentials (the yaml's schema and the emulator's body check disagreed:
// red), and `scopes` made true for basicAuth (red).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpProblem } from '../../../src/http/http-problem.js';
import { checkedCredentials } from '../../../src/emulator/credentials.js';
import { loadContract, loadDocument, SECRET_FIELDS } from '../../../src/emulator/openapi.js';
import {
  authSchemeOf,
  credentialKindOf,
  PROVIDERS,
  catalogInfo,
  signsInByConsent,
  type CatalogEntry,
} from '../../../src/emulator/providers.js';
import { checkCredentialKind, parseCredential } from '../../../src/server/credential-input.js';
import { toBrowserProvider } from '../../../src/server/provider.js';
import {
  CREDENTIAL_FIELDS,
  CREDENTIAL_KINDS,
  CREDENTIALS,
  credentialOf,
  signInOf,
  SIGN_IN_SCHEMES,
  unsupportedScheme,
  type CredentialKind,
} from '../../../src/shared/sign-in.js';

type Json = Record<string, unknown>;
const doc = loadDocument();
const schemas = (doc.components as Json).schemas as Record<string, Json>;
const resolved = (schema: Json): Json =>
  typeof schema.$ref === 'string' ? schemas[schema.$ref.replace('#/components/schemas/', '')]! : schema;
const enumOf = (schema: Json) => [...(schema.enum as string[])].sort();
const sorted = (list: Iterable<string>) => [...list].sort();

/** Problems are thrown; the names of their issues, or `ok` when nothing was thrown. */
function issuesOf(run: () => unknown): string[] | 'ok' {
  try {
    run();
    return 'ok';
  } catch (error) {
    return ((error as HttpProblem).init.issues ?? []).map((issue) => issue.name ?? '');
  }
}

/** A provider of each scheme that signs in with a form: the catalog's, and made ones for what it lacks. */
const made = (name: string, extra: Partial<CatalogEntry>): CatalogEntry => ({
  name,
  displayName: name,
  scopes: [],
  baseURL: `https://api.${name}.example`,
  color: '#000000',
  ...extra,
});
const FORM_PROVIDERS: readonly CatalogEntry[] = [
  ...PROVIDERS.filter((provider) => credentialKindOf(provider)),
  made('clientgrant', { grantType: 'clientCredentials' }),
  made('passwordgrant', { grantType: 'password' }),
  made('keyinpassword', {
    authType: 'basic',
    basicOpts: { apiKeyAsBasic: true, apiKeyAsBasicOpts: { fieldUsed: 'password' } },
  }),
  made('choices', {
    authType: 'custom',
    customOpts: {
      inputs: [
        {
          name: 'region',
          displayName: 'Region',
          fieldType: 'fieldTypeSelect',
          options: [{ value: 'eu', label: 'EU' }],
        },
        { name: 'token', displayName: 'Token', fieldType: 'fieldTypePassword' },
      ],
    },
  }),
];

const browserView = (provider: CatalogEntry) =>
  toBrowserProvider(catalogInfo(provider, 'http://127.0.0.1:4010'), provider.name, true);

describe("the sign-in table and openapi.yaml's credentials", () => {
  it('names every scheme of the document: authScheme, authType and grant type, and no other', () => {
    assert.deepEqual(
      sorted(Object.keys(SIGN_IN_SCHEMES).filter((name) => name !== 'jwt')),
      enumOf(schemas.AuthScheme!),
    );
    const authTypes = new Set(Object.keys(SIGN_IN_SCHEMES).map((name) => name.split('/')[0]!));
    assert.deepEqual(sorted(authTypes), enumOf(schemas.ProviderAuthType!));
    const grants = Object.keys(SIGN_IN_SCHEMES).flatMap((name) => (name.startsWith('oauth2/') ? [name.slice(7)] : []));
    const oauth2Opts = (schemas.OAuth2Opts!.properties as Record<string, Json>).grantType!;
    assert.deepEqual(sorted(grants), enumOf(oauth2Opts));
  });

  it('names every credential of generate and update connection, each field as its schema has it', () => {
    const generate = schemas.GenerateConnectionRequest!.properties as Record<string, Json>;
    const update = schemas.ConnectionUpdate!.properties as Record<string, Json>;
    const notCredentials = ['provider', 'groupRef', 'consumerRef', 'groupName', 'consumerName'];
    const credentialsOf = (properties: Record<string, Json>) =>
      sorted(
        Object.keys(properties).filter(
          (name) => !notCredentials.includes(name) && name !== 'providerWorkspaceRef' && name !== 'providerMetadata',
        ),
      );
    assert.deepEqual(credentialsOf(generate), sorted(CREDENTIAL_KINDS));
    assert.deepEqual(credentialsOf(update), sorted(CREDENTIAL_KINDS));
    const mask = (schemas.UpdateConnectionRequest!.properties as Record<string, Json>).updateMask!;
    assert.deepEqual(
      enumOf(mask.items as Json).filter((name) => !['providerWorkspaceRef', 'providerMetadata'].includes(name)),
      sorted(CREDENTIAL_KINDS),
    );
    for (const kind of CREDENTIAL_KINDS) {
      const { holds, fields, scopes } = CREDENTIALS[kind];
      const schema = resolved(generate[kind]!);
      assert.deepEqual(resolved(update[kind]!), schema, `${kind}: the same schema in an update`);
      if (holds === 'text') {
        assert.equal(schema.type, 'string', kind);
        assert.deepEqual(fields, [kind], `${kind}: the one field of a text credential is the credential`);
      } else if (holds === 'inputs') {
        assert.deepEqual(schema.additionalProperties, { type: 'string', maxLength: 4096 }, kind);
        assert.deepEqual(fields, [], `${kind}: its inputs are the provider's`);
      } else {
        assert.equal(schema.additionalProperties, false, kind);
        assert.deepEqual(sorted(schema.required as string[]), sorted(fields), `${kind}: its required fields`);
        const properties = Object.keys(schema.properties as Json);
        assert.deepEqual(sorted(properties), sorted(scopes ? [...fields, 'scopes'] : fields), `${kind}: its fields`);
      }
    }
  });

  it('keeps every credential kind out of the problems the document makes (the emulator hides their values)', () => {
    assert.deepEqual(sorted(SECRET_FIELDS), sorted(CREDENTIAL_KINDS));
  });

  it('gives every field a label and says whether it is a secret', () => {
    const used = new Set(Object.values(CREDENTIALS).flatMap(({ fields }) => fields));
    assert.deepEqual(sorted(used), sorted(Object.keys(CREDENTIAL_FIELDS)), 'every field of the table is used');
  });
});

describe('the element, the handler and the emulator read a credential by the table', () => {
  const contract = loadContract();
  const generate = contract.operations.find((op) => op.operationId === 'generateConnection')!;

  for (const provider of FORM_PROVIDERS) {
    it(`${provider.name}: the form's credential is what the handler forwards and the emulator keeps`, () => {
      const info = browserView(provider);
      const signIn = signInOf(info);
      assert.equal(signIn.way, 'form');
      assert.equal(signIn.way === 'form' && signIn.kind, credentialKindOf(provider), 'the kind of the scheme');
      assert.equal(signsInByConsent(provider), false);
      assert.equal(unsupportedScheme(info), undefined);
      assert.equal(Object.hasOwn(SIGN_IN_SCHEMES, authSchemeOf(provider)), true);
      // What the user types: a value of each input (a choice: its first option).
      const typed = Object.fromEntries(
        (signIn.way === 'form' ? signIn.inputs : []).map((input) => [input.name, input.options?.[0]?.value ?? 'v']),
      );
      const credential = credentialOf(signIn, typed);
      const body = { provider: provider.name, groupRef: 'g', consumerRef: 'c', ...credential };
      assert.deepEqual(generate.validateBody(body).issues, [], "openapi.yaml's schema takes it");
      const parsed = parseCredential(body);
      assert.deepEqual(parsed?.credential, credential, 'the handler forwards it whole');
      checkCredentialKind(info, parsed?.kind);
      const kinds = Object.keys(credential) as CredentialKind[];
      assert.deepEqual(checkedCredentials(provider, body, kinds, ''), credential, 'the emulator keeps it whole');
    });
  }

  for (const kind of CREDENTIAL_KINDS) {
    const { holds, fields } = CREDENTIALS[kind];
    if (holds !== 'fields') continue;
    const provider = FORM_PROVIDERS.find(
      (entry) => credentialKindOf(entry) === kind && !entry.basicOpts?.apiKeyAsBasic,
    )!;
    it(`${kind}: each field is required by all three, and scopes kept by the handler as the document has them`, () => {
      const full = Object.fromEntries(fields.map((field) => [field, 'v']));
      for (const field of fields) {
        const { [field]: _left, ...rest } = full;
        const body = { provider: provider.name, groupRef: 'g', consumerRef: 'c', [kind]: rest };
        const name = `${kind}.${field}`;
        assert.deepEqual(
          generate.validateBody(body).issues.map((issue) => issue.name),
          [name],
          `openapi.yaml: ${name}`,
        );
        assert.deepEqual(
          issuesOf(() => parseCredential(body)),
          [name],
          `the handler: ${name}`,
        );
        assert.deepEqual(
          issuesOf(() => checkedCredentials(provider, body, [kind], '')),
          [name],
          `the emulator: ${name}`,
        );
      }
      // The handler forwards scopes where openapi.yaml's schema has them, and drops them elsewhere.
      const schema = resolved((schemas.GenerateConnectionRequest!.properties as Record<string, Json>)[kind]!);
      const documented = Object.hasOwn(schema.properties as Json, 'scopes');
      const withScopes = parseCredential({ [kind]: { ...full, scopes: ['read'] } });
      assert.deepEqual(withScopes?.credential, { [kind]: documented ? { ...full, scopes: ['read'] } : full });
    });
  }
});

describe('unsupportedScheme', () => {
  it('names jwt and a scheme the table does not know; none the table signs in with, nor a provider not known', () => {
    assert.equal(unsupportedScheme({ name: 'p', authType: 'jwt' }), 'jwt');
    assert.equal(
      unsupportedScheme({ name: 'p', authType: 'oauth2', oauth2Opts: { grantType: 'deviceCode' } }),
      'oauth2/deviceCode',
    );
    assert.equal(unsupportedScheme({ name: 'p', authType: 'saml' }), 'saml');
    for (const name of Object.keys(SIGN_IN_SCHEMES).filter((scheme) => scheme !== 'jwt')) {
      const [authType, grantType] = name.split('/');
      assert.equal(unsupportedScheme({ name: 'p', authType, oauth2Opts: { grantType } }), undefined, name);
    }
    assert.equal(unsupportedScheme({ name: 'p', authType: 'oauth2' }), undefined, 'oauth2 without its grant');
    assert.equal(unsupportedScheme({ name: 'p' }), undefined);
    assert.equal(unsupportedScheme(null), undefined);
    assert.equal(unsupportedScheme(undefined), undefined);
  });
});
