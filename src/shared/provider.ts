// What the browser learns of a provider and may send about it: shared by the
// element (which shows it and asks for the inputs) and the handler (which
// answers it and checks what comes back).

/** One `metadata.input` item: a value the user types before the consent page can open (e.g. NetSuite's account ID). */
export interface ProviderInput {
  name: string;
  displayName?: string;
  prompt?: string;
  defaultValue?: string;
  docsURL?: string;
}

/** Icon and logo URLs of one colour scheme. */
export interface ProviderMediaUrls {
  iconURL?: string;
  logoURL?: string;
}

/**
 * The handler's `GET {endpoint}/providers/{provider}` answer: an allow-listed view of the platform's ProviderInfo
 * (URLs only when https, or http on a loopback host).
 */
export interface BrowserProvider {
  name: string;
  displayName?: string;
  /** `oauth2`, `apiKey`, `basic`, `jwt`, `custom` or `none` (shared/sign-in.ts). */
  authType?: string;
  media?: { regular?: ProviderMediaUrls; darkMode?: ProviderMediaUrls };
  oauth2Opts?: { explicitWorkspaceRequired?: boolean; grantType?: string; docsURL?: string };
  apiKeyOpts?: { docsURL?: string };
  basicOpts?: { apiKeyAsBasic?: boolean; apiKeyAsBasicOpts?: { fieldUsed?: string }; docsURL?: string };
  customOpts?: { inputs?: CustomInput[] };
  metadata?: { input?: ProviderInput[] };
}

/**
 * One entry of the handler's `GET {endpoint}/integrations` answer: a provider of the project's integrations (as the
 * platform names it there), with the same allow-listed view of its info as `GET {endpoint}/providers/{provider}`.
 */
export type BrowserIntegration = { provider: string } & BrowserProvider;

/** One `customOpts.inputs` item: a credential of a `custom` provider. */
export interface CustomInput {
  name: string;
  displayName?: string;
  prompt?: string;
  docsURL?: string;
  /** `fieldTypeText`, `fieldTypePassword`, `fieldTypeSelect`; older catalog entries have none (masked). */
  fieldType?: string;
  options?: Array<{ value: string; label: string }>;
}

/**
 * A provider workspace (a subdomain, e.g. Zendesk's): the platform templates it into hostnames, so only what a
 * hostname may hold: letters, digits, hyphens and dots, starting and ending with a letter or digit, at most 253.
 */
export const WORKSPACE_REF_PATTERN = '[A-Za-z0-9](?:[A-Za-z0-9.\\-]{0,251}[A-Za-z0-9])?';
const WORKSPACE_REF = new RegExp(`^${WORKSPACE_REF_PATTERN}$`);

export function isWorkspaceRef(value: unknown): value is string {
  return typeof value === 'string' && WORKSPACE_REF.test(value);
}

/** A provider app ID: letters, digits, `_` and `-`, at most 128. */
const PROVIDER_APP_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isProviderAppId(value: unknown): value is string {
  return typeof value === 'string' && PROVIDER_APP_ID.test(value);
}
