// How a provider signs in (docs/element.md, "Every way a provider signs in"):
// through a consent page in a popup, or with credentials the user types into
// a form, whose inputs and request shape the provider info decides. Shared by
// the element (which asks for them) and the handler (which takes only the
// kind the provider's scheme takes).
import type { BrowserProvider } from './provider.js';

/** The credential fields of the platform's generate-connection body, one per scheme. */
export const CREDENTIAL_KINDS = [
  'apiKey',
  'basicAuth',
  'oauth2ClientCredentials',
  'oauth2PasswordCredentials',
  'customAuth',
] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** The labels the element gives the inputs of the built-in schemes (keys of its strings). */
export type CredentialLabel = 'apiKey' | 'username' | 'password' | 'clientId' | 'clientSecret';

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

const builtIn = (name: CredentialLabel, masked: boolean, docsURL?: string): CredentialInput => ({
  name,
  label: { builtIn: name },
  masked,
  ...(docsURL ? { docsURL } : {}),
});

/** How the provider signs in; a provider not known (no providers route) signs in through the popup. */
export function signInOf(info: BrowserProvider | null | undefined): SignIn {
  switch (info?.authType) {
    case 'apiKey':
      return { way: 'form', kind: 'apiKey', inputs: [builtIn('apiKey', true, info.apiKeyOpts?.docsURL)] };
    case 'basic': {
      const docs = info.basicOpts?.docsURL;
      if (!info.basicOpts?.apiKeyAsBasic)
        return {
          way: 'form',
          kind: 'basicAuth',
          inputs: [builtIn('username', false, docs), builtIn('password', true)],
        };
      // One API key, carried as the username or the password (the other left empty).
      const field = info.basicOpts.apiKeyAsBasicOpts?.fieldUsed === 'password' ? 'password' : 'username';
      return { way: 'form', kind: 'basicAuth', inputs: [{ ...builtIn('apiKey', true, docs), name: field }] };
    }
    case 'custom':
      return {
        way: 'form',
        kind: 'customAuth',
        inputs: (info.customOpts?.inputs ?? []).map(({ name, displayName, prompt, docsURL, fieldType, options }) => ({
          name,
          label: { text: displayName || name },
          masked: fieldType !== 'fieldTypeText' && fieldType !== 'fieldTypeSelect',
          ...(fieldType === 'fieldTypeSelect' ? { options: options ?? [] } : {}),
          ...(prompt ? { prompt } : {}),
          ...(docsURL ? { docsURL } : {}),
        })),
      };
    case 'none':
      return { way: 'form', inputs: [] };
    case 'oauth2': {
      const grant = info.oauth2Opts?.grantType;
      const docs = info.oauth2Opts?.docsURL;
      const client = [builtIn('clientId', false, docs), builtIn('clientSecret', true)];
      if (grant === 'clientCredentials') return { way: 'form', kind: 'oauth2ClientCredentials', inputs: client };
      if (grant === 'password')
        return {
          way: 'form',
          kind: 'oauth2PasswordCredentials',
          inputs: [
            builtIn('username', false, docs),
            builtIn('password', true),
            ...client.map(({ docsURL: _, ...input }) => input),
          ],
        };
      return { way: 'popup' };
    }
    default:
      return { way: 'popup' };
  }
}

/** The credential in the platform's shape, from the values of the form's inputs (by name). */
export function credentialOf(signIn: SignIn, values: Record<string, string>): Partial<Record<CredentialKind, unknown>> {
  if (signIn.way !== 'form' || !signIn.kind) return {};
  if (signIn.kind === 'apiKey') return { apiKey: values.apiKey ?? '' };
  const fields: Record<string, string> = {};
  // basic with an API key: the other of username and password is an empty string.
  if (signIn.kind === 'basicAuth') Object.assign(fields, { username: '', password: '' });
  for (const input of signIn.inputs) fields[input.name] = values[input.name] ?? '';
  return { [signIn.kind]: fields };
}
