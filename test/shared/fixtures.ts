import type { Connection } from '../../src/shared/types.js';

/** A valid Connection as the platform answers it, for servers that stand in for the platform in tests. */
export function sampleConnection(overrides: Partial<Connection> & { groupRef?: string } = {}): Connection {
  const { groupRef = 'acme', ...rest } = overrides;
  const projectId = rest.projectId ?? 'proj_demo';
  const createTime = '2026-01-01T00:00:00Z';
  return {
    id: 'conn_1',
    projectId,
    provider: 'hubspot',
    group: { groupRef, groupName: groupRef, projectId, createTime },
    consumer: { consumerRef: 'u1', consumerName: 'U', projectId, createTime },
    createTime,
    authScheme: 'oauth2/authorizationCode',
    status: 'working',
    ...rest,
  };
}

/** The providers of project `demo`'s integrations in the emulator's seed, in the platform's order (int_demo first). */
export const DEMO_INTEGRATION_PROVIDERS = [
  'hubspot',
  'salesforce',
  'slack',
  'zendesk',
  'netsuite',
  'apollo',
  'insightly',
  'cloudtalk',
  'paypal',
  'clariCopilot',
] as const;
