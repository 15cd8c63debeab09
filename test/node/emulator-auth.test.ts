// Auth of every operation, driven from openapi.yaml's security: for each
// operation, each accepted scheme succeeds and each refused one is a 401 (403
// for a Bearer JWT of another org), on a fresh emulator per call so that
// deletes and creates really happen. Every answer is checked by the contract.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { createEmulator } from '../../src/emulator/index.js';
import { checkAnswer } from './helpers/contract.js';

type Security = Array<Record<string, string[]>>;
interface DocOperation {
  operationId: string;
  security?: Security;
  servers?: Array<{ url: string }>;
  responses: Record<string, unknown>;
}

const doc = parse(readFileSync(new URL('../../src/api/openapi.yaml', import.meta.url), 'utf8'));
const operations: Array<DocOperation & { method: string; template: string }> = [];
for (const [template, item] of Object.entries(doc.paths as Record<string, Record<string, DocOperation>>)) {
  for (const [method, op] of Object.entries(item)) operations.push({ ...op, method: method.toUpperCase(), template });
}

/** A request each operation answers with success when its credential is accepted. */
const SAMPLES: Record<string, { path?: Record<string, string>; query?: string; body?: unknown }> = {
  listInvites: { path: { orgId: 'org_demo' } },
  oauthConnect: { body: { projectId: 'proj_demo', provider: 'slack', groupRef: 'auth-g', consumerRef: 'auth-c' } },
  oauthUpdate: { path: { projectIdOrName: 'demo', connectionId: 'conn_demo' } },
  createProject: { body: { appName: 'Auth', name: 'auth-project', orgId: 'org_demo' } },
  getProject: { path: { projectIdOrName: 'demo' } },
  getProvider: { path: { provider: 'slack' } },
  listConnections: { path: { projectIdOrName: 'demo' } },
  getConnection: { path: { projectIdOrName: 'demo', connectionId: 'conn_demo' } },
  deleteConnection: { path: { projectIdOrName: 'demo', connectionId: 'conn_demo' } },
  listDestinations: { path: { projectIdOrName: 'demo' } },
  deleteDestination: { path: { projectIdOrName: 'demo', destination: 'dest_audit' } },
  listIntegrations: { path: { projectIdOrName: 'demo' } },
  deleteIntegration: { path: { projectIdOrName: 'demo', integrationId: 'int_demo' } },
  listProviderApps: { path: { projectIdOrName: 'demo' } },
  deleteTopic: { path: { projectIdOrName: 'demo', topicId: 'topic_alerts' } },
  searchRecords: {
    path: { projectIdOrName: 'demo', integrationId: 'int_demo' },
    query: 'groupRef=acme',
    body: { objectName: 'contact', fieldFilters: [] },
  },
  listTopicDestinationRoutes: { path: { projectIdOrName: 'demo' } },
  createNotificationEventTopicRoute: {
    path: { projectIdOrName: 'demo' },
    body: { eventType: 'installation.created', topicId: 'topic_alerts' },
  },
  listNotificationEventTopicRoutes: { path: { projectIdOrName: 'demo' } },
};

type Credential =
  'none' | 'wrong key' | 'api key' | 'bearer' | 'expired bearer' | 'forged bearer' | 'other org bearer' | 'basic';

async function callWith(
  op: (typeof operations)[number],
  credential: Credential,
): Promise<{ status: number; violations: string[] }> {
  const emulator = createEmulator({ apiKey: 'auth-key' });
  const info = await emulator.listen();
  try {
    const sample = SAMPLES[op.operationId];
    const prefix = op.servers?.some((s) => s.url.includes('/search/')) ? info.searchUrl : info.baseUrl;
    const path = op.template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(sample.path![name]));
    const headers: Record<string, string> = {};
    if (credential === 'wrong key') headers['x-api-key'] = 'not-the-key';
    if (credential === 'api key') headers['x-api-key'] = 'auth-key';
    if (credential === 'bearer') headers.authorization = `Bearer ${emulator.bearerToken}`;
    if (credential === 'expired bearer')
      headers.authorization = `Bearer ${emulator.issueToken({ expiresInSeconds: -1 })}`;
    if (credential === 'forged bearer') headers.authorization = `Bearer ${createEmulator().bearerToken}`;
    if (credential === 'other org bearer')
      headers.authorization = `Bearer ${emulator.issueToken({ org: 'org_other' })}`;
    if (credential === 'basic') headers.authorization = `Basic ${Buffer.from('auth-key:').toString('base64')}`;
    if (sample.body !== undefined) headers['content-type'] = 'application/json';
    const request = new Request(`${prefix}${path}${sample.query ? `?${sample.query}` : ''}`, {
      method: op.method,
      headers,
      ...(sample.body !== undefined ? { body: JSON.stringify(sample.body) } : {}),
    });
    const response = await fetch(request.clone());
    const violations = await checkAnswer(request, response);
    if (response.status === 401) {
      const problem = await response.json();
      assert.equal(problem.status, 401);
    }
    return { status: response.status, violations };
  } finally {
    await emulator.close();
  }
}

describe('emulator auth, for every operation of openapi.yaml', () => {
  it('has a sample request for every operation', () => {
    assert.deepEqual(operations.map((o) => o.operationId).sort(), Object.keys(SAMPLES).sort());
  });

  for (const op of operations) {
    const security: Security = op.security ?? doc.security;
    const isPublic = security.length === 0;
    const apiKey = security.some((s) => 'APIKeyHeader' in s);
    const bearer = security.some((s) => 'Bearer' in s);
    const success = Number(Object.keys(op.responses).find((s) => s.startsWith('2')));
    const schemes = isPublic
      ? 'no credential'
      : [apiKey && 'X-Api-Key', bearer && 'Bearer'].filter(Boolean).join(' or ');

    it(`${op.operationId} (${op.method} ${op.template}) accepts ${schemes} only`, async () => {
      const expected: Record<Credential, number> = {
        none: isPublic ? success : 401,
        'wrong key': isPublic ? success : 401,
        'api key': isPublic || apiKey ? success : 401,
        bearer: isPublic || bearer ? success : 401,
        'expired bearer': isPublic ? success : 401,
        'forged bearer': isPublic ? success : 401,
        'other org bearer': isPublic ? success : bearer ? 403 : 401,
        basic: isPublic ? success : 401,
      };
      for (const [credential, status] of Object.entries(expected) as Array<[Credential, number]>) {
        const answer = await callWith(op, credential);
        assert.equal(answer.status, status, `${op.operationId} with ${credential}`);
        assert.deepEqual(answer.violations, [], `${op.operationId} with ${credential}`);
      }
    });
  }
});
