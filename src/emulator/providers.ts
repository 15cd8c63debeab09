// The emulator's provider catalog: the providers oauth-connect accepts.

export interface ProviderInfo {
  name: string;
  displayName: string;
  scopes: string[];
}

export const PROVIDERS: readonly ProviderInfo[] = [
  { name: 'salesforce', displayName: 'Salesforce', scopes: ['api', 'refresh_token'] },
  { name: 'hubspot', displayName: 'HubSpot', scopes: ['crm.objects.contacts.read', 'crm.objects.companies.read'] },
  { name: 'slack', displayName: 'Slack', scopes: ['channels:read', 'chat:write'] },
  { name: 'notion', displayName: 'Notion', scopes: ['read_content'] },
  { name: 'google', displayName: 'Google', scopes: ['openid', 'email', 'https://www.googleapis.com/auth/calendar.readonly'] },
  { name: 'microsoft', displayName: 'Microsoft', scopes: ['offline_access', 'User.Read'] },
  { name: 'zendesk', displayName: 'Zendesk', scopes: ['read'] },
  { name: 'linear', displayName: 'Linear', scopes: ['read'] },
  { name: 'asana', displayName: 'Asana', scopes: ['default'] },
  { name: 'atlassian', displayName: 'Atlassian (Jira)', scopes: ['read:jira-work', 'offline_access'] },
  { name: 'pipedrive', displayName: 'Pipedrive', scopes: ['deals:read'] },
  { name: 'intercom', displayName: 'Intercom', scopes: ['read_users'] },
  { name: 'gong', displayName: 'Gong', scopes: ['api:calls:read:basic'] },
  { name: 'zoho', displayName: 'Zoho CRM', scopes: ['ZohoCRM.modules.ALL'] },
];

export function findProvider(name: string): ProviderInfo | undefined {
  return PROVIDERS.find((p) => p.name === name);
}
