// The provider catalog and seed data are what the documentation lists, with URLs, scopes and records a real
// provider would have.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { createEmulator, type Emulator, type ListenInfo } from '../../../src/emulator/index.js';
import { PROVIDERS } from '../../../src/emulator/providers.js';
import type { ProviderInfo } from '../../../src/shared/types.js';
import { allow } from '../helpers/consent.js';
import { contractFetch, type ContractFetch } from '../helpers/contract.js';
import { emulatorApi } from '../helpers/emulator.js';
import { element, row } from '../helpers/pages.js';
import {
  APP_NAME,
  documented,
  ORG,
  PROJECT_ID,
  PROJECT_NAME,
  DOCUMENTED_DEMO_INTEGRATIONS,
  DOCUMENTED_PROVIDERS,
} from '../helpers/seed-docs.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const WORKSPACE = '{{.workspace}}';
const spec = parse(readFileSync(new URL('../../../src/api/openapi.yaml', import.meta.url), 'utf8'));

/** The names a provider's URLs may hold as `{{.name}}`: the workspace, and the inputs of its metadata. */
function placeholdersOf(provider: { metadata?: { input?: Array<{ name: string }> } }): string[] {
  return [WORKSPACE, ...(provider.metadata?.input ?? []).map((i) => `{{.${i.name}}}`)];
}

/** An absolute https URL (with `{{.workspace}}` and the given placeholders filled in as a real subdomain would be). */
function assertHttpsUrl(value: unknown, why: string, placeholders = [WORKSPACE]): void {
  assert.equal(typeof value, 'string', why);
  let filled = value as string;
  for (const placeholder of placeholders) filled = filled.replaceAll(placeholder, 'acme');
  assert.ok(!filled.includes('{{'), `${why}: ${value} holds only placeholders the provider asks for`);
  const url = new URL(filled);
  assert.equal(url.protocol, 'https:', why);
  assert.ok(url.hostname.includes('.'), `${why}: ${value} names a host`);
}

// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The providers that sign in on a consent page (the others with credentials: see credentials.test.ts...). */
const CONSENT_PROVIDERS = PROVIDERS.filter(
  (p) => (p.authType ?? 'oauth2') === 'oauth2' && (p.grantType ?? 'authorizationCode') === 'authorizationCode',
).map((p) => p.name);

/** Every docs URL a provider info gives: the OAuth app's, the API key's, the basic credentials', each input's. */
function docsUrlsOf(provider: ProviderInfo): Array<[string, unknown]> {
  const urls: Array<[string, unknown]> = [];
  if (provider.oauth2Opts?.docsURL !== undefined) urls.push(['oauth2Opts.docsURL', provider.oauth2Opts.docsURL]);
  if (provider.apiKeyOpts?.docsURL !== undefined) urls.push(['apiKeyOpts.docsURL', provider.apiKeyOpts.docsURL]);
  if (provider.basicOpts?.docsURL !== undefined) urls.push(['basicOpts.docsURL', provider.basicOpts.docsURL]);
  for (const input of provider.customOpts?.inputs ?? []) urls.push([`customOpts ${input.name}`, input.docsURL]);
  for (const input of provider.metadata?.input ?? []) urls.push([`metadata ${input.name}`, input.docsURL]);
  return urls.filter(([, url]) => url !== undefined);
}

describe('emulator catalog and seed data', () => {
  let emulator: Emulator;
  let info: ListenInfo;
  let contract: ContractFetch;
  before(async () => {
    contract = contractFetch();
    emulator = createEmulator({ verifyDelay: 0, now: () => new Date(NOW) });
    info = await emulator.listen();
  });
  after(() => emulator.close());
  // Every answer of an operation is checked against openapi.yaml on its way through.
  const api = emulatorApi(
    () => info,
    (url, init) => contract.fetch(url, init),
  );
  const json = async (path: string, init?: { method?: string; body?: unknown }) => {
    const response = await api(path, init);
    assert.equal(response.status, 200, path);
    return response.json();
  };

  describe('providers.ts: the catalog', () => {
    // Names as the real catalog spells them: lower case, or camelCase (clariCopilot).
    it('is exactly the providers the documentation lists, with unique names, each answered by get-provider', async () => {
      assert.deepEqual(
        PROVIDERS.map((p) => p.name),
        DOCUMENTED_PROVIDERS,
      );
      assert.equal(new Set(DOCUMENTED_PROVIDERS).size, DOCUMENTED_PROVIDERS.length, 'names are unique');
      for (const name of DOCUMENTED_PROVIDERS) {
        assert.match(name, /^[a-z][A-Za-z0-9-]*$/);
        // get-provider takes no credential.
        const response = await contract.fetch(`${info.baseUrl}/providers/${name}`);
        assert.equal(response.status, 200, name);
        assert.equal((await response.json()).name, name);
      }
    });

    // The OAuth flow's URLs need the workspace before the popup exactly when explicitWorkspaceRequired says so. The
    // API's baseURL may also hold it when the connector learns it once authorized (metadata.postAuthentication names
    // it: Salesforce's generic login serves any org, whose own host comes with the tokens).
    it('answers absolute https URLs, holding {{.workspace}} exactly when a workspace is required', async () => {
      let workspaceProviders = 0;
      let learntAfter = 0;
      for (const name of DOCUMENTED_PROVIDERS) {
        const provider = await json(`/providers/${name}`);
        for (const [field, url] of docsUrlsOf(provider)) {
          assertHttpsUrl(url, `${name} ${field}`, []);
        }
        if (!CONSENT_PROVIDERS.includes(name)) {
          // No consent page: the sign-in form links where to find what it asks for (sign-in.ts reads these URLs).
          assert.ok(docsUrlsOf(provider).length > 0, `${name}: says where to find its credentials`);
          // No workspace to give before it, and the tokens of a client-credentials provider are asked for on the
          // server.
          assertHttpsUrl(provider.baseURL, `${name} baseURL`, []);
          if (provider.oauth2Opts) assertHttpsUrl(provider.oauth2Opts.tokenURL, `${name} tokenURL`, []);
          assert.equal(provider.oauth2Opts?.authURL, undefined, `${name}: no consent page`);
          continue;
        }
        const opts = provider.oauth2Opts;
        const urls: Array<[string, unknown]> = [
          ['baseURL', provider.baseURL],
          ['authURL', opts.authURL],
          ['tokenURL', opts.tokenURL],
        ];
        for (const [field, url] of urls) assertHttpsUrl(url, `${name} ${field}`, placeholdersOf(provider));
        assert.ok(!String(opts.docsURL ?? '').includes('{{'), `${name}: docs are the same for every workspace`);
        const flowNeedsWorkspace = [opts.authURL, opts.tokenURL].some((url: string) => url.includes(WORKSPACE));
        assert.equal(opts.explicitWorkspaceRequired, flowNeedsWorkspace, `${name}: explicitWorkspaceRequired`);
        const afterAuth = (provider.metadata?.postAuthentication ?? []).some(
          (i: { name: string }) => i.name === 'workspace',
        );
        assert.equal(
          (provider.baseURL as string).includes(WORKSPACE),
          flowNeedsWorkspace || afterAuth,
          `${name}: baseURL holds the workspace exactly when the flow needs it or learns it`,
        );
        if (flowNeedsWorkspace) workspaceProviders++;
        if (afterAuth) learntAfter++;
      }
      assert.ok(workspaceProviders > 0, 'some provider of the catalog lives on a workspace of its own');
      assert.ok(learntAfter > 0, 'some provider of the catalog learns its workspace once authorized');
    });

    it('names for each provider a default module, the one a connection without a module uses', async () => {
      for (const name of DOCUMENTED_PROVIDERS) {
        assert.match((await json(`/providers/${name}`)).defaultModule, /^\S+$/, name);
      }
    });

    // An integration's revision says what it reads from its provider: the provider has to support reading.
    it('answers support.read for the provider of every integration that reads objects', async () => {
      const integrations = await json('/projects/demo/integrations');
      assert.ok(integrations.length > 0);
      for (const integration of integrations) {
        assert.ok(integration.latestRevision.content.read.objects.length > 0, `${integration.id} reads objects`);
        const provider = await json(`/providers/${integration.provider}`);
        assert.equal(provider.support.read, true, `${integration.provider} supports reading`);
      }
    });

    it('answers explicitScopesRequired false: oauth-connect takes no scopes (OAuthConnectRequest)', async () => {
      assert.ok(spec.components.schemas.OAuthConnectRequest.properties);
      assert.equal(spec.components.schemas.OAuthConnectRequest.properties.scopes, undefined);
      for (const name of DOCUMENTED_PROVIDERS) {
        const opts = (await json(`/providers/${name}`)).oauth2Opts;
        if (opts) assert.equal(opts.explicitScopesRequired, false, name);
      }
    });

    it('answers for each provider what the exported catalog (PROVIDERS) says, its display name naming it', async () => {
      for (const provider of PROVIDERS) {
        const answer = await json(`/providers/${provider.name}`);
        const squashed = answer.displayName.toLowerCase().replace(/[^a-z0-9]/g, '');
        assert.ok(squashed.includes(provider.name.toLowerCase()), `${answer.displayName} names ${provider.name}`);
        assert.equal(answer.displayName, provider.displayName);
        assert.equal(answer.authType, provider.authType ?? 'oauth2');
        assert.equal(answer.baseURL, provider.baseURL);
        assert.deepEqual(answer.apiKeyOpts, provider.apiKeyOpts, `${provider.name} apiKeyOpts`);
        assert.deepEqual(answer.basicOpts, provider.basicOpts, `${provider.name} basicOpts`);
        assert.deepEqual(answer.customOpts, provider.customOpts, `${provider.name} customOpts`);
        if (answer.authType !== 'oauth2') {
          assert.equal(answer.oauth2Opts, undefined, `${provider.name}: no oauth2Opts`);
          continue;
        }
        assert.equal(answer.oauth2Opts.grantType, provider.grantType ?? 'authorizationCode');
        assert.equal(answer.oauth2Opts.authURL, provider.authURL);
        assert.equal(answer.oauth2Opts.tokenURL, provider.tokenURL);
        assert.equal(answer.oauth2Opts.docsURL, provider.docsURL, `${provider.name} docsURL`);
        assert.equal(answer.oauth2Opts.explicitWorkspaceRequired, provider.explicitWorkspaceRequired ?? false);
        assert.deepEqual(answer.oauth2Opts.tokenMetadataFields, provider.tokenMetadataFields ?? {}, provider.name);
      }
      assert.ok(
        PROVIDERS.some((p) => p.docsURL),
        'some provider has documentation to point at',
      );
    });

    it("shows each provider's scopes on its consent page, those of its provider app, and grants them", async () => {
      const apps: Array<{ id: string; provider: string; scopes: string[][] }> =
        await json('/projects/demo/provider-apps');
      // A provider app for each provider of a consent page, and none for the others (the user's own credentials).
      assert.deepEqual(apps.map((a) => a.provider).sort(), [...CONSENT_PROVIDERS].sort());
      for (const name of CONSENT_PROVIDERS) {
        const provider = await json(`/providers/${name}`);
        const app = apps.find((a) => a.id === `app_${name}`);
        assert.ok(app, `app_${name}`);
        assert.equal(app.scopes.length, 1, `${name}: one scope set`);
        const scopes = app.scopes[0];
        assert.ok(scopes.length > 0, `${name} asks for some scope`);
        for (const scope of scopes) assert.match(scope, SCOPE_TOKEN, `${name}: ${JSON.stringify(scope)}`);

        const url: string = await json('/oauth-connect', {
          body: {
            projectId: 'demo',
            provider: name,
            groupRef: `catalog-${name}`,
            consumerRef: 'c',
            ...(provider.oauth2Opts.explicitWorkspaceRequired ? { providerWorkspaceRef: 'acme' } : {}),
            ...(provider.metadata?.input
              ? {
                  providerMetadata: Object.fromEntries(
                    provider.metadata.input.map((i: { name: string }) => [i.name, { value: '1', source: 'input' }]),
                  ),
                }
              : {}),
          },
        });
        const page = await (await fetch(url)).text();
        assert.equal(row(page, 'Provider'), provider.displayName);
        assert.deepEqual(row(page, 'Scopes').split(/,\s*/), scopes, `${name}: the scopes the page lists`);

        const id = await allow(url);
        const connection = await json(`/projects/demo/connections/${id}?includeCreds=true`);
        assert.deepEqual(connection.oauth2AuthorizationCode.scopes, scopes, `${name}: the scopes granted`);
        assert.equal(connection.providerApp.id, app.id);
      }
    });
  });

  describe('seed.ts: the seed data docs/emulator.md documents', () => {
    it('has the org and project the documentation names', async () => {
      const project = await json(`/projects/${PROJECT_NAME}`);
      assert.deepEqual(
        [project.orgId, project.id, project.name, project.appName],
        [ORG, PROJECT_ID, PROJECT_NAME, APP_NAME],
      );
    });

    // emulator.state is the live state a test of the emulator's user reads: the seed's items, those no operation
    // answers included (the org's name, the topics), carry names and times as the answered ones do.
    it('keeps in its state items a person can tell apart by name, each at a real time', () => {
      const { state } = emulator;
      for (const kind of ['orgs', 'projects', 'destinations', 'topics', 'integrations'] as const) {
        const names = (state[kind] as Array<{ name: string }>).map((item) => item.name);
        assert.ok(names.length > 0, `the seed has ${kind}`);
        for (const name of names) assert.match(name, /\S/, `${kind}: a name`);
        assert.equal(new Set(names).size, names.length, `${kind}: names differ`);
      }
      const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
      let times = 0;
      const walk = (value: unknown, at: string): void => {
        if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}[${i}]`));
        else if (value !== null && typeof value === 'object') {
          const item = value as Record<string, unknown>;
          for (const field of ['createTime', 'updateTime']) {
            if (!(field in item)) continue;
            assert.match(String(item[field]), ISO, `${at}.${field}`);
            assert.ok(!Number.isNaN(Date.parse(String(item[field]))), `${at}.${field}`);
            times++;
          }
          if (typeof item.createTime === 'string' && typeof item.updateTime === 'string')
            assert.ok(item.updateTime >= item.createTime, `${at}: updated after it was made`);
          for (const [key, child] of Object.entries(item)) walk(child, `${at}.${key}`);
        }
      };
      walk(state, 'state');
      assert.ok(times > 0);
    });

    it('has the invites, destinations and routes the documentation names; a webhook has a URL to post to', async () => {
      const [org, invites] = documented(/invites of `(\w+)`: ([^;]+);/);
      const expected = [...invites.matchAll(/`(\w+)` \((\w+)\)/g)].map((m) => [m[1], m[2]]);
      const answered = (await json(`/orgs/${org}/invites`)).map((i: { id: string; status: string }) => [
        i.id,
        i.status,
      ]);
      assert.deepEqual(answered, expected);

      const [first, second, type, header] = documented(
        /destinations `(\w+)` and `(\w+)` \((webhook)s; the first sends the header `([\w-]+)`\);/,
      );
      const destinations = await json('/projects/demo/destinations');
      assert.deepEqual(
        destinations.map((d: { id: string }) => d.id),
        [first, second],
      );
      for (const destination of destinations) {
        assert.equal(destination.type, type, destination.id);
        // "Type-specific settings; a webhook uses url and headers" (DestinationMetadata).
        const url = new URL(destination.metadata.url);
        assert.ok(url.protocol === 'https:' || url.protocol === 'http:', destination.metadata.url);
        assert.notEqual(destination.name, '', `${destination.id} has a name a person can pick it by`);
        // RFC 9110: a header's name is a token, and a header sent empty says nothing.
        for (const [name, value] of Object.entries(destination.metadata.headers ?? {})) {
          assert.match(name, /^[!#$%&'*+.^_`|~\w-]+$/, `${destination.id}: header ${name}`);
          assert.match(String(value), /\S/, `${destination.id}: header ${name} has a value`);
        }
      }
      assert.ok(header in (destinations[0].metadata.headers ?? {}), `${first} sends ${header}`);
      assert.equal(new Set(destinations.map((d: { name: string }) => d.name)).size, 2, 'destination names differ');

      const [route, topic, destination] = documented(/route `(\w+)`: `(\w+) -> (\w+)`;/);
      const routes = await json('/projects/demo/topic-destination-routes');
      assert.deepEqual(
        routes.map((r: { id: string; topicId: string; destinationId: string }) => [r.id, r.topicId, r.destinationId]),
        [[route, topic, destination]],
      );
      const [eventRoute, eventType, eventTopic] = documented(/notification route `(\w+)`: `([\w.]+) -> (\w+)`;/);
      const eventRoutes = await json('/projects/demo/notification-event-topic-routes');
      assert.deepEqual(
        eventRoutes.map((r: { id: string; eventType: string; topicId: string }) => [r.id, r.eventType, r.topicId]),
        [[eventRoute, eventType, eventTopic]],
      );
    });

    it('has the integration and records the documentation names, each record holding every field it maps', async () => {
      const [id, provider, group, count, objectName, names, oneObject, oneName, otherGroup, otherObject] = documented(
        /integration `(\w+)` \((\w+)\): group `(\w+)` has (two) `(\w+)` records \(([^)]+)\) and one `(\w+)` \(([^)]+)\); group `(\w+)` one (\w+);/,
      );
      const integrations = await json('/projects/demo/integrations');
      assert.deepEqual(
        integrations.map((i: { id: string }) => i.id),
        [id, ...DOCUMENTED_DEMO_INTEGRATIONS],
      );
      assert.equal(integrations[0].provider, provider);
      assert.notEqual(integrations[0].name, '', 'the integration has a name a person reads');
      const mappings: Record<string, Record<string, string>> = Object.fromEntries(
        integrations[0].latestRevision.content.read.objects.map(
          (o: { objectName: string; fields: Record<string, string> }) => [o.objectName, o.fields],
        ),
      );
      type Entry = { mappedFields: Record<string, string>; raw: Record<string, string> };
      const search = async (groupRef: string, object: string): Promise<Entry[]> => {
        const response = await api(`${info.searchUrl}/projects/demo/integrations/${id}?groupRef=${groupRef}`, {
          body: { objectName: object, fieldFilters: [] },
        });
        assert.equal(response.status, 200);
        const entries: Entry[] = (await response.json()).result;
        // A record is one object of the provider: it has an ID of its own, and a value for every field mapped.
        for (const entry of entries) {
          assert.match(String(entry.raw.id ?? ''), /^\S+$/, `${groupRef} ${object} has an ID`);
          for (const target of Object.values(mappings[object])) {
            assert.match(
              String(entry.mappedFields[target] ?? ''),
              /\S/,
              `${groupRef} ${object} ${entry.raw.id}: ${target}`,
            );
          }
          if (entry.mappedFields.email !== undefined) assert.match(entry.mappedFields.email, /^[^@\s]+@[^@\s]+\.\w+$/);
        }
        assert.equal(new Set(entries.map((e) => e.raw.id)).size, entries.length, `${groupRef} ${object}: IDs differ`);
        return entries;
      };
      const contacts = await search(group, objectName);
      assert.equal(count, 'two');
      assert.deepEqual(
        contacts.map((c) => `${c.mappedFields.firstName} ${c.mappedFields.lastName}`),
        names.split(', '),
      );
      assert.deepEqual(
        (await search(group, oneObject)).map((a) => a.mappedFields.name),
        [oneName],
      );
      assert.equal((await search(otherGroup, otherObject)).length, 1);
    });

    // The other integrations make an integrations list realistic offline: each is one a person tells apart by its
    // name, and reads an object of its provider with fields mapped, as a real integration's revision does.
    it('has each other integration named apart from the rest, reading one object with fields mapped', async () => {
      const integrations: Array<{
        id: string;
        name: string;
        latestRevision: {
          content: { read: { objects: Array<{ objectName: string; fields: Record<string, string> }> } };
        };
      }> = await json('/projects/demo/integrations');
      const others = integrations.filter((i) => DOCUMENTED_DEMO_INTEGRATIONS.includes(i.id));
      assert.equal(others.length, DOCUMENTED_DEMO_INTEGRATIONS.length);
      const names = integrations.map((i) => i.name);
      assert.equal(new Set(names).size, names.length, `names differ: ${names.join(', ')}`);
      for (const { id, name, latestRevision } of others) {
        assert.match(name, /^[a-z][a-z-]*[a-z]$/, `${id}: a name a person reads`);
        const [object, ...more] = latestRevision.content.read.objects;
        assert.equal(more.length, 0, `${id} reads one object`);
        assert.match(object.objectName, /^\w+$/, `${id}: the object it reads`);
        const fields = Object.entries(object.fields);
        assert.ok(fields.length > 0, `${id} maps fields`);
        for (const [from, to] of fields) assert.ok(/^\w+$/.test(from) && /^\w+$/.test(to), `${id}: ${from} -> ${to}`);
      }
    });

    it('has the provider apps the documentation names: one per consent provider, each with a client of its own', async () => {
      const apps: Array<{ id: string; provider: string; clientId: string; externalRef?: string }> =
        await json('/projects/demo/provider-apps');
      assert.deepEqual(
        apps.map((a) => [a.id, a.provider]).sort(),
        CONSENT_PROVIDERS.map((p) => [`app_${p}`, p]).sort(),
      );
      for (const app of apps) {
        assert.match(app.clientId, /^\S+$/, `${app.id} clientId`);
        if (app.externalRef !== undefined) assert.match(app.externalRef, /^\S+$/, `${app.id} externalRef`);
      }
      assert.equal(new Set(apps.map((a) => a.clientId)).size, apps.length, 'each provider has its own OAuth client');
      const refs = apps.map((a) => a.externalRef).filter((r) => r !== undefined);
      assert.equal(new Set(refs).size, refs.length, 'external refs tell the apps apart');
    });

    it('has the connection the documentation names, of the hubspot provider app, holding its scopes and real tokens', async () => {
      const [id, groupRef, groupName, consumerRef, provider, status] = documented(
        /connection `(\w+)` of group `(\w+)` \(([^)]+)\), consumer `([\w-]+)`, to `(\w+)`, status `(\w+)`/,
      );
      const connection = await json(`/projects/demo/connections/${id}?includeRefreshToken=true`);
      assert.deepEqual(
        [connection.group.groupRef, connection.group.groupName, connection.consumer.consumerRef],
        [groupRef, groupName, consumerRef],
      );
      assert.deepEqual([connection.provider, connection.status], [provider, status]);
      // The spec: a consumer's name defaults to its ref, so it is never blank.
      assert.match(connection.consumer.consumerName, /\S/);
      // The app it was made with is one of the project's, for its provider.
      const apps: Array<{ id: string; provider: string; scopes: string[][] }> =
        await json('/projects/demo/provider-apps');
      const app = apps.find((a) => a.id === connection.providerApp?.id);
      assert.ok(app, `conn_demo's provider app ${connection.providerApp?.id} is one of the project's`);
      assert.equal(app.provider, provider);
      assert.deepEqual(connection.providerApp, app);
      assert.deepEqual(connection.oauth2AuthorizationCode.scopes, app.scopes[0], 'it holds the scopes its app asks');
      // Identifiers and tokens, when present, are not blank.
      for (const field of ['providerWorkspaceRef', 'providerConsumerRef'])
        if (connection[field] !== undefined) assert.match(connection[field], /^\S+$/, field);
      const { accessToken, refreshToken } = connection.oauth2AuthorizationCode;
      assert.match(accessToken.token, /^\S+$/);
      assert.match(refreshToken.token, /^\S+$/);
      assert.notEqual(accessToken.token, refreshToken.token);
    });

    it("shows the connection's group, user and scopes on the consent page of its update flow", async () => {
      const [id, groupRef, groupName, consumerRef] = documented(
        /connection `(\w+)` of group `(\w+)` \(([^)]+)\), consumer `([\w-]+)`/,
      );
      const connection = await json(`/projects/demo/connections/${id}?includeCreds=true`);
      const hubspot = await json(`/providers/${connection.provider}`);
      const url: string = await json(`/projects/demo/connections/${id}:oauth-update`, { method: 'PATCH' });
      const page = await (await fetch(url)).text();
      assert.equal(element(page, 'h1'), `${APP_NAME} wants to reconnect to ${hubspot.displayName}`);
      assert.equal(row(page, 'Group'), `${groupName} (${groupRef})`);
      assert.equal(row(page, 'User'), `${connection.consumer.consumerName} (${consumerRef})`);
      assert.deepEqual(row(page, 'Scopes').split(/,\s*/), connection.oauth2AuthorizationCode.scopes);
    });
  });

  it('answered, all along, only what openapi.yaml describes', () => {
    assert.deepEqual(contract.violations, []);
  });
});
