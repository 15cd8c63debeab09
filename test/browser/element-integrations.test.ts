// <connect-integrations> (docs/element.md, "A whole integrations page"): one row per provider the backend lists,
// each a full <connect-provider>, read in one round trip (two requests at once) however many rows; the `providers`
// attribute narrows and orders; search, loading, failure and retry; the rows' events and parts reach the page. Real
// handler and emulator. (The page-settings behaviours, badges, events and states: element-integrations-page.test.ts.)
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/integrations.js';
import type { ConnectIntegrations, ConnectProvider } from '../../src/integrations.js';
import { DEMO_INTEGRATION_PROVIDERS } from '../shared/fixtures.js';
import { ended, freshSessionEachTest, serverLog, uniqueTag, userClick, warnings, watch } from './helpers.js';

/** The ten providers of project `demo`'s integrations, in the platform's order. */
const DEMO: readonly string[] = DEMO_INTEGRATION_PROVIDERS;

const rows = (list: ConnectIntegrations) => [...list.shadowRoot!.querySelectorAll<HTMLLIElement>('[part=row]')];
const rowElements = (list: ConnectIntegrations) => [
  ...list.shadowRoot!.querySelectorAll<ConnectProvider>('connect-provider'),
];

async function make(mode = 'ok', attributes = '', tag = uniqueTag()) {
  const list = (
    await fixture(
      html`<div>
      <connect-integrations endpoint=${`/observe/${tag}/${mode}/api/connect`} disconnectable></connect-integrations>
    </div>`,
    )
  ).querySelector('connect-integrations')! as ConnectIntegrations;
  if (attributes) list.setAttribute('providers', attributes);
  return { list, tag };
}

/** Waits until every row has read its connection. */
async function settled(list: ConnectIntegrations, count: number) {
  await waitUntil(
    () => rowElements(list).length === count && rowElements(list).every((row) => row.hasAttribute('connection-status')),
    `not ${count} rows read`,
    { timeout: 8000 },
  );
}

describe('<connect-integrations>', () => {
  freshSessionEachTest(() => {});

  it("should show one row per provider of the backend's integrations, in its order, in two requests", async () => {
    const loaded = new Promise<CustomEvent>((resolve) =>
      document.addEventListener('connect-integrations-loaded', (e) => resolve(e as CustomEvent), { once: true }),
    );
    const { list, tag } = await make();
    await settled(list, DEMO.length);
    expect(rowElements(list).map((row) => row.provider)).to.deep.equal(DEMO);
    expect(rows(list).map((row) => row.querySelector('strong')!.textContent)).to.include.members([
      'HubSpot',
      'Clari Copilot',
      'PayPal',
    ]);
    // The list and the caller's connections (both at once): no provider request, whatever the rows.
    const log = (await serverLog(tag)).map((r) => `${r.method} ${r.path}`);
    expect(log.sort()).to.deep.equal(['GET /api/connect/connections', 'GET /api/connect/integrations']);
    const { detail } = await loaded;
    expect(detail.integrations.map((i: { provider: string }) => i.provider)).to.deep.equal(DEMO);
    expect(detail.integrations[0]).to.deep.include({ provider: 'hubspot', displayName: 'HubSpot' });
    expect(detail.integrations[0].connection, 'a new group has no connection').to.equal(null);
  });

  it('should narrow and order the rows by the providers attribute, a name the backend does not list getting none', async () => {
    let list!: ConnectIntegrations;
    const seen = await warnings(async () => {
      ({ list } = await make('ok', 'slack apollo nosuch hubspot'));
      await settled(list, 3);
    });
    expect(rowElements(list).map((row) => row.provider)).to.deep.equal(['slack', 'apollo', 'hubspot']);
    // The developer hears where to fix it (the spelling, the handler's providers option), never what the app offers.
    expect(seen).to.deep.equal([
      `<connect-integrations>: the providers attribute names "nosuch", which GET ${list.endpoint}/integrations does not list, so it has no row: check the spelling of "nosuch" (names are the platform's, in lower case); to offer it, the handler's providers option (createConnectHandler({ providers })) must list it, and the project must have an integration of it`,
    ]);
  });

  it('should work without the integrations route when the providers attribute names the rows', async () => {
    const { list, tag } = await make('nointegrations', 'apollo salesforce');
    list.formsOpen = true;
    await settled(list, 2);
    expect(rowElements(list).map((row) => row.provider)).to.deep.equal(['apollo', 'salesforce']);
    // Each row reads its provider through the providers route: Apollo shows its form.
    await waitUntil(() => rowElements(list)[0].shadowRoot!.querySelector('[part=field]'), 'no form for Apollo');
    const log = (await serverLog(tag)).map((r) => `${r.method} ${r.path}`);
    expect(log).to.include('GET /api/connect/providers/apollo');
  });

  it("should show a row's description only from the host's own entry, never through the object's prototype", async () => {
    const { list } = await make('nointegrations', 'constructor toString __proto__ apollo');
    list.descriptions = { apollo: 'Sales data' };
    await settled(list, 4);
    expect(rowElements(list).map((row) => row.provider)).to.deep.equal([
      'constructor',
      'toString',
      '__proto__',
      'apollo',
    ]);
    expect(rows(list).map((row) => row.querySelector('small')?.textContent ?? '')).to.deep.equal([
      '',
      '',
      '',
      'Sales data',
    ]);
  });

  it('should let a row connect, its events leaving the list with detail.provider naming the row', async () => {
    const { list } = await make('ok', 'salesforce apollo');
    list.formsOpen = true;
    await settled(list, 2);
    const seen: Array<{ type: string; provider: string }> = [];
    const record = (e: Event) => seen.push({ type: e.type, provider: (e as CustomEvent).detail.provider });
    for (const type of ['connect-start', 'connect-success']) document.addEventListener(type, record);
    try {
      const apollo = rowElements(list)[1];
      const input = apollo.shadowRoot!.querySelector<HTMLInputElement>('[part=field]')!;
      input.focus();
      await sendKeys({ type: 'a-good-key' });
      const w = watch(apollo);
      await userClick(apollo);
      expect((await ended(w)).type).to.equal('connect-success');
      expect(seen).to.deep.equal([
        { type: 'connect-start', provider: 'apollo' },
        { type: 'connect-success', provider: 'apollo' },
      ]);
    } finally {
      for (const type of ['connect-start', 'connect-success']) document.removeEventListener(type, record);
    }
  });

  it('should filter rows by name above 8 rows and announce how many match, keeping the hidden rows', async () => {
    const { list } = await make();
    await settled(list, DEMO.length);
    const search = list.shadowRoot!.querySelector<HTMLInputElement>('[part=search]')!;
    expect(search.getAttribute('aria-label')).to.equal('Search integrations');
    search.focus();
    await sendKeys({ type: 'SPOT' });
    await list.updateComplete;
    const visible = rows(list).filter((row) => !row.hidden);
    expect(visible.map((row) => row.querySelector('strong')!.textContent)).to.deep.equal(['HubSpot']);
    expect(list.shadowRoot!.querySelector('[role=status]')!.textContent).to.equal('1 of 10 integrations');
    expect(rowElements(list).length, 'hidden rows stay, with their state').to.equal(DEMO.length);
  });

  it('should show no search at 8 rows or fewer', async () => {
    const { list } = await make('ok', 'slack hubspot');
    await settled(list, 2);
    expect(list.shadowRoot!.querySelector('[part=search]')).to.equal(null);
  });

  it('should say a failed read in plain words, with a retry that reads again', async () => {
    const { list } = await make('integrations-fail-once');
    await waitUntil(() => list.shadowRoot!.querySelector('[part=retry]'), 'no retry button');
    expect(list.shadowRoot!.textContent).to.include('The integrations could not be loaded.');
    list.shadowRoot!.querySelector<HTMLButtonElement>('[part=retry]')!.click();
    await settled(list, DEMO.length);
  });

  it('should take a JSON 404 for the integrations route as no route, with the providers attribute', async () => {
    const { list } = await make('nointegrations-json', 'apollo salesforce');
    await settled(list, 2);
    expect(rowElements(list).map((row) => row.provider)).to.deep.equal(['apollo', 'salesforce']);
  });

  it('should read again through a failure that passes, and show the rows', async () => {
    const { list, tag } = await make('integrations-503-once');
    await settled(list, DEMO.length);
    const reads = (await serverLog(tag)).filter((r) => r.path === '/api/connect/integrations');
    expect(reads).to.have.length(2);
  });

  it('should keep its rows, with their state, when a read again fails', async () => {
    const { list, tag } = await make('integrations-fail-later');
    await settled(list, DEMO.length);
    const [first] = rowElements(list);
    list.setAttribute('providers', 'slack');
    await waitUntil(
      async () => (await serverLog(tag)).filter((r) => r.path === '/api/connect/integrations').length === 2,
      'no second read',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await list.updateComplete;
    expect(list.shadowRoot!.querySelector('[part=retry]')).to.equal(null);
    expect(rowElements(list).length).to.equal(DEMO.length);
    expect(rowElements(list)[0] === first && first.isConnected, 'the same row, still on the page').to.equal(true);
  });

  it("should let the page style every row's button through ::part(button)", async () => {
    const style = document.createElement('style');
    style.textContent = 'connect-integrations::part(button) { background: rgb(1, 2, 3); }';
    document.head.append(style);
    try {
      const { list } = await make('ok', 'slack hubspot');
      await settled(list, 2);
      for (const row of rowElements(list)) {
        const button = row.shadowRoot!.querySelector<HTMLButtonElement>('[part=button]')!;
        expect(getComputedStyle(button).backgroundColor).to.equal('rgb(1, 2, 3)');
      }
    } finally {
      style.remove();
    }
  });

  it("should keep the other rows' elements and state when the list changes", async () => {
    const { list } = await make('ok', 'slack hubspot apollo');
    await settled(list, 3);
    const [slack, , apollo] = rowElements(list);
    list.setAttribute('providers', 'apollo slack');
    await waitUntil(() => rowElements(list).length === 2, 'the list did not change');
    // (Compared as booleans: chai describing two elements on a failure takes minutes.)
    expect(rowElements(list)[0] === apollo, 'Apollo is the same element').to.equal(true);
    expect(rowElements(list)[1] === slack, 'Slack is the same element').to.equal(true);
    expect(slack.getAttribute('connection-status'), 'read once, kept').to.equal('none');
  });
});
