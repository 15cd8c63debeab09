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

/** The built-in forms, by `authType` (by grant for oauth2): the credential kind, then its inputs in order. */
const FORMS: Record<string, [CredentialKind, ...CredentialLabel[]]> = {
  apiKey: ['apiKey', 'apiKey'],
  basic: ['basicAuth', 'username', 'password'],
  'oauth2:clientCredentials': ['oauth2ClientCredentials', 'clientId', 'clientSecret'],
  'oauth2:password': ['oauth2PasswordCredentials', 'username', 'password', 'clientId', 'clientSecret'],
};
const MASKED = new Set<string>(['apiKey', 'password', 'clientSecret']);

/** How the provider signs in; a provider not known (no providers route) signs in through the popup. */
export function signInOf(info: BrowserProvider | null | undefined): SignIn {
  const type = info?.authType;
  if (type === 'none') return { way: 'form', inputs: [] };
  if (type === 'custom')
    return {
      way: 'form',
      kind: 'customAuth',
      inputs: (info!.customOpts?.inputs ?? []).map(({ name, displayName, prompt, docsURL, fieldType, options }) => ({
        name,
        label: { text: displayName || name },
        masked: fieldType !== 'fieldTypeText' && fieldType !== 'fieldTypeSelect',
        options: fieldType === 'fieldTypeSelect' ? (options ?? []) : undefined,
        prompt,
        docsURL,
      })),
    };
  const form = FORMS[type === 'oauth2' ? `oauth2:${info!.oauth2Opts?.grantType}` : String(type)];
  if (!form) return { way: 'popup' };
  const [kind, ...names] = form;
  // The scheme's options are named after it: oauth2Opts, basicOpts, apiKeyOpts.
  const docsURL = info![`${type as 'oauth2' | 'basic' | 'apiKey'}Opts`]?.docsURL;
  // basic with apiKeyAsBasic: one API key, carried as the username or the password (the other left empty).
  const asBasic = type === 'basic' && info!.basicOpts?.apiKeyAsBasic;
  const fieldUsed = info!.basicOpts?.apiKeyAsBasicOpts?.fieldUsed === 'password' ? 'password' : 'username';
  return {
    way: 'form',
    kind,
    inputs: (asBasic ? [fieldUsed] : names).map((name, i): CredentialInput => ({
      name,
      label: { builtIn: asBasic ? 'apiKey' : (name as CredentialLabel) },
      masked: !!asBasic || MASKED.has(name),
      // The docs tell where to find the credential: beside its first input.
      docsURL: i ? undefined : docsURL,
    })),
  };
}

/** The credential in the platform's shape, from the values of the form's inputs (by name). */
export function credentialOf(signIn: SignIn, values: Record<string, string>): Partial<Record<CredentialKind, unknown>> {
  if (signIn.way !== 'form' || !signIn.kind) return {};
  if (signIn.kind === 'apiKey') return { apiKey: values.apiKey ?? '' };
  // basic with an API key: the other of username and password is an empty string.
  const fields: Record<string, string> = signIn.kind === 'basicAuth' ? { username: '', password: '' } : {};
  for (const input of signIn.inputs) fields[input.name] = values[input.name] ?? '';
  return { [signIn.kind]: fields };
}
