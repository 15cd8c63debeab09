// How a provider signs in (docs/element.md, "Every way a provider signs in"):
// through a consent page in a popup, or with credentials the user types into
// a form, whose inputs and request shape the provider info decides. Shared by
// the element (which asks for them), the handler (which takes only the kind
// the provider's scheme takes) and the emulator (which checks and keeps them).
// The tables below are the one place each scheme, credential and field is
// written; test/node/shared/sign-in-table.test.ts holds openapi.yaml to them.
import type { BrowserProvider } from './provider.js';
import type { AuthScheme, GenerateConnectionRequest } from './types.js';

/**
 * The fields a user types, by their name in the credential, which is also the key of the label the element gives its
 * input (in its strings): whether each is a `secret` (shown as dots, never echoed) or `plain`.
 */
export const CREDENTIAL_FIELDS = {
  apiKey: 'secret',
  username: 'plain',
  password: 'secret',
  clientId: 'plain',
  clientSecret: 'secret',
} as const satisfies Record<string, 'secret' | 'plain'>;
export type CredentialField = keyof typeof CREDENTIAL_FIELDS;

/** The labels the element gives the inputs of the built-in schemes (keys of its strings): the fields' names. */
export type CredentialLabel = CredentialField;

/**
 * The credentials of the platform's generate-connection (and update-connection) body, by their field there: what
 * each holds (`text`: the value itself, one field's; `fields`: an object of these fields, each required, in the
 * form's order; `inputs`: an object of the provider's customOpts.inputs) and whether the object may add `scopes`.
 */
/** The longest credential value, in characters: the handler refuses more, and the element's inputs take no more. */
export const MAX_CREDENTIAL_LENGTH = 4096;

export const CREDENTIALS = {
  apiKey: { holds: 'text', fields: ['apiKey'], scopes: false },
  basicAuth: { holds: 'fields', fields: ['username', 'password'], scopes: false },
  oauth2ClientCredentials: { holds: 'fields', fields: ['clientId', 'clientSecret'], scopes: true },
  oauth2PasswordCredentials: {
    holds: 'fields',
    fields: ['username', 'password', 'clientId', 'clientSecret'],
    scopes: true,
  },
  customAuth: { holds: 'inputs', fields: [], scopes: false },
} as const satisfies Record<
  string,
  { holds: 'text' | 'fields' | 'inputs'; fields: readonly CredentialField[]; scopes: boolean }
>;
export type CredentialKind = keyof typeof CREDENTIALS;

/** The credential fields of the platform's generate-connection body, one per scheme. */
export const CREDENTIAL_KINDS = /* @__PURE__ */ Object.keys(CREDENTIALS) as readonly CredentialKind[];

/** One credential in the platform's shape, e.g. `{ apiKey: '...' }` or `{ basicAuth: { username, password } }`. */
export type Credential = Pick<GenerateConnectionRequest, CredentialKind>;

/**
 * Every scheme a provider may sign in with, by its name (a connection's authScheme; `jwt` has none), and what it
 * takes: the consent page in a `popup`, a form of this credential kind, a form of `nothing` to type, or
 * `unsupported` (neither the element nor the handler can sign in with it).
 */
export const SIGN_IN_SCHEMES = {
  'oauth2/authorizationCode': 'popup',
  // The platform runs PKCE behind oauth-connect: for the browser it is the consent page like any other.
  'oauth2/authorizationCodePKCE': 'popup',
  'oauth2/clientCredentials': 'oauth2ClientCredentials',
  'oauth2/password': 'oauth2PasswordCredentials',
  apiKey: 'apiKey',
  basic: 'basicAuth',
  custom: 'customAuth',
  none: 'nothing',
  jwt: 'unsupported',
} as const satisfies Record<AuthScheme | 'jwt', CredentialKind | 'popup' | 'nothing' | 'unsupported'>;
export type SignInScheme = keyof typeof SIGN_IN_SCHEMES;

/** The credential kind a scheme's form takes; undefined for a scheme of no form or no credential. */
export function kindOf(takes: (typeof SIGN_IN_SCHEMES)[SignInScheme] | undefined): CredentialKind | undefined {
  return takes && Object.hasOwn(CREDENTIALS, takes) ? (takes as CredentialKind) : undefined;
}

/** A scheme's name from a provider's authType and grant: `oauth2/<grantType>`, or the authType itself. */
export function schemeName(authType: string, grantType: string | undefined): string {
  return authType === 'oauth2' ? `oauth2/${grantType ?? 'authorizationCode'}` : authType;
}

/** What the scheme of the table a provider signs in with takes; undefined when it names none of them (or nothing). */
function schemeOf(info: BrowserProvider | null | undefined): (typeof SIGN_IN_SCHEMES)[SignInScheme] | undefined {
  if (typeof info?.authType !== 'string') return undefined;
  const name = schemeName(info.authType, info.oauth2Opts?.grantType);
  return Object.hasOwn(SIGN_IN_SCHEMES, name) ? SIGN_IN_SCHEMES[name as SignInScheme] : undefined;
}

/**
 * The name of the scheme a provider signs in with when the table cannot sign in with it (`jwt`, or a scheme it does
 * not know, such as a grant type of a later platform); undefined when it can, or when the provider names no scheme
 * (a provider not known signs in through the popup).
 */
export function unsupportedScheme(info: BrowserProvider | null | undefined): string | undefined {
  if (typeof info?.authType !== 'string') return undefined;
  const takes = schemeOf(info);
  return takes && takes !== 'unsupported' ? undefined : schemeName(info.authType, info.oauth2Opts?.grantType);
}

/**
 * The fields of a credential the user gives: its own (none of customAuth, whose inputs are the provider's), but one
 * for basic with apiKeyAsBasic (the key, in the field apiKeyAsBasicOpts.fieldUsed names, the username by default;
 * the other an empty string).
 */
export function fieldsToType(
  kind: CredentialKind,
  basicOpts: BrowserProvider['basicOpts'] | undefined,
): readonly CredentialField[] {
  if (kind !== 'basicAuth' || !basicOpts?.apiKeyAsBasic) return CREDENTIALS[kind].fields;
  return [basicOpts.apiKeyAsBasicOpts?.fieldUsed === 'password' ? 'password' : 'username'];
}

/** One input the user fills. */
export interface CredentialInput {
  /** Its name in the credential's object (`username`, `clientSecret`, a custom input's name); `apiKey` for a key. */
  name: string;
  /** A built-in label, or the provider's own (a custom input's displayName). */
  label: { builtIn: CredentialLabel } | { text: string };
  /** Shown as dots: a key, a password, a secret. */
  masked: boolean;
  /** A choice of these values (a custom `fieldTypeSelect` input). */
  options?: Array<{ value: string; label: string }>;
  prompt?: string;
  docsURL?: string;
}

export type SignIn =
  | { way: 'popup' }
  /** `kind` undefined: the provider takes nothing (`none`), and the form has no input. */
  | { way: 'form'; kind?: CredentialKind; inputs: CredentialInput[] };

/**
 * How the provider signs in; a provider not known (no providers route), or of a scheme the table cannot sign in with
 * (unsupportedScheme), signs in through the popup.
 */
export function signInOf(info: BrowserProvider | null | undefined): SignIn {
  const takes = schemeOf(info);
  if (takes === 'nothing') return { way: 'form', inputs: [] };
  const kind = kindOf(takes);
  if (!kind) return { way: 'popup' };
  if (kind === 'customAuth')
    return {
      way: 'form',
      kind,
      inputs: (info!.customOpts?.inputs ?? []).map(({ name, displayName, prompt, docsURL, fieldType, options }) => ({
        name,
        label: { text: displayName || name },
        masked: fieldType !== 'fieldTypeText' && fieldType !== 'fieldTypeSelect',
        options: fieldType === 'fieldTypeSelect' ? (options ?? []) : undefined,
        prompt,
        docsURL,
      })),
    };
  // The scheme's options are named after its authType: oauth2Opts, basicOpts, apiKeyOpts.
  const docsURL = info![`${info!.authType as 'oauth2' | 'basic' | 'apiKey'}Opts`]?.docsURL;
  // basic with apiKeyAsBasic: one API key, carried as the username or the password (the other left empty).
  const asKey = kind === 'basicAuth' && !!info!.basicOpts?.apiKeyAsBasic;
  return {
    way: 'form',
    kind,
    inputs: fieldsToType(kind, info!.basicOpts).map((name, i): CredentialInput => {
      const label = asKey ? 'apiKey' : name;
      return {
        name,
        label: { builtIn: label },
        masked: CREDENTIAL_FIELDS[label] === 'secret',
        // The docs tell where to find the credential: beside its first input.
        docsURL: i ? undefined : docsURL,
      };
    }),
  };
}

/** The credential in the platform's shape, from the values of the form's inputs (by name). */
export function credentialOf(signIn: SignIn, values: Record<string, string>): Partial<Record<CredentialKind, unknown>> {
  if (signIn.way !== 'form' || !signIn.kind) return {};
  if (CREDENTIALS[signIn.kind].holds === 'text') return { [signIn.kind]: values[signIn.kind] ?? '' };
  // An object of fields: every one of the kind's is there, the ones the form does not ask for (basic with an API
  // key: the other of username and password) as an empty string.
  const fields: Record<string, string> = Object.fromEntries(CREDENTIALS[signIn.kind].fields.map((name) => [name, '']));
  for (const input of signIn.inputs) fields[input.name] = values[input.name] ?? '';
  return { [signIn.kind]: fields };
}
