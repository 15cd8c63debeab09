// The operations of openapi.yaml: what each answers, that each stays inside the project (and org) asked for, what
// each refusal or conflict says, token refresh, and lists oldest first.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { PROBLEM_TYPES } from '../../../src/emulator/context.js';
import { PROVIDERS, signsInByConsent } from '../../../src/emulator/providers.js';
import { DOCUMENTED_DEMO_INTEGRATIONS } from '../helpers/seed-docs.js';
import { seedState } from '../../../src/emulator/seed.js';
import type { EmulatorState } from '../../../src/emulator/state.js';
import { allow } from '../helpers/consent.js';
import { emulatorApi, KEY, connectionVia, consentUrlVia } from '../helpers/emulator.js';

const START = Date.parse('2026-06-01T12:00:00Z');
const NOW = Date.parse('2026-06-01T12:00:00Z');
const TIME = '2026-01-20T09:00:00.000Z';
const TWIN = 'proj_twin';

/** The seed data, and a second org and project with one of everything, named so no ID is shared with the seed. */
function twoProjects(): EmulatorState {
  const state = seedState();
  const seedConnection = state.connections[0];
  state.orgs.push({ id: 'org_twin', name: 'Twin Org' });
  state.projects.push({ id: TWIN, name: 'twin', appName: 'Twin App', orgId: 'org_twin', createTime: TIME });
  state.invites.push({
    id: 'inv_twin',
    invitedEmail: 'twin@example.com',
    parentType: 'org',
    parentId: 'org_twin',
    status: 'pending',
    createTime: TIME,
  });
  state.providerApps.push({
    id: 'app_twin_slack',
    projectId: TWIN,
    provider: 'slack',
    clientId: 'client-twin',
    scopes: [['chat:write']],
    createTime: TIME,
  });
  state.destinations.push({
    id: 'dest_twin',
    projectId: TWIN,
    name: 'twin-webhook',
    type: 'webhook',
    metadata: { url: 'https://twin.example/hook' },
    createTime: TIME,
  });
  state.topics.push(
    { id: 'topic_twin', projectId: TWIN, name: 'twin', createTime: TIME },
    // A demo topic without routes, to delete.
    { id: 'topic_spare', projectId: 'proj_demo', name: 'spare', createTime: TIME },
  );
  state.topicDestinationRoutes.push({
    id: 'tdr_twin',
    topicId: 'topic_twin',
    destinationId: 'dest_twin',
    projectId: TWIN,
    createTime: TIME,
  });
  // The same topic ID and event type as a route the demo project may create: only the project tells them apart.
  state.notificationEventTopicRoutes.push({
    id: 'ner_twin',
    eventType: 'connection.error',
    topicId: 'topic_alerts',
    projectId: TWIN,
    createTime: TIME,
    updateTime: TIME,
  });
  state.integrations.push({
    id: 'int_twin',
    projectId: TWIN,
    name: 'twin-sync',
    provider: 'hubspot',
    createTime: TIME,
    fieldMappings: { contact: { firstname: 'firstName' } },
  });
  // A record of the twin's integration with the demo integration's group and object.
  state.records.push({ integrationId: 'int_twin', groupRef: 'acme', objectName: 'contact', raw: { id: '901' } });
  state.connections.push({
    ...seedConnection,
    id: 'conn_twin',
    projectId: TWIN,
    group: { ...seedConnection.group, projectId: TWIN },
    consumer: { ...seedConnection.consumer, projectId: TWIN },
  });
  return state;
}
describe('emulator operations, each inside its project', () => {
  let dir: string;
  let emulator: Emulator;
  let info: ListenInfo;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'emulator-operations-'));
    const file = join(dir, 'state.json');
    writeFileSync(file, JSON.stringify(twoProjects()));
    emulator = createEmulator({ dataFile: file, now: () => new Date(NOW), verifyDelay: 0 });
    info = await emulator.listen();
  });
  after(async () => {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = emulatorApi(() => info);
  /** searchRecords, on the search host. */
  const search = (integration: string, objectName: string) =>
    fetch(`${info.searchUrl}/projects/demo/integrations/${integration}?groupRef=acme`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ objectName, fieldFilters: [] }),
    });

  /** The IDs a list operation answers. */
  async function ids(path: string): Promise<string[]> {
    const response = await api(path);
    assert.equal(response.status, 200, path);
    return ((await response.json()) as Array<{ id: string }>).map((item) => item.id);
  }

  /** The status and the problem's members that a refusal must carry exactly. */
  async function refusal(response: Response, expected: Record<string, unknown>): Promise<void> {
    const body = await response.json();
    assert.equal(response.status, expected.status, JSON.stringify(body));
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(body[key], value, key);
  }

  describe('lists hold only what belongs to the project or org asked for', () => {
    it('invites of an org, from either org', async () => {
      assert.deepEqual(await ids('/orgs/org_demo/invites'), ['inv_alan', 'inv_ada', 'inv_grace']);
      assert.deepEqual(await ids('/orgs/org_twin/invites'), ['inv_twin']);
    });

    it('connections, integrations, provider apps and destinations of the demo project', async () => {
      assert.deepEqual(await ids('/projects/demo/connections'), ['conn_demo']);
      assert.deepEqual(await ids('/projects/demo/integrations'), ['int_demo', ...DOCUMENTED_DEMO_INTEGRATIONS]);
      assert.deepEqual(await ids('/projects/twin/integrations'), ['int_twin']);
      const apps = await ids('/projects/demo/provider-apps');
      assert.deepEqual(
        apps,
        PROVIDERS.filter(signsInByConsent)
          .map((p) => `app_${p.name}`)
          .sort(),
      );
      assert.deepEqual(await ids('/projects/twin/provider-apps'), ['app_twin_slack']);
      assert.deepEqual(await ids('/projects/demo/destinations'), ['dest_webhook', 'dest_audit']);
      assert.deepEqual(await ids('/projects/twin/destinations'), ['dest_twin']);
    });

    it('routes of the demo project, filtered or not', async () => {
      assert.deepEqual(await ids('/projects/demo/topic-destination-routes'), ['tdr_main_webhook']);
      assert.deepEqual(await ids('/projects/demo/notification-event-topic-routes'), ['ner_connection_created']);
      assert.deepEqual(await ids('/projects/demo/notification-event-topic-routes?topicId=topic_alerts'), []);
      assert.deepEqual(await ids('/projects/twin/notification-event-topic-routes?topicId=topic_alerts'), ['ner_twin']);
    });
  });

  describe("another project's items are not found through this one", () => {
    for (const [what, path, method, detail] of [
      ['a connection', '/projects/demo/connections/conn_twin', 'GET', 'no connection conn_twin in project demo'],
      ['a destination', '/projects/demo/destinations/dest_twin', 'DELETE', 'no destination dest_twin in project demo'],
      ['an integration', '/projects/demo/integrations/int_twin', 'DELETE', 'no integration int_twin in project demo'],
      ['a topic', '/projects/demo/topics/topic_twin', 'DELETE', 'no topic topic_twin in project demo'],
    ] as const) {
      it(`${what}: 404, saying which`, async () => {
        await refusal(await api(path, { method }), { status: 404, title: 'Not Found', detail });
      });
    }

    it("an integration's records: 404; and no record of another integration is found in this one's", async () => {
      await refusal(await search('int_twin', 'contact'), {
        status: 404,
        detail: 'no integration int_twin in project demo',
      });
      const found = await search('int_demo', 'contact');
      assert.equal(found.status, 200);
      const { result } = (await found.json()) as { result: Array<{ raw: { id: string } }> };
      assert.deepEqual(
        result.map((r) => r.raw.id),
        ['101', '102'],
      );
    });

    it('a topic to route an event to: 404', async () => {
      await refusal(
        await api('/projects/demo/notification-event-topic-routes', {
          body: { topicId: 'topic_twin', eventType: 'connection.created' },
        }),
        { status: 404, detail: 'no topic topic_twin in project demo' },
      );
    });

    it("a provider app: 400 naming the provider, the app and the project, with the caller's value", async () => {
      await refusal(
        await api('/oauth-connect', {
          body: {
            projectId: 'demo',
            provider: 'slack',
            groupRef: 'g',
            consumerRef: 'c',
            providerAppId: 'app_twin_slack',
          },
        }),
        {
          status: 400,
          title: 'Invalid request',
          detail: 'no slack provider app app_twin_slack in project demo',
          issues: [
            {
              detail: 'no such provider app for this provider',
              in: 'body',
              name: 'providerAppId',
              value: 'app_twin_slack',
            },
          ],
        },
      );
    });

    it("the other org's project, for a Bearer token of org_demo: 403 naming the token's org", async () => {
      const response = await fetch(`${info.baseUrl}/projects/twin`, {
        headers: { authorization: `Bearer ${emulator.issueToken({ org: 'org_demo' })}` },
      });
      await refusal(response, { status: 403, detail: 'the Bearer token may act for org org_demo only' });
    });
  });

  describe('refusals name what is missing', () => {
    for (const [path, detail] of [
      ['/projects/nope', 'no project nope'],
      ['/orgs/org_none/invites', 'no org org_none'],
      ['/providers/nope', 'no provider nope in the catalog'],
    ] as const) {
      it(`GET ${path}: 404 "${detail}"`, async () => {
        const response = path.startsWith('/providers/') ? await fetch(`${info.baseUrl}${path}`) : await api(path);
        await refusal(response, { status: 404, detail });
      });
    }

    it('an unknown provider: 400 listing the known ones, with an issue carrying the value', async () => {
      await refusal(
        await api('/oauth-connect', { body: { projectId: 'demo', provider: 'nope', groupRef: 'g', consumerRef: 'c' } }),
        {
          status: 400,
          title: 'Unknown provider',
          detail: `unknown provider nope; known providers: ${PROVIDERS.map((p) => p.name).join(', ')}`,
          issues: [
            {
              type: PROBLEM_TYPES.unknownProvider,
              detail: 'unknown provider',
              in: 'body',
              name: 'provider',
              value: 'nope',
            },
          ],
        },
      );
    });

    it('an object the integration does not read: 400 naming those it reads', async () => {
      await refusal(await search('int_demo', 'deal'), {
        status: 400,
        title: 'Invalid request',
        detail: 'integration int_demo reads no object deal; it reads contact, account',
        issues: [{ detail: 'unknown object', in: 'body', name: 'objectName', value: 'deal' }],
      });
    });

    it('a project in an org that does not exist: 404; in the second org: created', async () => {
      await refusal(await api('/projects', { body: { name: 'lost', appName: 'Lost', orgId: 'org_none' } }), {
        status: 404,
        detail: 'no org org_none',
      });
      assert.equal(
        (await api('/projects', { body: { name: 'twin-two', appName: 'T', orgId: 'org_twin' } })).status,
        201,
      );
    });
  });

  describe('conflicts say what is in the way', () => {
    it('a project name taken: 409 Conflict with the name', async () => {
      await refusal(await api('/projects', { body: { name: 'Demo', appName: 'Again', orgId: 'org_demo' } }), {
        status: 409,
        title: 'Conflict',
        detail: 'a project named demo exists already',
        context: { name: 'demo' },
      });
    });

    it('a destination still routed: 409 counting its routes', async () => {
      await refusal(await api('/projects/demo/destinations/dest_webhook', { method: 'DELETE' }), {
        status: 409,
        title: 'Conflict',
        detail: 'destination dest_webhook is still used by 1 topic destination route(s); delete them first',
        context: { routeIds: ['tdr_main_webhook'] },
      });
    });

    it('a topic still routed: 409 counting routes of both kinds', async () => {
      await refusal(await api('/projects/demo/topics/topic_main', { method: 'DELETE' }), {
        status: 409,
        title: 'Conflict',
        detail: 'topic topic_main is still used by 2 route(s); delete them first',
        context: { routeIds: ['tdr_main_webhook', 'ner_connection_created'] },
      });
    });

    it('an event type routed to the topic already: 409; another topic, or the same in another project, is free', async () => {
      const route = (topicId: string, eventType: string) =>
        api('/projects/demo/notification-event-topic-routes', { body: { topicId, eventType } });
      await refusal(await route('topic_main', 'connection.created'), {
        status: 409,
        title: 'Conflict',
        detail: 'event type connection.created is already routed to topic topic_main',
        context: { routeId: 'ner_connection_created' },
      });
      // topic_alerts of the demo project: the same event type on another topic, and the twin's pair in this project.
      assert.equal((await route('topic_alerts', 'connection.created')).status, 201);
      assert.equal((await route('topic_alerts', 'connection.error')).status, 201);
    });
  });

  describe('a delete removes what it names, and only that', () => {
    it('an integration: gone from its list, the other project keeps its own', async () => {
      assert.equal((await api('/projects/demo/integrations/int_demo', { method: 'DELETE' })).status, 204);
      assert.deepEqual(await ids('/projects/demo/integrations'), DOCUMENTED_DEMO_INTEGRATIONS);
      assert.deepEqual(await ids('/projects/twin/integrations'), ['int_twin']);
    });

    it('a connection: gone from its list and its URL, the other connections of either project stay', async () => {
      const id = await allow(await consentUrlVia(api)({ provider: 'linear', groupRef: 'to-delete' }));
      assert.deepEqual(await ids('/projects/demo/connections'), ['conn_demo', id]);
      assert.equal((await api(`/projects/demo/connections/${id}`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(await ids('/projects/demo/connections'), ['conn_demo']);
      assert.deepEqual(await ids('/projects/twin/connections'), ['conn_twin']);
      assert.equal((await api(`/projects/demo/connections/${id}`)).status, 404);
      assert.equal((await api('/projects/demo/connections/conn_demo')).status, 200);
    });

    it('a topic: a second delete finds nothing, and the other topics, in either project, still take routes', async () => {
      assert.equal((await api('/projects/demo/topics/topic_spare', { method: 'DELETE' })).status, 204);
      await refusal(await api('/projects/demo/topics/topic_spare', { method: 'DELETE' }), {
        status: 404,
        detail: 'no topic topic_spare in project demo',
      });
      for (const [project, topicId] of [
        ['demo', 'topic_main'],
        ['twin', 'topic_twin'],
      ]) {
        const route = await api(`/projects/${project}/notification-event-topic-routes`, {
          body: { topicId, eventType: 'installation.created' },
        });
        assert.equal(route.status, 201, `${project} ${topicId}`);
      }
    });
  });
});

describe('emulator lists are oldest first, whatever order the state holds them in', () => {
  const EARLY = '2026-01-01T00:00:00.000Z';
  let dir: string;
  let emulator: Emulator;
  before(() => {
    // Items of the demo project stored after the seed's but created before them.
    const state = seedState();
    const seedConnection = state.connections[0];
    state.connections.push({ ...seedConnection, id: 'conn_early', createTime: EARLY });
    state.integrations.push({ ...state.integrations[0], id: 'int_early', createTime: EARLY });
    state.destinations.push({ ...state.destinations[0], id: 'dest_early', createTime: EARLY });
    state.topicDestinationRoutes.push({
      id: 'tdr_early',
      topicId: 'topic_alerts',
      destinationId: 'dest_audit',
      projectId: 'proj_demo',
      createTime: EARLY,
    });
    state.notificationEventTopicRoutes.push({
      id: 'ner_early',
      eventType: 'read.backfill.done',
      topicId: 'topic_alerts',
      projectId: 'proj_demo',
      createTime: EARLY,
      updateTime: EARLY,
    });
    dir = mkdtempSync(join(tmpdir(), 'emulator-order-'));
    const file = join(dir, 'state.json');
    writeFileSync(file, JSON.stringify(state));
    emulator = createEmulator({ dataFile: file });
  });
  after(async () => {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [list, first] of [
    ['connections', 'conn_early'],
    ['integrations', 'int_early'],
    ['destinations', 'dest_early'],
    ['topic-destination-routes', 'tdr_early'],
    ['notification-event-topic-routes', 'ner_early'],
  ]) {
    it(`${list}: ${first} first`, async () => {
      const response = await emulator.handle(
        new Request(`http://emulator.localhost/v1/projects/demo/${list}`, { headers: KEY }),
      );
      assert.equal(response.status, 200);
      const listed = ((await response.json()) as Array<{ id: string }>).map((item) => item.id);
      assert.equal(listed[0], first, listed.join(', '));
      assert.ok(listed.length >= 2, 'the seed item after it');
    });
  }
});

describe('emulator operations over time: token refresh and what each answers', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let t = START;
  before(async () => {
    emulator = createEmulator({ verifyDelay: 1000, now: () => new Date(t) });
    info = await emulator.listen();
  });
  after(() => emulator.close());

  const api = emulatorApi(() => info);

  const connect = consentUrlVia(api);
  const getConnection = connectionVia(api);

  describe('token refresh', () => {
    it('refreshes an expired token exactly at its expiry, keeping the refresh token and restarting verification', async () => {
      const id = await allow(await connect({ provider: 'linear', groupRef: 'refresh' }));
      t += 1000;
      const first = await getConnection(id, '?includeRefreshToken=true');
      assert.equal(first.status, 'working');
      t = Date.parse(first.oauth2AuthorizationCode.accessToken.expiresAt) - 1;
      const before = await getConnection(id, '?includeCreds=true&refresh=ifExpired');
      assert.equal(before.oauth2AuthorizationCode.accessToken.token, first.oauth2AuthorizationCode.accessToken.token);
      t += 1;
      const refreshed = await getConnection(id, '?includeRefreshToken=true&refresh=ifExpired');
      assert.notEqual(
        refreshed.oauth2AuthorizationCode.accessToken.token,
        first.oauth2AuthorizationCode.accessToken.token,
      );
      assert.equal(
        refreshed.oauth2AuthorizationCode.refreshToken.token,
        first.oauth2AuthorizationCode.refreshToken.token,
      );
      assert.equal(refreshed.oauth2AuthorizationCode.accessToken.issuedAt, new Date(t).toISOString());
      assert.equal(
        refreshed.oauth2AuthorizationCode.accessToken.expiresAt,
        new Date(t + 60 * 60 * 1000).toISOString(),
        'an hour',
      );
      assert.deepEqual(refreshed.oauth2AuthorizationCode.scopes, ['read']);
      assert.equal(refreshed.status, 'created');
      assert.equal(refreshed.updateTime, new Date(t).toISOString());
      t += 999;
      assert.equal((await getConnection(id)).status, 'created');
      t += 1;
      assert.equal((await getConnection(id)).status, 'working');
    });

    it('never refreshes a connection whose credentials are bad', async () => {
      const before = await getConnection('conn_demo', '?includeCreds=true');
      assert.equal(before.status, 'bad_credentials');
      const forced = await getConnection('conn_demo', '?includeCreds=true&refresh=force');
      assert.equal(forced.status, 'bad_credentials');
      assert.equal(forced.oauth2AuthorizationCode.accessToken.token, 'at_seed_expired');
      assert.equal(forced.updateTime, before.updateTime);
    });
  });

  describe('what the operations answer', () => {
    it('creates a project: 201, Location, lower-case name, no branding removal, one org only', async () => {
      const created = await api('/projects', { body: { appName: 'Shape', name: 'Shape-Test', orgId: 'org_demo' } });
      assert.equal(created.status, 201);
      const project = await created.json();
      assert.equal(created.headers.get('location'), `${info.baseUrl}/projects/${project.id}`);
      assert.match(project.id, /^proj_[0-9a-f]{12}$/);
      assert.deepEqual(
        { ...project, id: undefined },
        {
          id: undefined,
          name: 'shape-test',
          appName: 'Shape',
          orgId: 'org_demo',
          createTime: new Date(t).toISOString(),
          updateTime: new Date(t).toISOString(),
          entitlements: { brandingRemoval: { value: false } },
        },
      );
      const noOrg = await api('/projects', { body: { appName: 'X', name: 'no-org', orgId: 'org_nope' } });
      assert.equal(noOrg.status, 404);
      const taken = await api('/projects', { body: { appName: 'X', name: 'SHAPE-TEST', orgId: 'org_demo' } });
      assert.equal(taken.status, 409);
      const problem = await taken.json();
      assert.equal(problem.type, 'urn:connect-provider:problem:conflict');
      assert.deepEqual(problem.context, { name: 'shape-test' });
      const found = await (await api('/projects/SHAPE-TEST')).json();
      assert.equal(found.id, project.id, 'found by name in any case');
    });

    it('lists integrations with their revision built from the field mappings', async () => {
      const [integration] = await (await api('/projects/demo/integrations')).json();
      assert.deepEqual(integration.latestRevision, {
        id: 'rev_int_demo_1',
        specVersion: '1.0.0',
        createTime: integration.createTime,
        content: {
          read: {
            objects: [
              { objectName: 'contact', fields: { firstname: 'firstName', lastname: 'lastName', email: 'email' } },
              { objectName: 'account', fields: { name: 'name', domain: 'website' } },
            ],
          },
        },
      });
      assert.equal(integration.fieldMappings, undefined);
    });

    it('answers search results with lower-cased fields, mapped fields and the raw record', async () => {
      const response = await api('/projects/demo/integrations/int_demo?groupRef=acme', {
        search: true,
        body: { objectName: 'account', fieldFilters: [{ fieldName: 'domain', operator: 'eq', value: 'acme.example' }] },
      });
      assert.deepEqual(await response.json(), {
        result: [
          {
            fields: { id: '201', name: 'Acme Corp', domain: 'acme.example' },
            mappedFields: { name: 'Acme Corp', website: 'acme.example' },
            raw: { id: '201', name: 'Acme Corp', domain: 'acme.example' },
          },
        ],
      });
      // The seed's field names are all lower case already: a record as a provider may send it.
      emulator.state.records.push({
        integrationId: 'int_demo',
        groupRef: 'mixed-case',
        objectName: 'contact',
        raw: { Email: 'mixed@case.example', firstname: 'Mixed' },
      });
      const mixed = await api('/projects/demo/integrations/int_demo?groupRef=mixed-case', {
        search: true,
        body: { objectName: 'contact', fieldFilters: [] },
      });
      assert.deepEqual((await mixed.json()).result, [
        {
          fields: { email: 'mixed@case.example', firstname: 'Mixed' },
          mappedFields: { firstName: 'Mixed' },
          raw: { Email: 'mixed@case.example', firstname: 'Mixed' },
        },
      ]);
      const missingField = await api('/projects/demo/integrations/int_demo?groupRef=acme', {
        search: true,
        body: { objectName: 'account', fieldFilters: [{ fieldName: 'phone', operator: 'eq', value: '' }] },
      });
      assert.equal((await missingField.json()).result.length, 1, 'a field a record lacks equals the empty string');
      const unknown = await api('/projects/demo/integrations/int_demo?groupRef=acme', {
        search: true,
        body: { objectName: 'ticket', fieldFilters: [] },
      });
      assert.equal(unknown.status, 400);
      assert.deepEqual(
        (await unknown.json()).issues.map((i: { name: string; value: string }) => [i.name, i.value]),
        [['objectName', 'ticket']],
      );
    });

    it('refuses to delete a routed destination or topic with 409 naming the routes in the way', async () => {
      const destination = await api('/projects/demo/destinations/dest_webhook', { method: 'DELETE' });
      assert.equal(destination.status, 409);
      assert.deepEqual((await destination.json()).context, { routeIds: ['tdr_main_webhook'] });
      const topic = await api('/projects/demo/topics/topic_main', { method: 'DELETE' });
      assert.equal(topic.status, 409);
      const problem = await topic.json();
      assert.equal(problem.type, 'urn:connect-provider:problem:conflict');
      assert.deepEqual(problem.context, { routeIds: ['tdr_main_webhook', 'ner_connection_created'] });
    });

    it('creates an event route (201) once per topic and event type, and filters routes by field', async () => {
      const created = await api('/projects/demo/notification-event-topic-routes', {
        body: { eventType: 'connection.created', topicId: 'topic_alerts' },
      });
      assert.equal(created.status, 201, 'the same event type on another topic is another route');
      const route = await created.json();
      assert.match(route.id, /^ner_[0-9a-f]{12}$/);
      assert.deepEqual(
        { ...route, id: undefined },
        {
          id: undefined,
          eventType: 'connection.created',
          topicId: 'topic_alerts',
          projectId: 'proj_demo',
          createTime: new Date(t).toISOString(),
          updateTime: new Date(t).toISOString(),
        },
      );
      const again = await api('/projects/demo/notification-event-topic-routes', {
        body: { eventType: 'connection.created', topicId: 'topic_alerts' },
      });
      assert.equal(again.status, 409);
      assert.deepEqual((await again.json()).context, { routeId: route.id });
      const ofAlerts = await (await api('/projects/demo/notification-event-topic-routes?topicId=topic_alerts')).json();
      assert.deepEqual(
        ofAlerts.map((r: { id: string }) => r.id),
        [route.id],
      );
      const ofTopic = await (await api('/projects/demo/topic-destination-routes?topicId=topic_alerts')).json();
      assert.deepEqual(ofTopic, []);
    });

    it('deletes an integration with its records only', async () => {
      const fresh = createEmulator();
      const at = await fresh.listen();
      try {
        fresh.state.integrations.push({ ...fresh.state.integrations[0], id: 'int_other' });
        fresh.state.records.push({ ...fresh.state.records[0], integrationId: 'int_other' });
        const deleted = await fetch(`${at.baseUrl}/projects/demo/integrations/int_demo`, {
          method: 'DELETE',
          headers: KEY,
        });
        assert.equal(deleted.status, 204);
        assert.deepEqual(
          fresh.state.records.map((r) => r.integrationId),
          ['int_other'],
        );
      } finally {
        await fresh.close();
      }
    });
  });
});
