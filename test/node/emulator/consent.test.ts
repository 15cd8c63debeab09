// The consent flow: its links (lifetime, caps, IDs), the rows its page shows, its form over HTTP, what each refusal
// says, and which connection a consent creates, reuses or updates.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CONSENT_LIFETIME_MS } from '../../../src/emulator/consent.js';
import { LIMITS } from '../../../src/emulator/limits.js';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { allow, decide } from '../helpers/consent.js';
import { shown } from '../helpers/pages.js';
import {
  connectBody,
  emulatorApi,
  KEY,
  manualClock,
  post,
  problemOf,
  withEmulator,
  connectionVia,
  consentUrlVia,
} from '../helpers/emulator.js';

const START = Date.parse('2026-06-01T12:00:00Z');
const TEN_MINUTES = 10 * 60 * 1000;

const BASE = 'http://127.0.0.1:4010';

async function connect(emulator: Emulator, groupRef: string): Promise<string> {
  const response = await emulator.handle(
    new Request(`${BASE}/v1/oauth-connect`, {
      method: 'POST',
      headers: { 'x-api-key': emulator.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'proj_demo', provider: 'slack', groupRef, consumerRef: 'slow-c' }),
    }),
  );
  assert.equal(response.status, 200);
  return new URL((await response.json()) as string).pathname;
}

/** Starts a consent POST whose body waits for `release()` before it arrives. */
function slowPost(emulator: Emulator, path: string, accept = 'application/json') {
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await arrived;
      controller.enqueue(new TextEncoder().encode('decision=allow'));
      controller.close();
    },
  });
  const answer = emulator.handle(
    new Request(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
      body,
      duplex: 'half',
    } as RequestInit),
  );
  return { answer, release };
}

const connectionsOf = (emulator: Emulator, groupRef: string) =>
  emulator.state.connections.filter((c) => c.group.groupRef === groupRef);

describe('emulator consent rechecked once the form body has arrived', () => {
  it('a consent that expired while its body was arriving is answered as expired, and connects nothing', async () => {
    const clock = manualClock();
    const emulator = createEmulator({ now: clock.now, verifyDelay: 0 });
    const path = await connect(emulator, 'slow-expired');
    const { answer, release } = slowPost(emulator, path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.advance(CONSENT_LIFETIME_MS + 1000);
    release();
    const response = await answer;
    assert.equal(response.status, 410);
    const problem = (await response.json()) as Record<string, unknown>;
    assert.equal(problem.title, 'Authorization expired');
    assert.deepEqual(connectionsOf(emulator, 'slow-expired'), []);
    assert.equal(emulator.state.consents.find((s) => path.endsWith(s.id))?.decision, undefined);
  });

  it('the HTML answer is the expired page', async () => {
    const clock = manualClock();
    const emulator = createEmulator({ now: clock.now, verifyDelay: 0 });
    const path = await connect(emulator, 'slow-expired-html');
    const { answer, release } = slowPost(emulator, path, 'text/html');
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock.advance(CONSENT_LIFETIME_MS + 1000);
    release();
    const response = await answer;
    assert.equal(response.status, 410);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await response.text(), /Authorization expired/);
    assert.deepEqual(connectionsOf(emulator, 'slow-expired-html'), []);
  });

  it('a consent forgotten for newer ones of its group while its body was arriving is unknown, and connects nothing', async () => {
    const emulator = createEmulator({ verifyDelay: 0 });
    const path = await connect(emulator, 'slow-evicted');
    const { answer, release } = slowPost(emulator, path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 0; i < LIMITS.consentsPerGroup; i++) await connect(emulator, 'slow-evicted');
    assert.ok(!emulator.state.consents.some((s) => path.endsWith(s.id)), 'the first consent is forgotten');
    release();
    const response = await answer;
    assert.equal(response.status, 404);
    const problem = (await response.json()) as Record<string, unknown>;
    assert.equal(problem.title, 'Unknown authorization');
    assert.deepEqual(connectionsOf(emulator, 'slow-evicted'), []);
  });

  it('a slow body for a consent still live is applied', async () => {
    const emulator = createEmulator({ verifyDelay: 0 });
    const path = await connect(emulator, 'slow-live');
    const { answer, release } = slowPost(emulator, path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const response = await answer;
    assert.equal(response.status, 303);
    assert.equal(connectionsOf(emulator, 'slow-live').length, 1);
  });
});

describe('emulator consent links and the connections they make', () => {
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
      // Bytes give a fetch no content type of its own: a form posted with none is refused as well.
      const untyped = await fetch(url, {
        method: 'POST',
        body: new TextEncoder().encode('decision=allow'),
        redirect: 'manual',
      });
      assert.equal(untyped.status, 415);
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
});

describe('emulator consent refusals and connections', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let t = START;
  before(async () => {
    emulator = createEmulator({ verifyDelay: 0, now: () => new Date(t) });
    info = await emulator.listen();
  });
  after(() => emulator.close());

  const api = emulatorApi(() => info);

  async function connect(body: Record<string, unknown>, base = info.baseUrl): Promise<string> {
    const response = await fetch(`${base}/oauth-connect`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'demo', provider: 'slack', consumerRef: 'c', ...body }),
    });
    assert.equal(response.status, 200, JSON.stringify(body));
    return response.json();
  }

  async function newProject(name: string): Promise<string> {
    const created = await api('/projects', { body: { appName: `App ${name}`, name, orgId: 'org_demo' } });
    assert.equal(created.status, 201);
    return (await created.json()).id;
  }

  describe('consent.ts: the consent pages answer', () => {
    it('refuses other methods with 405 naming the allowed ones', async () => {
      const url = await connect({ groupRef: 'methods' });
      const put = await problemOf(await fetch(url, { method: 'PUT' }), 405);
      assert.equal(put.detail, 'PUT is not allowed here; allowed: GET, POST');
      const callback = await problemOf(await fetch(`${info.url}/oauth/callback?session=x`, { method: 'POST' }), 405);
      assert.equal(callback.detail, 'POST is not allowed here; allowed: GET');
    });

    it('refuses a form of another type (415) and an unknown decision (400) saying what it takes', async () => {
      const url = await connect({ groupRef: 'form' });
      const json = await problemOf(await decide(url, 'allow', 'application/json'), 415);
      assert.equal(json.detail, 'the consent form posts application/x-www-form-urlencoded');
      const unknown = await problemOf(await decide(url, 'maybe'), 400);
      assert.equal(unknown.type, 'urn:connect-provider:problem:validation');
      assert.equal(unknown.title, 'Invalid request');
      assert.equal(unknown.detail, 'decision must be allow, allow_bad_credentials or deny');
      assert.deepEqual(unknown.issues, [
        { detail: 'must be allow, allow_bad_credentials or deny', in: 'body', name: 'decision', value: 'maybe' },
      ]);
    });

    it('answers a callback before the decision, and a second decision, with 409 saying why', async () => {
      const url = await connect({ groupRef: 'twice' });
      const id = new URL(url).pathname.split('/').pop()!;
      const early = await problemOf(await fetch(`${info.url}/oauth/callback?session=${id}`), 409);
      assert.equal(early.title, 'Not decided');
      assert.equal(early.detail, 'this authorization has not been answered yet');
      assert.equal((await decide(url, 'deny')).status, 303);
      const again = await problemOf(await decide(url, 'allow'), 409);
      assert.equal(again.title, 'Already decided');
      assert.equal(again.detail, 'this authorization was already answered');
    });

    it('shows a Workspace row only for a workspace that is not empty, and as JSON a metadata item with no string value', async () => {
      const page = await fetch(
        await connect({
          groupRef: 'rows',
          providerWorkspaceRef: '',
          providerMetadata: { none: null, count: 5, nested: { value: 7 } },
        }),
      );
      assert.equal(page.status, 200);
      const list = /<dl>([\s\S]*?)<\/dl>/.exec(await page.text())![1];
      const rows = [...list.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map(([, label, text]) => [
        shown(label),
        shown(text),
      ]);
      // After the page's own rows (Provider, Group, User, Scopes), what the consent was given.
      assert.deepEqual(rows.slice(4), [
        ['none', 'null'],
        ['count', '5'],
        ['nested', '{"value":7}'],
      ]);
    });

    it('answers an expired link with 410 telling the user to start again', async () => {
      const url = await connect({ groupRef: 'expired' });
      t += TEN_MINUTES;
      try {
        const gone = await problemOf(await fetch(url), 410);
        assert.equal(gone.title, 'Authorization expired');
        assert.equal(gone.detail, 'this authorization link has expired; start again from the app');
      } finally {
        t -= TEN_MINUTES;
      }
    });

    it('answers 404 naming the connection when it was deleted before the user allowed its update', async () => {
      const id = await allow(await connect({ groupRef: 'deleted' }));
      const url = await (await api(`/projects/demo/connections/${id}:oauth-update`, { method: 'PATCH' })).json();
      assert.equal((await api(`/projects/demo/connections/${id}`, { method: 'DELETE' })).status, 204);
      const problem = await problemOf(await decide(url, 'allow'), 404);
      assert.equal(problem.detail, `connection ${id} no longer exists`);
    });

    it('answers 429 with Retry-After past the total of pending links, saying to try later', async () => {
      const fresh = createEmulator({ now: () => new Date(START) });
      const at = await fresh.listen();
      try {
        for (let i = 0; i < LIMITS.consents; i++) {
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
            expiresAt: new Date(START + 60_000).toISOString(),
          });
        }
        const refused = await fetch(`${at.baseUrl}/oauth-connect`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ projectId: 'demo', provider: 'slack', groupRef: 'one-more', consumerRef: 'c' }),
        });
        assert.equal(refused.headers.get('retry-after'), '60');
        const problem = await problemOf(refused, 429);
        assert.equal(problem.detail, 'too many pending authorizations; try again later');
      } finally {
        await fresh.close();
      }
    });
  });

  describe('consent.ts: which connection a consent makes', () => {
    it('creates a connection with a conn_ ID', async () => {
      const id = await allow(await connect({ groupRef: 'new-id' }));
      assert.match(id, /^conn_[0-9a-f]{12}$/);
      assert.equal((await api(`/projects/demo/connections/${id}`)).status, 200);
    });

    it("never reuses another project's connection for the same provider and group", async () => {
      const other = await newProject('access-other');
      const mine = await allow(await connect({ groupRef: 'shared-group' }));
      const theirs = await allow(await connect({ projectId: other, groupRef: 'shared-group' }));
      assert.notEqual(theirs, mine);
      assert.equal((await api(`/projects/${other}/connections/${theirs}`)).status, 200);
      assert.equal((await api(`/projects/demo/connections/${theirs}`)).status, 404);
    });

    it("gives a connection its own project's provider app, and none when that project has none", async () => {
      const bare = await newProject('access-no-apps');
      assert.deepEqual(await (await api(`/projects/${bare}/provider-apps`)).json(), []);
      const id = await allow(await connect({ projectId: bare, groupRef: 'no-app' }));
      const connection = await (await api(`/projects/${bare}/connections/${id}`)).json();
      assert.equal(connection.providerApp, undefined);
      const inDemo = await allow(await connect({ groupRef: 'demo-app' }));
      const withApp = await (await api(`/projects/demo/connections/${inDemo}`)).json();
      assert.equal(withApp.providerApp.provider, 'slack');
      assert.equal(withApp.providerApp.projectId, 'proj_demo');
    });

    it('updates the very connection an oauth-update link names, wherever it is in the list', async () => {
      const id = await allow(await connect({ provider: 'notion', groupRef: 'update-me' }));
      const url = await (await api(`/projects/demo/connections/${id}:oauth-update`, { method: 'PATCH' })).json();
      t += 1000;
      try {
        assert.equal(await allow(url), id);
        const connection = await (await api(`/projects/demo/connections/${id}`)).json();
        assert.equal(connection.updateTime, new Date(t).toISOString());
        const seeded = await (await api('/projects/demo/connections/conn_demo')).json();
        assert.notEqual(seeded.updateTime, new Date(t).toISOString(), 'the first connection is left alone');
      } finally {
        t -= 1000;
      }
    });

    it('keeps the workspace and metadata of a connection when a later consent carries none', async () => {
      const id = await allow(
        await connect({
          // Slack needs no workspace (Zendesk does, so a later oauth-connect of its could not carry none).
          provider: 'slack',
          groupRef: 'keep',
          providerWorkspaceRef: 'acme-desk',
          providerMetadata: { region: 'eu' },
        }),
      );
      const url = await (await api(`/projects/demo/connections/${id}:oauth-update`, { method: 'PATCH' })).json();
      assert.equal(await allow(url), id);
      assert.equal(await allow(await connect({ provider: 'slack', groupRef: 'keep' })), id);
      const connection = await (await api(`/projects/demo/connections/${id}`)).json();
      assert.equal(connection.providerWorkspaceRef, 'acme-desk');
      assert.deepEqual(connection.providerMetadata, { region: 'eu' });
    });

    it('at the connection cap, refuses with 429 a consent for a new group or in another project', async () => {
      const fresh = createEmulator({ verifyDelay: 0 });
      const at = await fresh.listen();
      try {
        const other = await fetch(`${at.baseUrl}/projects`, {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ appName: 'Other', name: 'cap-other', orgId: 'org_demo' }),
        });
        assert.equal(other.status, 201);
        // conn_demo is demo's hubspot connection of group acme.
        const newGroup = await connect({ provider: 'hubspot', groupRef: 'new-group' }, at.baseUrl);
        const otherProject = await connect(
          { projectId: 'cap-other', provider: 'hubspot', groupRef: 'acme' },
          at.baseUrl,
        );
        const sameGroup = await connect({ provider: 'hubspot', groupRef: 'acme' }, at.baseUrl);
        const seed = fresh.state.connections[0];
        while (fresh.state.connections.length < LIMITS.connections) {
          fresh.state.connections.push({
            ...seed,
            id: `conn_fill_${fresh.state.connections.length}`,
            provider: 'slack',
            group: { ...seed.group, groupRef: 'fill' },
          });
        }
        for (const [url, why] of [
          [newGroup, 'a new group'],
          [otherProject, 'the same group in another project'],
        ]) {
          const problem = await problemOf(await decide(url, 'allow'), 429, why);
          assert.equal(problem.detail, 'the emulator holds 5000 connections, its most; delete some first', why);
        }
        assert.equal(fresh.state.connections.length, LIMITS.connections);
        assert.equal((await decide(sameGroup, 'allow')).status, 303, 'an existing group: no new connection');
      } finally {
        await fresh.close();
      }
    });
  });
});

describe('emulator consent caps', () => {
  describe('consent sessions', () => {
    it("caps pending links per group: one group cannot evict another group's", async () => {
      await withEmulator({}, async (e) => {
        const connect = async (groupRef: string) =>
          (await post(`${e.info.baseUrl}/oauth-connect`, connectBody({ groupRef }))).json();
        const victim = await connect('victim');
        const first = await connect('flooder');
        let last = first;
        for (let i = 0; i < LIMITS.consentsPerGroup + 10; i++) last = await connect('flooder');
        assert.equal((await fetch(victim)).status, 200, "the other group's link still works");
        assert.equal((await fetch(first)).status, 404, "the flooding group's oldest link was forgotten");
        assert.equal((await fetch(last)).status, 200);
        assert.ok(e.emulator.state.consents.length <= LIMITS.consentsPerGroup + 1);
      });
    });
  });

  describe('state size', () => {
    it('answers 429 to oauth-connect once the pending links of all groups reach the limit, with a retry time', async () => {
      await withEmulator({}, async (e) => {
        const template = {
          mode: 'create' as const,
          projectId: 'proj_demo',
          provider: 'slack',
          consumerRef: 'c',
          consumerName: 'c',
          groupName: 'g',
        };
        const createTime = new Date().toISOString();
        const expiresAt = new Date(Date.now() + 60_000).toISOString();
        for (let i = 0; i < LIMITS.consents; i++)
          e.emulator.state.consents.push({
            ...template,
            id: `consent_fill_${i}`,
            groupRef: `fill-${i}`,
            createTime,
            expiresAt,
          });
        const response = await post(`${e.info.baseUrl}/oauth-connect`, connectBody({ groupRef: 'one-more' }));
        assert.equal(response.status, 429);
        const problem = await response.json();
        assert.equal(problem.retryAfter, expiresAt);
        assert.ok(Number(response.headers.get('retry-after')) > 0);
      });
    });

    it('answers 429 to a consent that would create a connection past the limit, and leaves the link usable', async () => {
      await withEmulator({}, async (e) => {
        const url = await (await post(`${e.info.baseUrl}/oauth-connect`, connectBody({ groupRef: 'late' }))).json();
        const seed = e.emulator.state.connections[0];
        while (e.emulator.state.connections.length < LIMITS.connections) {
          e.emulator.state.connections.push({ ...seed, id: `conn_fill_${e.emulator.state.connections.length}` });
        }
        assert.equal((await decide(url, 'allow')).status, 429);
        e.emulator.state.connections.pop();
        assert.equal((await decide(url, 'allow')).status, 303, 'the refused consent was not recorded as decided');
      });
    });
  });
});
