// The emulator's provider catalog: the providers oauth-connect accepts, and
// what get-provider answers for each (shaped as the real service's catalog).
import type { components } from '../shared/schema.js';

export type ProviderCatalogInfo = components['schemas']['ProviderInfo'];

export interface ProviderInfo {
  name: string;
  displayName: string;
  scopes: string[];
  /** The provider's API base URL; `{{.workspace}}` stands for providerWorkspaceRef. */
  baseURL: string;
  authURL: string;
  tokenURL: string;
  docsURL?: string;
  /** Whether oauth-connect needs providerWorkspaceRef (a subdomain, an instance...). */
  explicitWorkspaceRequired?: boolean;
  grantType?: 'authorizationCode' | 'authorizationCodePKCE';
}

export const PROVIDERS: readonly ProviderInfo[] = [
  {
    name: 'salesforce',
    displayName: 'Salesforce',
    scopes: ['api', 'refresh_token'],
    baseURL: 'https://{{.workspace}}.my.salesforce.com',
    authURL: 'https://{{.workspace}}.my.salesforce.com/services/oauth2/authorize',
    tokenURL: 'https://{{.workspace}}.my.salesforce.com/services/oauth2/token',
    docsURL: 'https://help.salesforce.com/s/articleView?id=sf.remoteaccess_oauth_web_server_flow.htm',
    explicitWorkspaceRequired: true,
  },
  {
    name: 'hubspot',
    displayName: 'HubSpot',
    scopes: ['crm.objects.contacts.read', 'crm.objects.companies.read'],
    baseURL: 'https://api.hubapi.com',
    authURL: 'https://app.hubspot.com/oauth/authorize',
    tokenURL: 'https://api.hubapi.com/oauth/v1/token',
    docsURL: 'https://developers.hubspot.com/docs/api/oauth-quickstart-guide',
  },
  {
    name: 'slack',
    displayName: 'Slack',
    scopes: ['channels:read', 'chat:write'],
    baseURL: 'https://slack.com/api',
    authURL: 'https://slack.com/oauth/v2/authorize',
    tokenURL: 'https://slack.com/api/oauth.v2.access',
  },
  {
    name: 'notion',
    displayName: 'Notion',
    scopes: ['read_content'],
    baseURL: 'https://api.notion.com',
    authURL: 'https://api.notion.com/v1/oauth/authorize',
    tokenURL: 'https://api.notion.com/v1/oauth/token',
  },
  {
    name: 'google',
    displayName: 'Google',
    scopes: ['openid', 'email', 'https://www.googleapis.com/auth/calendar.readonly'],
    baseURL: 'https://www.googleapis.com',
    authURL: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenURL: 'https://oauth2.googleapis.com/token',
  },
  {
    name: 'microsoft',
    displayName: 'Microsoft',
    scopes: ['offline_access', 'User.Read'],
    baseURL: 'https://graph.microsoft.com',
    authURL: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenURL: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
  },
  {
    name: 'zendesk',
    displayName: 'Zendesk',
    scopes: ['read'],
    baseURL: 'https://{{.workspace}}.zendesk.com',
    authURL: 'https://{{.workspace}}.zendesk.com/oauth/authorizations/new',
    tokenURL: 'https://{{.workspace}}.zendesk.com/oauth/tokens',
    explicitWorkspaceRequired: true,
  },
  {
    name: 'linear',
    displayName: 'Linear',
    scopes: ['read'],
    baseURL: 'https://api.linear.app',
    authURL: 'https://linear.app/oauth/authorize',
    tokenURL: 'https://api.linear.app/oauth/token',
  },
  {
    name: 'asana',
    displayName: 'Asana',
    scopes: ['default'],
    baseURL: 'https://app.asana.com/api',
    authURL: 'https://app.asana.com/-/oauth_authorize',
    tokenURL: 'https://app.asana.com/-/oauth_token',
  },
  {
    name: 'atlassian',
    displayName: 'Atlassian (Jira)',
    scopes: ['read:jira-work', 'offline_access'],
    baseURL: 'https://api.atlassian.com',
    authURL: 'https://auth.atlassian.com/authorize',
    tokenURL: 'https://auth.atlassian.com/oauth/token',
  },
  {
    name: 'pipedrive',
    displayName: 'Pipedrive',
    scopes: ['deals:read'],
    baseURL: 'https://api.pipedrive.com',
    authURL: 'https://oauth.pipedrive.com/oauth/authorize',
    tokenURL: 'https://oauth.pipedrive.com/oauth/token',
  },
  {
    name: 'intercom',
    displayName: 'Intercom',
    scopes: ['read_users'],
    baseURL: 'https://api.intercom.io',
    authURL: 'https://app.intercom.com/oauth',
    tokenURL: 'https://api.intercom.io/auth/eagle/token',
  },
  {
    name: 'gong',
    displayName: 'Gong',
    scopes: ['api:calls:read:basic'],
    baseURL: 'https://api.gong.io',
    authURL: 'https://app.gong.io/oauth2/authorize',
    tokenURL: 'https://app.gong.io/oauth2/generate-customer-token',
  },
  {
    name: 'zoho',
    displayName: 'Zoho CRM',
    scopes: ['ZohoCRM.modules.ALL'],
    baseURL: 'https://www.zohoapis.com',
    authURL: 'https://accounts.zoho.com/oauth/v2/auth',
    tokenURL: 'https://accounts.zoho.com/oauth/v2/token',
    grantType: 'authorizationCode',
  },
];

export function findProvider(name: string): ProviderInfo | undefined {
  return PROVIDERS.find((p) => p.name === name);
}

/** What get-provider answers for a provider of the catalog. */
export function catalogInfo(provider: ProviderInfo): ProviderCatalogInfo {
  return {
    name: provider.name,
    displayName: provider.displayName,
    authType: 'oauth2',
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
    oauth2Opts: {
      grantType: provider.grantType ?? 'authorizationCode',
      authURL: provider.authURL,
      tokenURL: provider.tokenURL,
      ...(provider.docsURL ? { docsURL: provider.docsURL } : {}),
      explicitScopesRequired: false,
      explicitWorkspaceRequired: provider.explicitWorkspaceRequired ?? false,
      tokenMetadataFields: {},
    },
    labels: { emulated: 'true' },
  };
}
