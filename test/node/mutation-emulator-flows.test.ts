// Rules of the emulator's consent flow and operations that StrykerJS showed no
// test held (npm run mutate -- emulator): the consent link's lifetime and caps,
// the consent form's HTTP, what a consent does to an existing connection, token
// refresh, and the exact shape of what the operations answer. Real HTTP, real emulator.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator, type ListenInfo } from '../../src/emulator/index.js';
import { LIMITS } from '../../src/emulator/limits.js';
import { allow, decide } from './helpers/consent.js';

const KEY = { 'x-api-key': 'dev-api-key' };
const START = Date.parse('2026-06-01T12:00:00Z');
const TEN_MINUTES = 10 * 60 * 1000;

describe('emulator flows held by mutation testing', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let t = START;
  before(async () => {
    emulator = createEmulator({ verifyDelay: 1000, now: () => new Date(t) });
    info = await emulator.listen();
  });
  after(() => emulator.close());

  const api = (path: string, init: { method?: string; body?: unknown; search?: boolean } = {}) =>
    fetch(`${init.search ? info.searchUrl : info.baseUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...KEY, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  async function connect(body: Record<string, unknown>): Promise<string> {
    const response = await api('/oauth-connect', { body: { projectId: 'demo', consumerRef: 'c', ...body } });
    assert.equal(response.status, 200, JSON.stringify(body));
    return response.json();
  }

  const getConnection = async (id: string, query = '') =>
    (await api(`/projects/demo/connections/${id}${query}`)).json();

  describe('consent links', () => {
    it('live ten minutes: the link works a millisecond before, and is gone (410) at the tenth minute', async () => {
      const url = await connect({ provider: 'slack', groupRef: 'lifetime' });
      t += TEN_MINUTES - 1;
      assert.equal((await fetch(url)).status, 200);
      t += 1;
      const gone = await fetch(url);
      assert.equal(gone.status, 410);
      assert.equal((await gone.json()).title, 'Authorization expired');
    });

    it('keep the newest 50 of a group: the 50th link leaves the first working, the 51st forgets it', async () => {
      const urls: string[] = [];
      for (let i = 0; i < LIMITS.consentsPerGroup; i++)
        urls.push(await connect({ provider: 'slack', groupRef: 'cap' }));
      assert.equal((await fetch(urls[0])).status, 200, 'fifty links of one group all work');
      urls.push(await connect({ provider: 'slack', groupRef: 'cap' }));
      assert.equal((await fetch(urls[0])).status, 404, 'the oldest is forgotten');
      assert.equal((await fetch(urls[1])).status, 200, 'only the oldest');
      const other = await connect({ provider: 'slack', groupRef: 'cap-other-project-group' });
      assert.equal((await fetch(other)).status, 200);
    });

    it('are hard to guess: consent_ and 24 hex digits', async () => {
      const url = await connect({ provider: 'slack', groupRef: 'id-shape' });
      assert.match(new URL(url).pathname, /^\/consent\/consent_[0-9a-f]{24}$/);
    });

    it("count per project and group: another project's group of the same name evicts none of them", async () => {
      const other = await api('/projects', { body: { appName: 'Other App', name: 'other-cap', orgId: 'org_demo' } });
      assert.equal(other.status, 201);
      const victim = await connect({ provider: 'slack', groupRef: 'shared-name' });
      for (let i = 0; i < LIMITS.consentsPerGroup; i++) {
        await connect({ projectId: 'other-cap', provider: 'slack', groupRef: 'shared-name' });
      }
      assert.equal((await fetch(victim)).status, 200);
    });

    it("show the app name of the link's own project", async () => {
      await api('/projects', { body: { appName: 'Second App', name: 'second-app', orgId: 'org_demo' } });
      const url = await connect({ projectId: 'second-app', provider: 'slack', groupRef: 'app-name' });
      assert.match(await (await fetch(url)).text(), /<h1>Second App wants to connect to Slack<\/h1>/);
    });

    it('stop counting toward the total once expired, at their expiry to the millisecond', async () => {
      const fresh = createEmulator({ now: () => new Date(START) });
      const at = await fresh.listen();
      try {
        for (let i = 0; i < LIMITS.consents; i++) {
          fresh.state.consents.push({
            id: `consent_old_${i}`,
            mode: 'create',
            projectId: 'proj_demo',
            provider: 'slack',
            groupRef: 'g',
            groupName: 'g',
            consumerRef: 'c',
            consumerName: 'c',
            createTime: new Date(START - TEN_MINUTES).toISOString(),
            expiresAt: new Date(START).toISOString(),
          });
        }
        const response = await fetch(`${at.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ projectId: 'demo', provider: 'slack', groupRef: 'g', consumerRef: 'c' }),
        });
        assert.equal(response.status, 200);
        assert.equal(fresh.state.consents.length, 1, 'the expired links are forgotten');
      } finally {
        await fresh.close();
      }
    });

    it('are refused past the total with Retry-After in seconds until the first one expires', async () => {
      const fresh = createEmulator({ now: () => new Date(START) });
      const at = await fresh.listen();
      try {
        const expiresAt = new Date(START + 90_500).toISOString();
        for (let i = 0; i < LIMITS.consents - 1; i++) {
          // The earliest expiry is not the first link's: the wait is the soonest of all.
          const expiry = i === 0 ? new Date(START + 500_000).toISOString() : expiresAt;
          fresh.state.consents.push({
            id: `consent_fill_${i}`,
            mode: 'create',
            projectId: 'proj_demo',
            provider: 'slack',
            groupRef: `fill-${i}`,
            groupName: 'g',
            consumerRef: 'c',
            consumerName: 'c',
            createTime: new Date(START).toISOString(),
            expiresAt: expiry,
          });
        }
        const post = () =>
          fetch(`${at.baseUrl}/oauth-connect`, {
            method: 'POST',
            headers: { ...KEY, 'content-type': 'application/json' },
            body: JSON.stringify({ projectId: 'demo', provider: 'slack', groupRef: 'last', consumerRef: 'c' }),
          });
        assert.equal((await post()).status, 200, 'one below the total, a link is handed out');
        const refused = await post();
        assert.equal(refused.status, 429);
        assert.equal(refused.headers.get('retry-after'), '91', '90.5 s rounded up');
        const problem = await refused.json();
        assert.equal(problem.retryAfter, expiresAt);
        assert.equal(problem.retryable, true);
      } finally {
        await fresh.close();
      }
    });
  });

  describe('the consent form over HTTP', () => {
    it('redirects 303 to the callback, uncached, and a decided link there again on GET', async () => {
      const url = await connect({ provider: 'notion', groupRef: 'form-303' });
      const id = new URL(url).pathname.split('/').pop()!;
      const post = await decide(url, 'deny');
      assert.equal(post.status, 303);
      assert.equal(post.headers.get('location'), `/oauth/callback?session=${id}`);
      assert.equal(post.headers.get('cache-control'), 'no-store');
      assert.ok(post.headers.get('x-request-id'));
      const get = await fetch(url, { redirect: 'manual' });
      assert.equal(get.status, 303);
      assert.equal(get.headers.get('location'), `/oauth/callback?session=${id}`);
    });

    it('accepts the form content type in any case and with parameters, and refuses others with 415', async () => {
      const url = await connect({ provider: 'notion', groupRef: 'form-type' });
      assert.equal((await decide(url, 'allow', 'text/plain')).status, 415);
      assert.equal((await decide(url, 'allow', 'application/json')).status, 415);
      const post = await decide(url, 'allow', ' Application/X-WWW-Form-URLEncoded ; charset=UTF-8');
      assert.equal(post.status, 303);
    });

    it('refuses an unknown decision with 400 naming the field, and leaves the link undecided', async () => {
      const url = await connect({ provider: 'notion', groupRef: 'form-decision' });
      for (const decision of ['maybe', 'ALLOW', '']) {
        const response = await decide(url, decision);
        assert.equal(response.status, 400, decision);
        const problem = await response.json();
        assert.deepEqual(
          problem.issues.map((i: { in: string; name: string }) => [i.in, i.name]),
          [['body', 'decision']],
        );
      }
      assert.equal((await decide(url, 'allow')).status, 303);
    });

    it('answers 405 with Allow to other methods on the consent page and the callback', async () => {
      const url = await connect({ provider: 'notion', groupRef: 'form-405' });
      const put = await fetch(url, { method: 'PUT' });
      assert.equal(put.status, 405);
      assert.equal(put.headers.get('allow'), 'GET, POST');
      const callback = await fetch(`${info.url}/oauth/callback?session=x`, { method: 'POST' });
      assert.equal(callback.status, 405);
      assert.equal(callback.headers.get('allow'), 'GET');
    });

    it('answers the callback of an undecided link with 409, and of an unknown one with 404', async () => {
      const url = await connect({ provider: 'notion', groupRef: 'form-callback' });
      const id = new URL(url).pathname.split('/').pop()!;
      const early = await fetch(`${info.url}/oauth/callback?session=${id}`);
      assert.equal(early.status, 409);
      assert.equal((await early.json()).title, 'Not decided');
      assert.equal((await fetch(`${info.url}/oauth/callback?session=nope`)).status, 404);
      assert.equal((await fetch(`${info.url}/oauth/callback`)).status, 404);
    });

    it('serves the consent and callback pages with a nonce CSP, no referrer and no sniffing', async () => {
      const url = await connect({ provider: 'notion', groupRef: 'form-headers' });
      const page = await fetch(url);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      const csp = page.headers.get('content-security-policy')!;
      const nonce = /style-src 'nonce-([^']+)'/.exec(csp)![1];
      assert.match(csp, /^default-src 'none'; /);
      assert.match(csp, new RegExp(`script-src 'nonce-${nonce.replace(/[+/]/g, '\\$&')}'`));
      assert.match(csp, /form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/);
      const html = await page.text();
      assert.ok(html.includes(`<style nonce="${nonce}">`));
      assert.match(html, /<title>Notion: authorize Demo App<\/title>/);
      assert.match(html, /<dt>Scopes<\/dt><dd>read_content<\/dd>/);
    });
  });

  describe('what a consent does to the connection', () => {
    it("re-consenting a group reuses its connection, with the new user's names and new tokens", async () => {
      const first = await allow(
        await connect({
          provider: 'pipedrive',
          groupRef: 'reuse',
          groupName: 'Reuse Inc',
          consumerRef: 'ann',
          consumerName: 'Ann',
        }),
      );
      const before = await getConnection(first, '?includeRefreshToken=true');
      assert.equal(before.providerConsumerRef, 'pipedrive-user-ann');
      assert.equal(before.providerApp.id, 'app_pipedrive', "the project's app for the provider");
      t += 5000;
      const second = await allow(
        await connect({ provider: 'pipedrive', groupRef: 'reuse', groupName: 'Reuse Ltd', consumerRef: 'bob' }),
        'allow_bad_credentials',
      );
      assert.equal(second, first, 'one connection per project, provider and group');
      const after = await getConnection(first, '?includeRefreshToken=true');
      assert.equal(after.group.groupName, 'Reuse Ltd');
      assert.equal(after.group.createTime, before.group.createTime);
      assert.equal(after.consumer.consumerRef, 'bob');
      assert.equal(after.consumer.consumerName, 'bob', 'consumerName defaults to consumerRef');
      assert.equal(after.consumer.updateTime, new Date(t).toISOString());
      assert.equal(after.providerConsumerRef, 'pipedrive-user-ann', 'kept from the first consent');
      assert.notEqual(
        after.oauth2AuthorizationCode.accessToken.token,
        before.oauth2AuthorizationCode.accessToken.token,
      );
      assert.notEqual(
        after.oauth2AuthorizationCode.refreshToken.token,
        before.oauth2AuthorizationCode.refreshToken.token,
      );
      assert.equal(after.status, 'created');
      t += 1000;
      assert.equal((await getConnection(first)).status, 'bad_credentials');
    });

    it('stores the workspace, metadata and chosen provider app of the consent', async () => {
      // A second Zendesk app (the API has no operation that creates one), so the choice shows.
      const seeded = emulator.state.providerApps.find((a) => a.provider === 'zendesk')!;
      emulator.state.providerApps.push({ ...seeded, id: 'app_zendesk_second', clientId: 'client-zendesk-second' });
      const apps = await (await api('/projects/demo/provider-apps')).json();
      const app = apps.find((a: { id: string }) => a.id === 'app_zendesk_second');
      const id = await allow(
        await connect({
          provider: 'zendesk',
          groupRef: 'stored',
          providerWorkspaceRef: 'acme-desk',
          providerMetadata: { region: 'eu' },
          providerAppId: app.id,
        }),
      );
      const connection = await getConnection(id);
      assert.equal(connection.providerWorkspaceRef, 'acme-desk');
      assert.deepEqual(connection.providerMetadata, { region: 'eu' });
      assert.deepEqual(connection.providerApp, app);
      assert.deepEqual(connection.oauth2AuthorizationCode, undefined);
      assert.equal(connection.authScheme, 'oauth2/authorizationCode');
      assert.equal(connection.createTime, new Date(t).toISOString());
    });

    it("refuses another provider's app with 400 naming providerAppId", async () => {
      const response = await api('/oauth-connect', {
        body: { projectId: 'demo', provider: 'slack', groupRef: 'g', consumerRef: 'c', providerAppId: 'app_hubspot' },
      });
      assert.equal(response.status, 400);
      assert.deepEqual(
        (await response.json()).issues.map((i: { name: string; value: string }) => [i.name, i.value]),
        [['providerAppId', 'app_hubspot']],
      );
    });

    it('at the connection cap, still lets a user re-consent an existing group or deny', async () => {
      const fresh = createEmulator({ verifyDelay: 0 });
      const at = await fresh.listen();
      try {
        const link = async (groupRef: string, provider = 'hubspot') =>
          (
            await fetch(`${at.baseUrl}/oauth-connect`, {
              method: 'POST',
              headers: { ...KEY, 'content-type': 'application/json' },
              body: JSON.stringify({ projectId: 'demo', provider, groupRef, consumerRef: 'c' }),
            })
          ).json();
        const again = await link('acme');
        const otherProvider = await link('acme', 'slack');
        const denied = await link('new-group');
        const seed = fresh.state.connections[0];
        while (fresh.state.connections.length < LIMITS.connections) {
          fresh.state.connections.push({
            ...seed,
            id: `conn_fill_${fresh.state.connections.length}`,
            group: { ...seed.group, groupRef: 'fill' },
          });
        }
        assert.equal((await decide(again, 'allow')).status, 303, "conn_demo's group: no new connection");
        assert.equal((await decide(denied, 'deny')).status, 303, 'a denial creates nothing');
        assert.equal((await decide(otherProvider, 'allow')).status, 429, 'same group, another provider: a new one');
        assert.equal(fresh.state.connections.length, LIMITS.connections);
      } finally {
        await fresh.close();
      }
    });

    it('lets a user deny the re-authorization of a connection deleted meanwhile', async () => {
      const id = await allow(await connect({ provider: 'intercom', groupRef: 'deny-deleted' }));
      const url = await (await api(`/projects/demo/connections/${id}:oauth-update`, { method: 'PATCH' })).json();
      assert.equal((await api(`/projects/demo/connections/${id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await decide(url, 'deny')).status, 303);
    });
  });

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
