// The fixed seed data the emulator starts from (documented in docs/emulator.md).
import type { ProviderApp } from '../shared/types.js';
import { PROVIDERS, signsInByConsent } from './providers.js';
import { newTokenSecret } from './ids.js';
import { type EmulatorState } from './state.js';

const SEED_TIME = '2026-01-15T09:00:00.000Z';

/**
 * The project's integrations besides int_demo (hubspot), one for each other provider the demo's settings page
 * shows: [provider, integration name, the object it reads and the fields it maps].
 */
const DEMO_INTEGRATIONS: ReadonlyArray<readonly [string, string, string, Record<string, string>]> = [
  ['salesforce', 'crm-accounts', 'account', { Name: 'name', Website: 'website' }],
  ['slack', 'alerts-to-slack', 'channel', { name: 'name', topic: 'topic' }],
  ['zendesk', 'support-tickets', 'ticket', { subject: 'subject', status: 'status' }],
  ['netsuite', 'erp-invoices', 'invoice', { tranId: 'number', total: 'amount' }],
  ['apollo', 'lead-enrichment', 'contact', { first_name: 'firstName', last_name: 'lastName', email: 'email' }],
  ['insightly', 'insightly-contacts', 'contact', { FIRST_NAME: 'firstName', LAST_NAME: 'lastName' }],
  ['cloudtalk', 'call-logs', 'call', { id: 'id', talking_time: 'duration' }],
  ['paypal', 'payments', 'transaction', { transaction_id: 'id', transaction_amount: 'amount' }],
  ['clariCopilot', 'call-insights', 'call', { id: 'id', title: 'title' }],
];

/** The fixed seed data documented in docs/emulator.md. */
export function seedState(): EmulatorState {
  const projectId = 'proj_demo';
  // An OAuth app for each provider of a consent page (the others sign in with the user's own credentials).
  const providerApps: ProviderApp[] = PROVIDERS.filter(signsInByConsent).map((p) => ({
    id: `app_${p.name}`,
    projectId,
    provider: p.name,
    clientId: `client-${p.name}-demo`,
    externalRef: `${p.name}-default`,
    scopes: [p.scopes],
    createTime: SEED_TIME,
  }));
  const hubspot = PROVIDERS.find((p) => p.name === 'hubspot')!;
  return {
    version: 1,
    orgs: [{ id: 'org_demo', name: 'Demo Org' }],
    projects: [
      {
        id: projectId,
        name: 'demo',
        appName: 'Demo App',
        orgId: 'org_demo',
        createTime: SEED_TIME,
        entitlements: { brandingRemoval: { value: false } },
      },
    ],
    invites: [
      {
        id: 'inv_ada',
        invitedEmail: 'ada@example.com',
        parentType: 'org',
        parentId: 'org_demo',
        status: 'pending',
        createTime: SEED_TIME,
      },
      {
        id: 'inv_grace',
        invitedEmail: 'grace@example.com',
        parentType: 'org',
        parentId: 'org_demo',
        status: 'accepted',
        createTime: SEED_TIME,
        updateTime: '2026-01-16T10:00:00.000Z',
      },
      {
        id: 'inv_alan',
        invitedEmail: 'alan@example.com',
        parentType: 'org',
        parentId: 'org_demo',
        status: 'expired',
        createTime: '2026-01-01T09:00:00.000Z',
        updateTime: '2026-01-08T09:00:00.000Z',
      },
    ],
    providerApps,
    destinations: [
      {
        id: 'dest_webhook',
        projectId,
        name: 'main-webhook',
        type: 'webhook',
        metadata: { url: 'https://hooks.example.com/platform', headers: { 'X-Source': 'platform' } },
        createTime: SEED_TIME,
      },
      {
        id: 'dest_audit',
        projectId,
        name: 'audit-webhook',
        type: 'webhook',
        metadata: { url: 'https://audit.example.com/events' },
        createTime: '2026-01-15T09:05:00.000Z',
      },
    ],
    topics: [
      { id: 'topic_main', projectId, name: 'main', createTime: SEED_TIME },
      { id: 'topic_alerts', projectId, name: 'alerts', createTime: '2026-01-15T09:01:00.000Z' },
    ],
    topicDestinationRoutes: [
      {
        id: 'tdr_main_webhook',
        topicId: 'topic_main',
        destinationId: 'dest_webhook',
        projectId,
        createTime: SEED_TIME,
      },
    ],
    notificationEventTopicRoutes: [
      {
        id: 'ner_connection_created',
        eventType: 'connection.created',
        topicId: 'topic_main',
        projectId,
        createTime: SEED_TIME,
        updateTime: SEED_TIME,
      },
    ],
    integrations: [
      {
        id: 'int_demo',
        projectId,
        name: 'crm-sync',
        provider: 'hubspot',
        createTime: SEED_TIME,
        fieldMappings: {
          contact: { firstname: 'firstName', lastname: 'lastName', email: 'email' },
          account: { name: 'name', domain: 'website' },
        },
      },
      // One integration for each other provider the demo's settings page shows (oldest first, after int_demo).
      ...DEMO_INTEGRATIONS.map(([provider, name, objectName, fields], i) => ({
        id: `int_${provider.toLowerCase()}`,
        projectId,
        name,
        provider,
        createTime: new Date(Date.parse(SEED_TIME) + (i + 1) * 60_000).toISOString(),
        fieldMappings: { [objectName]: fields },
      })),
    ],
    records: [
      {
        integrationId: 'int_demo',
        groupRef: 'acme',
        objectName: 'contact',
        raw: { id: '101', firstname: 'Ada', lastname: 'Lovelace', email: 'ada@acme.example' },
      },
      {
        integrationId: 'int_demo',
        groupRef: 'acme',
        objectName: 'contact',
        raw: { id: '102', firstname: 'Grace', lastname: 'Hopper', email: 'grace@acme.example' },
      },
      {
        integrationId: 'int_demo',
        groupRef: 'acme',
        objectName: 'account',
        raw: { id: '201', name: 'Acme Corp', domain: 'acme.example' },
      },
      {
        integrationId: 'int_demo',
        groupRef: 'other',
        objectName: 'contact',
        raw: { id: '301', firstname: 'Alan', lastname: 'Turing', email: 'alan@other.example' },
      },
    ],
    connections: [
      {
        id: 'conn_demo',
        projectId,
        provider: 'hubspot',
        group: { groupRef: 'acme', groupName: 'Acme Inc.', projectId, createTime: SEED_TIME },
        consumer: { consumerRef: 'user-ada', consumerName: 'Ada Lovelace', projectId, createTime: SEED_TIME },
        createTime: SEED_TIME,
        updateTime: '2026-02-01T12:00:00.000Z',
        authScheme: 'oauth2/authorizationCode',
        status: 'bad_credentials',
        providerApp: providerApps.find((a) => a.provider === 'hubspot'),
        providerWorkspaceRef: 'acme-hub',
        providerConsumerRef: 'hs-user-1',
        tokens: {
          accessToken: { token: 'at_seed_expired', issuedAt: SEED_TIME, expiresAt: '2026-01-15T10:00:00.000Z' },
          refreshToken: { token: 'rt_seed_revoked', issuedAt: SEED_TIME },
          scopes: hubspot.scopes,
        },
      },
    ],
    consents: [],
    tokenSecret: newTokenSecret(),
  };
}
