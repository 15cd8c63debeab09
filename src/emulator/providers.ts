// The emulator's provider catalog: the providers oauth-connect accepts, and
// what get-provider answers for each (shaped as the real service's catalog).
import type { components } from '../shared/schema.js';
import type { ProviderInput } from '../shared/provider.js';
import { kindOf, schemeName, SIGN_IN_SCHEMES, type CredentialKind } from '../shared/sign-in.js';
import type { ProviderInfo } from '../shared/types.js';

type Schemas = components['schemas'];

/** A provider of the emulator's catalog, from which get-provider's ProviderInfo is made. */
export interface CatalogEntry {
  name: string;
  displayName: string;
  /** How the user signs in (default oauth2: with grantType authorizationCode, on a consent page). */
  authType?: 'oauth2' | 'apiKey' | 'basic' | 'custom';
  /** The OAuth scopes (an OAuth provider's; empty for the others). */
  scopes: string[];
  /** The provider's API base URL; `{{.workspace}}` stands for providerWorkspaceRef. */
  baseURL: string;
  /** Where the consent page is (a provider signing in on one). */
  authURL?: string;
  /** Where tokens are issued (an oauth2 provider). */
  tokenURL?: string;
  /** oauth2Opts.docsURL: where to find the OAuth app, or the client ID and secret. */
  docsURL?: string;
  /** Whether oauth-connect needs providerWorkspaceRef (a subdomain, an instance...). */
  explicitWorkspaceRequired?: boolean;
  grantType?: Schemas['OAuth2Opts']['grantType'];
  /** oauth2Opts.tokenMetadataFields: where the token answer carries the scopes... */
  tokenMetadataFields?: Schemas['OAuth2Opts']['tokenMetadataFields'];
  /** An apiKey provider's: how the key is sent, and where to find it. */
  apiKeyOpts?: Schemas['ApiKeyOpts'];
  /** A basic provider's: apiKeyAsBasic (one key carried in fieldUsed), where to find the credentials. */
  basicOpts?: Schemas['BasicOpts'];
  /** A custom provider's: the inputs it signs in with (customAuth). */
  customOpts?: Schemas['CustomOpts'];
  /** What oauth-connect needs in providerMetadata: `{ [name]: { value, source: 'input' } }`, each value non-empty. */
  inputs?: readonly ProviderInput[];
  /** What the connector learns itself once authorized (nothing for the user to type). */
  postAuthentication?: readonly { name: string }[];
  /** The colour of the icon the emulator serves for it (#rrggbb). */
  color: string;
}

export const PROVIDERS: readonly CatalogEntry[] = [
  {
    name: 'salesforce',
    displayName: 'Salesforce',
    scopes: ['api', 'refresh_token'],
    baseURL: 'https://{{.workspace}}.my.salesforce.com',
    // Its generic login serves any org; the org's own host is learnt once authorized.
    authURL: 'https://login.salesforce.com/services/oauth2/authorize',
    tokenURL: 'https://login.salesforce.com/services/oauth2/token',
    docsURL: 'https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_web_server_flow.htm',
    postAuthentication: [{ name: 'workspace' }],
    color: '#00a1e0',
  },
  {
    name: 'hubspot',
    displayName: 'HubSpot',
    scopes: ['crm.objects.contacts.read', 'crm.objects.companies.read'],
    baseURL: 'https://api.hubapi.com',
    authURL: 'https://app.hubspot.com/oauth/authorize',
    tokenURL: 'https://api.hubapi.com/oauth/v1/token',
    docsURL: 'https://developers.hubspot.com/docs/api/oauth-quickstart-guide',
    color: '#ff7a59',
  },
  {
    name: 'slack',
    displayName: 'Slack',
    scopes: ['channels:read', 'chat:write'],
    baseURL: 'https://slack.com/api',
    authURL: 'https://slack.com/oauth/v2/authorize',
    tokenURL: 'https://slack.com/api/oauth.v2.access',
    color: '#4a154b',
  },
  {
    name: 'notion',
    displayName: 'Notion',
    scopes: ['read_content'],
    baseURL: 'https://api.notion.com',
    authURL: 'https://api.notion.com/v1/oauth/authorize',
    tokenURL: 'https://api.notion.com/v1/oauth/token',
    color: '#191919',
  },
  {
    name: 'google',
    displayName: 'Google',
    scopes: ['openid', 'email', 'https://www.googleapis.com/auth/calendar.readonly'],
    baseURL: 'https://www.googleapis.com',
    authURL: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenURL: 'https://oauth2.googleapis.com/token',
    color: '#4285f4',
  },
  {
    name: 'microsoft',
    displayName: 'Microsoft',
    scopes: ['offline_access', 'User.Read'],
    baseURL: 'https://graph.microsoft.com',
    authURL: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenURL: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    color: '#2f6fd6',
  },
  {
    name: 'zendesk',
    displayName: 'Zendesk',
    scopes: ['read'],
    baseURL: 'https://{{.workspace}}.zendesk.com',
    authURL: 'https://{{.workspace}}.zendesk.com/oauth/authorizations/new',
    tokenURL: 'https://{{.workspace}}.zendesk.com/oauth/tokens',
    explicitWorkspaceRequired: true,
    color: '#03363d',
  },
  {
    name: 'linear',
    displayName: 'Linear',
    scopes: ['read'],
    baseURL: 'https://api.linear.app',
    authURL: 'https://linear.app/oauth/authorize',
    tokenURL: 'https://api.linear.app/oauth/token',
    color: '#5e6ad2',
  },
  {
    name: 'asana',
    displayName: 'Asana',
    scopes: ['default'],
    baseURL: 'https://app.asana.com/api',
    authURL: 'https://app.asana.com/-/oauth_authorize',
    tokenURL: 'https://app.asana.com/-/oauth_token',
    color: '#f06a6a',
  },
  {
    name: 'atlassian',
    displayName: 'Atlassian (Jira)',
    scopes: ['read:jira-work', 'offline_access'],
    baseURL: 'https://api.atlassian.com',
    authURL: 'https://auth.atlassian.com/authorize',
    tokenURL: 'https://auth.atlassian.com/oauth/token',
    color: '#0052cc',
  },
  {
    name: 'pipedrive',
    displayName: 'Pipedrive',
    scopes: ['deals:read'],
    baseURL: 'https://api.pipedrive.com',
    authURL: 'https://oauth.pipedrive.com/oauth/authorize',
    tokenURL: 'https://oauth.pipedrive.com/oauth/token',
    color: '#1a1a1a',
  },
  {
    name: 'intercom',
    displayName: 'Intercom',
    scopes: ['read_users'],
    baseURL: 'https://api.intercom.io',
    authURL: 'https://app.intercom.com/oauth',
    tokenURL: 'https://api.intercom.io/auth/eagle/token',
    color: '#1f8ded',
  },
  {
    name: 'gong',
    displayName: 'Gong',
    scopes: ['api:calls:read:basic'],
    baseURL: 'https://api.gong.io',
    authURL: 'https://app.gong.io/oauth2/authorize',
    tokenURL: 'https://app.gong.io/oauth2/generate-customer-token',
    color: '#8039df',
  },
  {
    name: 'zoho',
    displayName: 'Zoho CRM',
    scopes: ['ZohoCRM.modules.ALL'],
    baseURL: 'https://www.zohoapis.com',
    authURL: 'https://accounts.zoho.com/oauth/v2/auth',
    tokenURL: 'https://accounts.zoho.com/oauth/v2/token',
    grantType: 'authorizationCode',
    color: '#e42527',
  },
  {
    name: 'netsuite',
    displayName: 'NetSuite',
    scopes: ['rest_webservices'],
    baseURL: 'https://{{.accountId}}.suitetalk.api.netsuite.com',
    authURL: 'https://{{.accountId}}.app.netsuite.com/app/login/oauth2/authorize.nl',
    tokenURL: 'https://{{.accountId}}.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token',
    docsURL: 'https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_157771733782.html',
    inputs: [
      {
        name: 'accountId',
        displayName: 'Account ID',
        prompt: 'Your NetSuite account ID, as in your NetSuite address (1234567 in 1234567.app.netsuite.com).',
        docsURL: 'https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/article_162403305658.html',
      },
    ],
    color: '#125580',
  },
  {
    name: 'apollo',
    displayName: 'Apollo',
    authType: 'apiKey',
    scopes: [],
    baseURL: 'https://api.apollo.io',
    apiKeyOpts: {
      attachmentType: 'header',
      header: { name: 'X-Api-Key' },
      docsURL: 'https://docs.apollo.io/docs/create-api-key',
    },
    color: '#1c2b4b',
  },
  {
    name: 'insightly',
    displayName: 'Insightly',
    authType: 'basic',
    scopes: [],
    baseURL: 'https://api.insightly.com',
    // Insightly takes its API key as the basic username, with an empty password.
    basicOpts: {
      apiKeyAsBasic: true,
      apiKeyAsBasicOpts: { fieldUsed: 'username' },
      docsURL: 'https://support.insight.ly/en-US/Knowledge/article/2775#API%20Key%20and%20URL',
    },
    color: '#ff6a3d',
  },
  {
    name: 'cloudtalk',
    displayName: 'CloudTalk',
    authType: 'basic',
    scopes: [],
    baseURL: 'https://my.cloudtalk.io/api',
    basicOpts: { docsURL: 'https://developers.cloudtalk.io/reference/authentication' },
    color: '#2d5bff',
  },
  {
    name: 'paypal',
    displayName: 'PayPal',
    scopes: [],
    baseURL: 'https://api-m.paypal.com',
    tokenURL: 'https://api-m.paypal.com/v1/oauth2/token',
    docsURL: 'https://developer.paypal.com/api/rest',
    grantType: 'clientCredentials',
    tokenMetadataFields: { scopesField: 'scope' },
    color: '#003087',
  },
  {
    name: 'clariCopilot',
    displayName: 'Clari Copilot',
    authType: 'custom',
    scopes: [],
    baseURL: 'https://rest-api.copilot.clari.com',
    customOpts: {
      inputs: [
        { name: 'apiKey', displayName: 'API Key', docsURL: 'https://api-doc.copilot.clari.com/' },
        { name: 'apiSecret', displayName: 'API Secret', docsURL: 'https://api-doc.copilot.clari.com/' },
      ],
    },
    color: '#1f6feb',
  },
];

export function findProvider(name: string): CatalogEntry | undefined {
  return PROVIDERS.find((p) => p.name === name);
}

/** Whether the user signs in to the provider on a consent page (oauth-connect): oauth2 with an authorization code. */
export function signsInByConsent(provider: CatalogEntry): boolean {
  return SIGN_IN_SCHEMES[authSchemeOf(provider)] === 'popup';
}

/** The credential kind a provider signing in without consent takes (undefined for a consent provider). */
export function credentialKindOf(provider: CatalogEntry): CredentialKind | undefined {
  return kindOf(SIGN_IN_SCHEMES[authSchemeOf(provider)]);
}

/** A connection's authScheme for a provider of the catalog. */
export function authSchemeOf(provider: CatalogEntry): Schemas['AuthScheme'] {
  return schemeName(provider.authType ?? 'oauth2', provider.grantType) as Schemas['AuthScheme'];
}

/** Where the emulator serves a provider's icon (`dark` for a dark UI), on its own origin. */
export function iconPath(provider: CatalogEntry, dark = false): string {
  return `/media/${provider.name}${dark ? '-dark' : ''}.svg`;
}

/** What get-provider answers for a provider of the catalog; `origin` is where browsers reach the emulator. */
export function catalogInfo(provider: CatalogEntry, origin: string): ProviderInfo {
  const metadata = {
    ...(provider.inputs ? { input: provider.inputs.map((item) => ({ ...item })) } : {}),
    ...(provider.postAuthentication
      ? { postAuthentication: provider.postAuthentication.map((item) => ({ ...item })) }
      : {}),
  };
  const authType = provider.authType ?? 'oauth2';
  return {
    name: provider.name,
    displayName: provider.displayName,
    authType,
    baseURL: provider.baseURL,
    defaultModule: 'root',
    support: {
      read: true,
      write: true,
      proxy: true,
      subscribe: false,
      delete: false,
      bulkWrite: { insert: false, update: false, upsert: false, delete: false },
      search: { operators: { equals: false } },
    },
    ...(authType === 'oauth2'
      ? {
          oauth2Opts: {
            grantType: provider.grantType ?? 'authorizationCode',
            ...(provider.authURL ? { authURL: provider.authURL } : {}),
            tokenURL: provider.tokenURL ?? '',
            ...(provider.docsURL ? { docsURL: provider.docsURL } : {}),
            explicitScopesRequired: false,
            explicitWorkspaceRequired: provider.explicitWorkspaceRequired ?? false,
            tokenMetadataFields: { ...provider.tokenMetadataFields },
          },
        }
      : {}),
    ...(provider.apiKeyOpts ? { apiKeyOpts: structuredClone(provider.apiKeyOpts) } : {}),
    ...(provider.basicOpts ? { basicOpts: structuredClone(provider.basicOpts) } : {}),
    ...(provider.customOpts ? { customOpts: structuredClone(provider.customOpts) } : {}),
    media: {
      regular: { iconURL: `${origin}${iconPath(provider)}` },
      darkMode: { iconURL: `${origin}${iconPath(provider, true)}` },
    },
    labels: { emulated: 'true' },
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}
