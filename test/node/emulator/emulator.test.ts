// The emulator end to end as the API client uses it: seed data, credentials, validation, the consent flow and every
// operation of openapi.yaml, each answer checked against openapi.yaml.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformClient, ProblemError, type PlatformClient } from '../../../src/api/index.js';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { PROVIDERS, signsInByConsent } from '../../../src/emulator/providers.js';
import { DOCUMENTED_DEMO_INTEGRATIONS } from '../helpers/seed-docs.js';
import { loadContract } from '../../../src/emulator/openapi.js';
import { contractFetch, type ContractFetch } from '../helpers/contract.js';
import { manualClock } from '../helpers/emulator.js';

async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProblemError, `expected a ProblemError, got ${error}`);
  return error;
}

/** Walks the consent page like a browser: follow the URL, press a button, read the callback. */
async function consent(url: string, decision: 'allow' | 'allow_bad_credentials' | 'deny') {
  const page = await fetch(url);
  assert.equal(page.status, 200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action, 'the consent page has a form');
  const post = await fetch(new URL(action, url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  });
  assert.equal(post.status, 303);
  const callback = await fetch(new URL(post.headers.get('location')!, url));
  assert.equal(callback.status, 200);
  const callbackHtml = await callback.text();
  const message = JSON.parse(/var message = (\{.*\});/.exec(callbackHtml)![1]);
  return { html, message, callbackHtml };
}

describe('emulator', () => {
  let emulator: Emulator;
  let client: PlatformClient;
  let bearerClient: PlatformClient;
  let contract: ContractFetch;
  let base: string;
  let search: string;
  const clock = manualClock();

  before(async () => {
    // Open to any origin, as a browser SDK on a public origin needs (the default key alone answers loopback origins
    // only: cors.test.ts).
    emulator = createEmulator({ verifyDelay: 1500, now: clock.now, corsOrigins: '*' });
    const info = await emulator.listen();
    base = info.baseUrl;
    search = info.searchUrl;
    contract = contractFetch();
    client = createPlatformClient({
      baseUrl: base,
      searchUrl: search,
      apiKey: 'dev-api-key',
      fetch: contract.fetch,
      retry: false,
    });
    bearerClient = createPlatformClient({
      baseUrl: base,
      accessToken: emulator.bearerToken,
      fetch: contract.fetch,
      retry: false,
    });
  });
  after(() => emulator.close());
  beforeEach(() => {
    assert.deepEqual(contract.violations, [], 'every answer so far validates against openapi.yaml');
  });

  describe('seed data', () => {
    it('lists the invites of org_demo, oldest first', async () => {
      const invites = await client.listInvites({ orgId: 'org_demo' });
      assert.deepEqual(
        invites.map((i) => i.id),
        ['inv_alan', 'inv_ada', 'inv_grace'],
      );
    });

    it('has conn_demo of group acme to hubspot in bad_credentials', async () => {
      const connection = await client.getConnection({ projectIdOrName: 'proj_demo', connectionId: 'conn_demo' });
      assert.equal(connection.provider, 'hubspot');
      assert.equal(connection.group.groupRef, 'acme');
      assert.equal(connection.status, 'bad_credentials');
      assert.equal(connection.oauth2AuthorizationCode, undefined, 'no credentials unless asked');
    });

    it('finds a project by name, case-insensitively', async () => {
      const connection = await client.getConnection({ projectIdOrName: 'DEMO', connectionId: 'conn_demo' });
      assert.equal(connection.projectId, 'proj_demo');
    });

    it('lists destinations, topic routes and event routes', async () => {
      assert.deepEqual(
        (await client.listDestinations({ projectIdOrName: 'demo' })).map((d) => d.id),
        ['dest_webhook', 'dest_audit'],
      );
      const routes = await client.listTopicDestinationRoutes({ projectIdOrName: 'demo' });
      assert.deepEqual(
        routes.map((r) => [r.topicId, r.destinationId]),
        [['topic_main', 'dest_webhook']],
      );
      assert.deepEqual(
        await client.listTopicDestinationRoutes({ projectIdOrName: 'demo', destinationId: 'dest_audit' }),
        [],
      );
      const events = await client.listNotificationEventTopicRoutes({ projectIdOrName: 'demo' });
      assert.equal(events.length, 1);
    });

    it('searches the records of int_demo for group acme', async () => {
      const all = await client.searchRecords({
        projectIdOrName: 'demo',
        integrationId: 'int_demo',
        groupRef: 'acme',
        body: { objectName: 'contact', fieldFilters: [] },
      });
      assert.equal(all.result.length, 2);
      const one = await client.searchRecords({
        projectIdOrName: 'demo',
        integrationId: 'int_demo',
        groupRef: 'acme',
        body: {
          objectName: 'contact',
          fieldFilters: [{ fieldName: 'email', operator: 'eq', value: 'grace@acme.example' }],
        },
      });
      assert.deepEqual(
        one.result.map((r) => r.mappedFields),
        [{ firstName: 'Grace', lastName: 'Hopper', email: 'grace@acme.example' }],
      );
      const accounts = await client.searchRecords({
        projectIdOrName: 'demo',
        integrationId: 'int_demo',
        groupRef: 'acme',
        body: { objectName: 'account', fieldFilters: [] },
      });
      assert.equal(accounts.result[0].raw.name, 'Acme Corp');
      const otherGroup = await client.searchRecords({
        projectIdOrName: 'demo',
        integrationId: 'int_demo',
        groupRef: 'nobody',
        body: { objectName: 'contact', fieldFilters: [] },
      });
      assert.deepEqual(otherGroup.result, []);
    });
  });

  describe('authentication', () => {
    it('refuses a wrong API key with 401', async () => {
      const bad = createPlatformClient({ baseUrl: base, apiKey: 'wrong', fetch: contract.fetch, retry: false });
      const problem = await problemOf(bad.listDestinations({ projectIdOrName: 'demo' }));
      assert.equal(problem.status, 401);
    });

    it('refuses a request with no credential with 401', async () => {
      const response = await contract.fetch(`${base}/projects/demo/destinations`);
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('content-type'), 'application/problem+json');
    });

    it('accepts a Bearer JWT on the four operations the spec allows', async () => {
      assert.equal((await bearerClient.listInvites({ orgId: 'org_demo' })).length, 3);
      assert.ok(Array.isArray(await bearerClient.listNotificationEventTopicRoutes({ projectIdOrName: 'demo' })));
      const project = await bearerClient.createProject({
        appName: 'Bearer App',
        name: 'bearer-app',
        orgId: 'org_demo',
      });
      assert.equal(project.name, 'bearer-app');
      const route = await bearerClient.createNotificationEventTopicRoute({
        projectIdOrName: 'demo',
        body: { eventType: 'installation.created', topicId: 'topic_alerts' },
      });
      assert.equal(route.eventType, 'installation.created');
    });

    it('refuses a Bearer JWT on API-key-only operations with 401', async () => {
      const problem = await problemOf(
        bearerClient.getConnection({ projectIdOrName: 'demo', connectionId: 'conn_demo' }),
      );
      assert.equal(problem.status, 401);
      assert.match(problem.detail!, /accepts only an API key/);
      assert.equal((await problemOf(bearerClient.listDestinations({ projectIdOrName: 'demo' }))).status, 401);
    });

    it('answers 403 to a Bearer JWT of another org', async () => {
      const other = createPlatformClient({
        baseUrl: base,
        accessToken: emulator.issueToken({ org: 'org_other' }),
        fetch: contract.fetch,
        retry: false,
      });
      assert.equal((await problemOf(other.listInvites({ orgId: 'org_demo' }))).status, 403);
      assert.equal((await problemOf(other.createProject({ appName: 'X', name: 'xx', orgId: 'org_demo' }))).status, 403);
      assert.equal((await problemOf(other.listNotificationEventTopicRoutes({ projectIdOrName: 'demo' }))).status, 403);
    });

    it('refuses an expired or forged JWT with 401', async () => {
      const expired = emulator.issueToken({ expiresInSeconds: -10 });
      const forged = emulator.bearerToken.slice(0, -4) + 'AAAA';
      for (const token of [expired, forged, 'not-a-jwt']) {
        const c = createPlatformClient({ baseUrl: base, accessToken: token, fetch: contract.fetch, retry: false });
        assert.equal((await problemOf(c.listInvites({ orgId: 'org_demo' }))).status, 401, token);
      }
    });
  });

  describe('validation and errors', () => {
    it('answers 400 with issues for a bad body, naming each field', async () => {
      const problem = await problemOf(
        client.createProject({ appName: '', name: '-bad-', orgId: 'org_demo', extra: 1 } as never),
      );
      assert.equal(problem.status, 400);
      const names = problem.issues!.map((i) => i.name).sort();
      assert.deepEqual(names, ['appName', 'extra', 'name']);
      for (const issue of problem.issues!) {
        assert.equal(issue.in, 'body');
        assert.ok(issue.detail.length > 0);
      }
      assert.equal(problem.issues!.find((i) => i.name === 'name')!.value, '-bad-');
    });

    it('answers 400 with issues for a bad query enum', async () => {
      const problem = await problemOf(
        client.getConnection({ projectIdOrName: 'demo', connectionId: 'conn_demo', refresh: 'sometimes' as never }),
      );
      assert.equal(problem.status, 400);
      assert.deepEqual(
        problem.issues!.map((i) => [i.in, i.name, i.value]),
        [['query', 'refresh', 'sometimes']],
      );
    });

    it('refuses event types that responses list but creation does not accept', async () => {
      const problem = await problemOf(
        client.createNotificationEventTopicRoute({
          projectIdOrName: 'demo',
          body: { eventType: 'read.triggered.done' as never, topicId: 'topic_main' },
        }),
      );
      assert.equal(problem.status, 400);
      assert.equal(problem.issues![0].name, 'eventType');
    });

    it('answers 400 to an unknown provider', async () => {
      const problem = await problemOf(
        client.oauthConnect({ projectId: 'proj_demo', provider: 'myspace', groupRef: 'acme', consumerRef: 'u' }),
      );
      assert.equal(problem.status, 400);
      assert.deepEqual(
        problem.issues!.map((i) => [i.name, i.value]),
        [['provider', 'myspace']],
      );
    });

    it('answers 404 to unknown resources', async () => {
      assert.equal(
        (await problemOf(client.getConnection({ projectIdOrName: 'demo', connectionId: 'nope' }))).status,
        404,
      );
      assert.equal(
        (await problemOf(client.getConnection({ projectIdOrName: 'nope', connectionId: 'conn_demo' }))).status,
        404,
      );
      assert.equal((await problemOf(client.listInvites({ orgId: 'org_nope' }))).status, 404);
      assert.equal((await problemOf(client.deleteTopic({ projectIdOrName: 'demo', topicId: 'nope' }))).status, 404);
      assert.equal(
        (await problemOf(client.deleteDestination({ projectIdOrName: 'demo', destination: 'nope' }))).status,
        404,
      );
      assert.equal(
        (await problemOf(client.deleteIntegration({ projectIdOrName: 'demo', integrationId: 'nope' }))).status,
        404,
      );
      assert.equal(
        (await problemOf(client.oauthUpdate({ projectIdOrName: 'demo', connectionId: 'nope' }))).status,
        404,
      );
      assert.equal(
        (
          await problemOf(
            client.searchRecords({
              projectIdOrName: 'demo',
              integrationId: 'nope',
              groupRef: 'acme',
              body: { objectName: 'contact', fieldFilters: [] },
            }),
          )
        ).status,
        404,
      );
    });

    it('answers problems with type, title, status, detail, instance, time and requestId', async () => {
      const response = await fetch(`${base}/projects/demo/connections/nope`, {
        headers: { 'x-api-key': 'dev-api-key' },
      });
      const problem = await response.json();
      for (const key of ['type', 'title', 'status', 'detail', 'instance', 'time', 'requestId']) {
        assert.ok(key in problem, key);
      }
      assert.equal(
        problem.instance,
        `${base}/projects/demo/connections/nope`,
        'an absolute URI, as the real description types it',
      );
      assert.equal(response.headers.get('x-request-id'), problem.requestId);
    });

    const raw = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, {
        ...init,
        headers: { 'x-api-key': 'dev-api-key', ...(init.headers as Record<string, string>) },
      });

    it('answers 404 to an unknown route and 405 with Allow to a wrong method', async () => {
      const unknown = await raw('/nothing-here');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.headers.get('content-type'), 'application/problem+json');
      const wrong = await raw('/projects/demo/destinations', { method: 'POST' });
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get('allow'), 'GET');
      const searchOnBase = await raw('/projects/demo/integrations/int_demo', { method: 'POST' });
      assert.equal(searchOnBase.status, 405, 'search lives on the search host');
      assert.equal(searchOnBase.headers.get('allow'), 'DELETE');
    });

    it('answers 400 to malformed JSON, 415 to another content type, 413 to an oversized body', async () => {
      const malformed = await raw('/oauth-connect', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"provider":',
      });
      assert.equal(malformed.status, 400);
      const text = await raw('/oauth-connect', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      });
      assert.equal(text.status, 415);
      const huge = await raw('/oauth-connect', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ provider: 'x'.repeat(1024 * 1024 + 10) }),
      });
      assert.equal(huge.status, 413);
      for (const r of [malformed, text, huge]) assert.equal(r.headers.get('content-type'), 'application/problem+json');
    });
  });

  describe('the consent flow', () => {
    it('creates a connection on Allow, posts the completion message, then verifies it', async () => {
      const url = await client.oauthConnect({
        projectId: 'proj_demo',
        provider: 'salesforce',
        groupRef: 'globex',
        groupName: 'Globex',
        consumerRef: 'hank',
      });
      assert.ok(url.startsWith(`${new URL(base).origin}/consent/`), url);
      const { html, message } = await consent(url, 'allow');
      assert.match(html, /Demo App wants to connect to Salesforce/);
      assert.match(html, /Globex \(globex\)/);
      assert.match(html, /hank \(hank\)/, 'consumerName defaults to consumerRef');
      assert.equal(message.eventType, 'AUTHORIZATION_SUCCEEDED');
      const id = message.data.connection as string;

      const created = await client.getConnection({ projectIdOrName: 'demo', connectionId: id });
      assert.equal(created.status, 'created');
      assert.equal(created.group.groupName, 'Globex');
      assert.equal(created.consumer.consumerName, 'hank');

      clock.advance(1499);
      assert.equal((await client.getConnection({ projectIdOrName: 'demo', connectionId: id })).status, 'created');
      clock.advance(1);
      const working = await client.getConnection({ projectIdOrName: 'demo', connectionId: id });
      assert.equal(working.status, 'working');
      assert.notEqual(working.updateTime, created.updateTime);
    });

    it('turns the connection bad_credentials on "Allow with bad credentials"', async () => {
      const url = await client.oauthConnect({
        projectId: 'demo',
        provider: 'slack',
        groupRef: 'initech',
        consumerRef: 'peter',
      });
      const { message } = await consent(url, 'allow_bad_credentials');
      clock.advance(1500);
      const connection = await client.getConnection({ projectIdOrName: 'demo', connectionId: message.data.connection });
      assert.equal(connection.status, 'bad_credentials');
    });

    it('posts AUTHORIZATION_FAILED on Deny and creates nothing', async () => {
      const before = emulator.state.connections.length;
      const url = await client.oauthConnect({
        projectId: 'demo',
        provider: 'notion',
        groupRef: 'umbrella',
        consumerRef: 'alice',
      });
      const { message, callbackHtml } = await consent(url, 'deny');
      assert.deepEqual(message, {
        eventType: 'AUTHORIZATION_FAILED',
        data: { error: 'The user denied access to Notion.' },
      });
      assert.match(callbackHtml, /window\.opener\.postMessage\(message, '\*'\)/);
      assert.equal(emulator.state.connections.length, before);
    });

    it('re-authorizes conn_demo through oauth-update', async () => {
      const url = await client.oauthUpdate({ projectIdOrName: 'demo', connectionId: 'conn_demo' });
      const { html, message } = await consent(url, 'allow');
      assert.match(html, /wants to reconnect to HubSpot/);
      assert.equal(message.data.connection, 'conn_demo');
      clock.advance(1500);
      const connection = await client.getConnection({ projectIdOrName: 'demo', connectionId: 'conn_demo' });
      assert.equal(connection.status, 'working');
    });

    it('accepts projectIdOrName in place of projectId', async () => {
      const response = await contract.fetch(`${base}/oauth-connect`, {
        method: 'POST',
        headers: { 'x-api-key': 'dev-api-key', 'content-type': 'application/json' },
        body: JSON.stringify({ projectIdOrName: 'demo', provider: 'google', groupRef: 'g', consumerRef: 'c' }),
      });
      assert.equal(response.status, 200);
      assert.match(await response.json(), /\/consent\//);
    });

    it('answers a consent link only once, and refuses unknown ones', async () => {
      const url = await client.oauthConnect({
        projectId: 'demo',
        provider: 'linear',
        groupRef: 'g1',
        consumerRef: 'c1',
      });
      await consent(url, 'deny');
      const again = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=allow',
        redirect: 'manual',
      });
      assert.equal(again.status, 409);
      const unknown = await fetch(`${new URL(base).origin}/consent/consent_nope`, { headers: { accept: 'text/html' } });
      assert.equal(unknown.status, 404);
      assert.match(unknown.headers.get('content-type')!, /text\/html/, 'a browser gets a page');
      const unknownJson = await fetch(`${new URL(base).origin}/consent/consent_nope`);
      assert.equal(unknownJson.headers.get('content-type'), 'application/problem+json');
    });

    it('expires consent links after ten minutes', async () => {
      const url = await client.oauthConnect({
        projectId: 'demo',
        provider: 'asana',
        groupRef: 'g2',
        consumerRef: 'c2',
      });
      clock.advance(10 * 60 * 1000);
      assert.equal((await fetch(url)).status, 410);
    });

    it('escapes provider-controlled text in the consent page', async () => {
      const url = await client.oauthConnect({
        projectId: 'demo',
        provider: 'zendesk',
        groupRef: '<img src=x onerror=alert(1)>',
        consumerRef: '"><script>alert(1)</script>',
        providerWorkspaceRef: '<svg onload=alert(2)>',
        providerMetadata: { '<b>key</b>': { value: '<iframe src=x>' } },
      });
      const html = await (await fetch(url)).text();
      assert.ok(!html.includes('<img src=x'));
      assert.ok(!html.includes('<script>alert(1)'));
      assert.ok(!html.includes('<svg onload'));
      assert.ok(!html.includes('<b>key'));
      assert.ok(!html.includes('<iframe'));
    });

    it('answers the URL as text/plain when asked to mimic the real service', async () => {
      const textEmulator = createEmulator({ urlFormat: 'text' });
      try {
        const info = await textEmulator.listen();
        const response = await fetch(`${info.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { 'x-api-key': 'dev-api-key', 'content-type': 'application/json' },
          body: JSON.stringify({ projectId: 'demo', provider: 'google', groupRef: 'g', consumerRef: 'c' }),
        });
        assert.match(response.headers.get('content-type')!, /^text\/plain/);
        const textClient = createPlatformClient({ baseUrl: info.baseUrl, apiKey: 'dev-api-key' });
        const url = await textClient.oauthConnect({
          projectId: 'demo',
          provider: 'google',
          groupRef: 'g',
          consumerRef: 'c',
        });
        assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/consent\//);
      } finally {
        await textEmulator.close();
      }
    });
  });

  describe('list connections (beyond the seed)', () => {
    it('filters by provider, groupRef and consumerRef, oldest first, without credentials', async () => {
      // One connection per project, provider and group: each of these consents creates one.
      const connect = async (provider: string, groupRef: string, consumerRef: string) => {
        const url = await client.oauthConnect({ projectId: 'proj_demo', provider, groupRef, consumerRef });
        clock.advance(10);
        return (await consent(url, 'allow')).message.data.connection as string;
      };
      const a = await connect('notion', 'lister-1', 'ann');
      const b = await connect('notion', 'lister-2', 'bob');
      const c = await connect('slack', 'lister-1', 'ann');

      const ids = async (query: Record<string, string>) =>
        (await client.listConnections({ projectIdOrName: 'demo', ...query })).map((connection) => connection.id);
      assert.deepEqual(await ids({ provider: 'notion', consumerRef: 'ann' }), [a]);
      assert.deepEqual(await ids({ groupRef: 'lister-1' }), [a, c]);
      assert.deepEqual(await ids({ provider: 'notion', groupRef: 'lister-2', consumerRef: 'bob' }), [b]);
      assert.deepEqual(await ids({ provider: 'notion', groupRef: 'lister-2', consumerRef: 'ann' }), []);
      assert.deepEqual(await ids({ groupRef: 'nobody-here' }), []);
      const all = await bearerClient.listConnections({ projectIdOrName: 'proj_demo' });
      assert.ok([a, b, c, 'conn_demo'].every((id) => all.some((connection) => connection.id === id)));
      for (const connection of all) {
        assert.equal(connection.oauth2AuthorizationCode, undefined);
        assert.equal(connection.apiKey, undefined);
      }
    });

    it('answers 404 for an unknown project', async () => {
      const error = await problemOf(client.listConnections({ projectIdOrName: 'no-such-project' }));
      assert.equal(error.status, 404);
    });
  });

  describe('the other operations beyond the seed', () => {
    const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
      contract.fetch(`${base}${path}`, { ...init, headers: { 'x-api-key': 'dev-api-key', ...init.headers } });

    it('gets a project, with its entitlements only when asked', async () => {
      const plain = await (await call('/projects/demo')).json();
      assert.equal(plain.id, 'proj_demo');
      assert.equal(plain.appName, 'Demo App');
      assert.equal(plain.entitlements, undefined);
      const full = await (await call('/projects/proj_demo?includeEntitlements=true')).json();
      assert.deepEqual(full.entitlements, { brandingRemoval: { value: false } });
      assert.equal((await call('/projects/nope')).status, 404);
      const asOther = await contract.fetch(`${base}/projects/demo`, {
        headers: { authorization: `Bearer ${emulator.issueToken({ org: 'org_x' })}` },
      });
      assert.equal(asOther.status, 403);
    });

    it('answers every catalog provider of a consent page without a credential, with oauth2Opts', async () => {
      for (const provider of PROVIDERS.filter(signsInByConsent)) {
        const response = await contract.fetch(`${base}/providers/${provider.name}`);
        assert.equal(response.status, 200, provider.name);
        const info = await response.json();
        assert.equal(info.name, provider.name);
        assert.equal(info.displayName, provider.displayName);
        assert.equal(info.authType, 'oauth2');
        assert.equal(info.oauth2Opts.grantType, 'authorizationCode');
        assert.equal(info.oauth2Opts.tokenURL, provider.tokenURL);
        assert.equal(info.oauth2Opts.authURL, provider.authURL);
      }
      const withBadKey = await contract.fetch(`${base}/providers/slack`, { headers: { 'x-api-key': 'wrong' } });
      assert.equal(withBadKey.status, 200, 'a public operation does not check credentials');
      assert.equal((await contract.fetch(`${base}/providers/myspace`)).status, 404);
    });

    it('lists integrations with their latest revision, and provider apps', async () => {
      const integrations = await (await call('/projects/demo/integrations')).json();
      assert.deepEqual(
        integrations.map((i: { id: string }) => i.id),
        ['int_demo', ...DOCUMENTED_DEMO_INTEGRATIONS],
      );
      assert.equal(integrations[0].provider, 'hubspot');
      assert.ok(integrations[0].latestRevision.id);
      const apps = await (await call('/projects/demo/provider-apps')).json();
      assert.deepEqual(
        apps.map((a: { provider: string }) => a.provider).sort(),
        PROVIDERS.filter(signsInByConsent)
          .map((p) => p.name)
          .sort(),
      );
      assert.equal((await call('/projects/nope/provider-apps')).status, 404);
    });

    it('deletes a connection (204), then knows it no more', async () => {
      const url = await client.oauthConnect({
        projectId: 'demo',
        provider: 'gong',
        groupRef: 'deleter',
        consumerRef: 'd',
      });
      const id = (await consent(url, 'allow')).message.data.connection as string;
      const update = await client.oauthUpdate({ projectIdOrName: 'demo', connectionId: id });
      const deleted = await call(`/projects/demo/connections/${id}`, { method: 'DELETE' });
      assert.equal(deleted.status, 204);
      assert.equal(await deleted.text(), '');
      assert.equal((await call(`/projects/demo/connections/${id}`)).status, 404);
      assert.equal((await call(`/projects/demo/connections/${id}`, { method: 'DELETE' })).status, 404);
      const late = await fetch(update, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=allow',
        redirect: 'manual',
      });
      assert.equal(late.status, 404, 'a pending re-authorization of a deleted connection cannot revive it');
      assert.ok(
        !(await client.listConnections({ projectIdOrName: 'demo', groupRef: 'deleter' })).some((c) => c.id === id),
      );
    });
  });

  describe('credentials', () => {
    let id: string;
    before(async () => {
      const url = await client.oauthConnect({
        projectId: 'demo',
        provider: 'hubspot',
        groupRef: 'creds',
        consumerRef: 'c',
      });
      id = (await consent(url, 'allow')).message.data.connection;
      clock.advance(1500);
    });

    it('makes a connection with credentials (generate connection) and changes them (update connection)', async () => {
      const made = await client.generateConnection({
        projectIdOrName: 'demo',
        body: { provider: 'apollo', groupRef: 'creds', consumerRef: 'c', apiKey: 'apollo-key-1' },
      });
      assert.deepEqual([made.status, made.authScheme, made.apiKey], ['created', 'apiKey', undefined]);
      const changed = await client.updateConnection({
        projectIdOrName: 'demo',
        connectionId: made.id,
        body: { updateMask: ['apiKey'], connection: { apiKey: 'apollo-key-2' } },
      });
      assert.deepEqual([changed.id, changed.status, changed.apiKey], [made.id, 'created', undefined]);
      clock.advance(1500);
      const read = await client.getConnection({ projectIdOrName: 'demo', connectionId: made.id, includeCreds: true });
      assert.deepEqual([read.status, read.apiKey], ['working', 'apollo-key-2']);
    });

    it('includes only the access token with includeCreds', async () => {
      const c = await client.getConnection({ projectIdOrName: 'demo', connectionId: id, includeCreds: true });
      assert.ok(c.oauth2AuthorizationCode?.accessToken?.token);
      assert.ok(c.oauth2AuthorizationCode?.accessToken?.expiresAt);
      assert.equal(c.oauth2AuthorizationCode?.refreshToken, undefined);
    });

    it('includes the refresh token with includeRefreshToken, whatever includeCreds says', async () => {
      const c = await client.getConnection({
        projectIdOrName: 'demo',
        connectionId: id,
        includeCreds: false,
        includeRefreshToken: true,
      });
      assert.ok(c.oauth2AuthorizationCode?.accessToken?.token);
      assert.ok(c.oauth2AuthorizationCode?.refreshToken?.token);
    });

    it('refreshes with refresh=force, and with ifExpired only once expired', async () => {
      const token = async () =>
        (await client.getConnection({ projectIdOrName: 'demo', connectionId: id, includeCreds: true }))
          .oauth2AuthorizationCode!.accessToken!.token;
      const first = await token();
      const notExpired = await client.getConnection({
        projectIdOrName: 'demo',
        connectionId: id,
        includeCreds: true,
        refresh: 'ifExpired',
      });
      assert.equal(notExpired.oauth2AuthorizationCode!.accessToken!.token, first);
      const forced = await client.getConnection({
        projectIdOrName: 'demo',
        connectionId: id,
        includeCreds: true,
        refresh: 'force',
      });
      assert.notEqual(forced.oauth2AuthorizationCode!.accessToken!.token, first);
      assert.equal(forced.status, 'created', 'created means the token was just refreshed');
      clock.advance(60 * 60 * 1000);
      const second = await token();
      const expired = await client.getConnection({
        projectIdOrName: 'demo',
        connectionId: id,
        includeCreds: true,
        refresh: 'ifExpired',
      });
      assert.notEqual(expired.oauth2AuthorizationCode!.accessToken!.token, second);
    });
  });

  describe('where the spec is silent', () => {
    it('refuses to delete a topic that routes still use (409), then deletes it once free', async () => {
      const problem = await problemOf(client.deleteTopic({ projectIdOrName: 'demo', topicId: 'topic_main' }));
      assert.equal(problem.status, 409);
      assert.ok(Array.isArray(problem.context?.routeIds));
      // topic_alerts got an event route in the Bearer test; a fresh emulator shows the free case.
      const fresh = createEmulator();
      const info = await fresh.listen();
      try {
        const c = createPlatformClient({
          baseUrl: info.baseUrl,
          apiKey: 'dev-api-key',
          fetch: contract.fetch,
          retry: false,
        });
        await c.deleteTopic({ projectIdOrName: 'demo', topicId: 'topic_alerts' });
        assert.equal(
          (await problemOf(c.deleteTopic({ projectIdOrName: 'demo', topicId: 'topic_alerts' }))).status,
          404,
        );
      } finally {
        await fresh.close();
      }
    });

    it('refuses to delete a destination that a route uses (409), deletes a free one (204)', async () => {
      assert.equal(
        (await problemOf(client.deleteDestination({ projectIdOrName: 'demo', destination: 'dest_webhook' }))).status,
        409,
      );
      await client.deleteDestination({ projectIdOrName: 'demo', destination: 'dest_audit' });
      assert.deepEqual(
        (await client.listDestinations({ projectIdOrName: 'demo' })).map((d) => d.id),
        ['dest_webhook'],
      );
    });

    it('refuses a duplicate event-topic route with 409', async () => {
      const problem = await problemOf(
        client.createNotificationEventTopicRoute({
          projectIdOrName: 'demo',
          body: { eventType: 'connection.created', topicId: 'topic_main' },
        }),
      );
      assert.equal(problem.status, 409);
    });

    it('answers 404 to a route naming an unknown topic', async () => {
      const problem = await problemOf(
        client.createNotificationEventTopicRoute({
          projectIdOrName: 'demo',
          body: { eventType: 'connection.error', topicId: 'topic_none' },
        }),
      );
      assert.equal(problem.status, 404);
    });

    it('refuses a duplicate project name with 409 and stores names in lower case', async () => {
      const project = await client.createProject({ appName: 'Shop', name: 'My-Shop', orgId: 'org_demo' });
      assert.equal(project.name, 'my-shop');
      assert.equal(
        (await problemOf(client.createProject({ appName: 'Shop 2', name: 'MY-SHOP', orgId: 'org_demo' }))).status,
        409,
      );
    });

    it('deletes an integration and its records', async () => {
      await client.deleteIntegration({ projectIdOrName: 'demo', integrationId: 'int_demo' });
      const problem = await problemOf(
        client.searchRecords({
          projectIdOrName: 'demo',
          integrationId: 'int_demo',
          groupRef: 'acme',
          body: { objectName: 'contact', fieldFilters: [] },
        }),
      );
      assert.equal(problem.status, 404);
    });
  });

  describe('the contract', () => {
    it('saw every operation answer, and every answer validated against openapi.yaml', () => {
      assert.deepEqual(contract.violations, []);
      // The 13 of the spec and the ones beyond the seed: every operation of openapi.yaml.
      const all = loadContract()
        .operations.map((o) => o.operationId)
        .sort();
      assert.deepEqual([...contract.seen.keys()].sort(), all);
    });
  });
});
