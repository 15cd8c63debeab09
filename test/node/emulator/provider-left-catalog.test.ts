// Rule: a connection or consent link whose provider is no longer in the catalog (a data file written by an emulator
// whose catalog had it) can be read and deleted but not changed: update connection, oauth-update, the consent page,
// its decision and its callback answer a 400 saying so, change nothing and log no internal error. Broken on purpose
// once each: oauth-update without the catalog check (its link then crashed the consent page, a 500), update
// connection's, the consent page's and the decision's check moved after the decision is recorded.
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from '../helpers/consent.js';
import { credentialSuite, DELAY } from '../helpers/credential-connections.js';
import { connectBody } from '../helpers/emulator.js';

describe('a provider that left the catalog: its connections and links are refused, never a crash', () => {
  const { clock, started, api, generate, update, read } = credentialSuite();
  const NOT_IN_CATALOG = 'the provider retired is not in the catalog';
  let logged: unknown[][];
  beforeEach(() => {
    logged = [];
    mock.method(console, 'error', (...args: unknown[]) => void logged.push(args));
  });
  afterEach(() => mock.restoreAll());
  const refusedWith = async (response: Response) => {
    assert.equal(response.status, 400);
    assert.equal((await response.json()).detail, NOT_IN_CATALOG);
    assert.deepEqual(logged, [], 'no internal error logged');
  };
  const retire = (id: string) => {
    const stored = started.emulator.state.connections.find((c) => c.id === id);
    assert.ok(stored);
    stored.provider = 'retired';
    return stored;
  };
  /** An oauth-connect link in the demo project, and its consent session. */
  const link = async (groupRef: string) => {
    const response = await api('/oauth-connect', { body: connectBody({ provider: 'hubspot', groupRef }) });
    assert.equal(response.status, 200);
    const url: string = await response.json();
    const session = started.emulator.state.consents.find((s) => url.endsWith(s.id));
    assert.ok(session);
    return { url, session };
  };

  it('a connection: read and deleted, but update connection and oauth-update are refused, nothing changed', async () => {
    const made = await (await generate({ provider: 'apollo', groupRef: 'retired', apiKey: 'first-key' })).json();
    clock.advance(DELAY);
    const stored = retire(made.id);
    await refusedWith(await update(made.id, { updateMask: ['apiKey'], connection: { apiKey: 'second-key' } }));
    assert.equal(stored.credentials?.apiKey, 'first-key');
    const consents = started.emulator.state.consents.length;
    await refusedWith(await api(`/projects/demo/connections/${made.id}:oauth-update`, { method: 'PATCH' }));
    assert.equal(started.emulator.state.consents.length, consents, 'no consent link made');
    assert.equal((await read(made.id)).provider, 'retired');
    const deleted = await api(`/projects/demo/connections/${made.id}`, { method: 'DELETE' });
    assert.equal(deleted.status, 204);
  });

  it('a consent link: its page and its decision are refused, the link left undecided, no connection made', async () => {
    const { url, session } = await link('retired-link');
    session.provider = 'retired';
    await refusedWith(await fetch(url));
    const connections = started.emulator.state.connections.length;
    for (const decision of ['allow', 'deny']) await refusedWith(await decide(url, decision));
    assert.equal(session.decision, undefined);
    assert.equal(started.emulator.state.connections.length, connections);
  });

  it('a decided link: its callback page is refused', async () => {
    const { url, session } = await link('retired-callback');
    const decided = await decide(url, 'deny');
    assert.equal(decided.status, 303);
    session.provider = 'retired';
    await refusedWith(await fetch(new URL(decided.headers.get('location')!, url)));
  });
});
