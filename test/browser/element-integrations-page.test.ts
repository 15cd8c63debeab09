// <connect-integrations> as the settings page a SaaS ships (docs/element.md, "A whole integrations page"): each row's
// state in words and as data-state, the list's events (change, error, loaded with an error), signed out as a
// state, what a row is connected to, the summary and its filter, a search people can use, errors a person and a
// developer can act on, one round trip at load, and axe on each of those pages. Real handler and emulator; faults
// through the observed front (test/browser/server/middleware.ts).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../../src/integrations.js';
import type { ConnectIntegrations, ConnectProvider } from '../../src/integrations.js';
import { DEMO_INTEGRATION_PROVIDERS } from '../shared/fixtures.js';
import {
  button,
  clearFaults,
  ended,
  freshSessionEachTest,
  seedConnection,
  serverLog,
  setFault,
  uniqueTag,
  userClick,
  warnings,
  watch,
} from './helpers.js';

const DEMO: readonly string[] = DEMO_INTEGRATION_PROVIDERS;

const root = (list: ConnectIntegrations) => list.shadowRoot!;
const rows = (list: ConnectIntegrations) => [...root(list).querySelectorAll<HTMLLIElement>('li[part=row]')];
const rowElements = (list: ConnectIntegrations) => [
  ...root(list).querySelectorAll<ConnectProvider>('connect-provider'),
];
/** The row of a provider, found as a page would: by its element's provider attribute. */
const rowOf = (list: ConnectIntegrations, provider: string) =>
  root(list).querySelector(`connect-provider[provider="${provider}"]`)!.closest('li')!;
const stateOf = (list: ConnectIntegrations, provider: string) => rowOf(list, provider).dataset.state;
const badgeOf = (list: ConnectIntegrations, provider: string) =>
  rowOf(list, provider).querySelector('[part=badge]')!.textContent!.trim();
const said = (list: ConnectIntegrations) => root(list).querySelector('[role=status]')!.textContent!.trim();
const visible = (list: ConnectIntegrations) =>
  rows(list)
    .filter((row) => !row.hidden)
    .map((row) => row.querySelector('connect-provider')!.getAttribute('provider'));

/** The endpoint of the observed front for `tag` (its requests logged, faults set with setFault). */
const endpointOf = (tag: string, mode = 'ok') => `/observe/${tag}/${mode}/api/connect`;

async function make({
  mode = 'ok',
  tag = uniqueTag(),
  providers = '',
  attributes = {},
  lang = 'en',
}: {
  mode?: string;
  tag?: string;
  providers?: string;
  attributes?: Record<string, string>;
  lang?: string;
} = {}) {
  const box = (await fixture(html`<div lang=${lang}></div>`)) as HTMLElement;
  const list = document.createElement('connect-integrations');
  list.setAttribute('endpoint', endpointOf(tag, mode));
  if (providers) list.setAttribute('providers', providers);
  for (const [name, value] of Object.entries(attributes)) list.setAttribute(name, value);
  box.append(list);
  return { list, tag };
}

/** Waits until every row's element read its connection. */
async function settled(list: ConnectIntegrations, count: number) {
  await waitUntil(
    () => rowElements(list).length === count && rowElements(list).every((row) => row.hasAttribute('connection-status')),
    `not ${count} rows read`,
    { timeout: 10000 },
  );
}

/** Records the list's own events from now on. */
function record(list: ConnectIntegrations) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the three events' details, read loosely by tests
  const seen: Array<{ type: string; detail: any }> = [];
  for (const type of ['connect-integrations-loaded', 'connect-integrations-change', 'connect-integrations-error'])
    list.addEventListener(type, (e) => seen.push({ type, detail: (e as CustomEvent).detail }));
  return {
    seen,
    types: () => seen.map((e) => e.type),
    of: (type: string) => seen.filter((e) => e.type === type).map((e) => e.detail),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Types as a person does, a key at a time (WebKit's driver drops the second of two same letters typed at once). */
async function type(text: string) {
  for (const key of text) await sendKeys({ type: key });
}

describe('<connect-integrations> as a settings page', () => {
  let group = '';
  freshSessionEachTest((session) => (group = session.group));

  describe('its events', () => {
    it('should tell connect-integrations-change once after a flow connects a row, and once after a disconnect', async () => {
      const { list } = await make({
        providers: 'salesforce apollo',
        attributes: { disconnectable: '', 'forms-open': '' },
      });
      const events = record(list);
      await settled(list, 2);
      await waitUntil(() => events.of('connect-integrations-loaded').length === 1, 'not loaded');
      expect(events.of('connect-integrations-change'), 'nothing changed at load').to.have.length(0);
      const apollo = rowElements(list)[1];
      apollo.shadowRoot!.querySelector<HTMLInputElement>('[part=field]')!.focus();
      await type('a-good-key');
      const typed = apollo.shadowRoot!.querySelector<HTMLInputElement>('[part=field]')!.value;
      expect(typed, 'the key, typed').to.equal('a-good-key');
      const w = watch(apollo);
      // As a person: the click comes a moment after the last key (WebKit's driver clicks within the same task).
      await pause(300);
      await userClick(apollo);
      expect((await ended(w)).type).to.equal('connect-success');
      await waitUntil(() => events.of('connect-integrations-change').length === 1, 'no change after the flow');
      // The rows settle (their states, a re-render): still one.
      await pause(600);
      const changes = events.of('connect-integrations-change');
      expect(changes).to.have.length(1);
      expect(changes[0]).to.deep.include({ connected: 1, attention: 0, total: 2 });
      const detail = changes[0].integrations.find((i: { provider: string }) => i.provider === 'apollo');
      expect(detail.state).to.equal('connected');
      expect(detail.connection.status).to.equal('working');
      expect(detail.displayName).to.equal('Apollo');

      await apollo.disconnect();
      await waitUntil(() => events.of('connect-integrations-change').length === 2, 'no change after the disconnect');
      await pause(600);
      expect(events.of('connect-integrations-change')).to.have.length(2);
      expect(events.of('connect-integrations-change')[1]).to.deep.include({ connected: 0, attention: 0, total: 2 });
      expect(stateOf(list, 'apollo')).to.equal('none');
    });

    for (const [name, mode, providers, status, text] of [
      ['a 404 (no such route)', 'missing', '', 404, 'The integrations are not set up on this site.'],
      ['a backend that answers HTML', 'html', '', 200, 'The integrations are not set up on this site.'],
      [
        'a backend that answers HTML, with the providers attribute',
        'html',
        'slack hubspot',
        200,
        'The integrations are not set up on this site.',
      ],
    ] as const)
      it(`should say ${name}: error, loaded with the error, one console warning naming the route`, async () => {
        let list!: ConnectIntegrations;
        let events!: ReturnType<typeof record>;
        const seen = await warnings(async () => {
          ({ list } = await make({ mode, providers }));
          events = record(list);
          await waitUntil(() => events.of('connect-integrations-loaded').length === 1, 'loaded never fired');
          // Try again fails the same way: no second warning.
          await waitUntil(() => root(list).querySelector('[part=retry]'), 'no retry');
          root(list).querySelector<HTMLButtonElement>('[part=retry]')!.click();
          await waitUntil(() => events.of('connect-integrations-loaded').length === 2, 'loaded not fired again');
        });
        const [error] = events.of('connect-integrations-error');
        expect(error.code).to.equal('http_error');
        expect(error.problem.status).to.equal(status);
        expect(error.message).to.include(`GET ${list.endpoint}/integrations answered ${status}`);
        const [loaded] = events.of('connect-integrations-loaded');
        expect(loaded.integrations).to.deep.equal([]);
        expect(loaded.error).to.deep.equal(error);
        expect(events.types().slice(0, 2)).to.deep.equal(['connect-integrations-error', 'connect-integrations-loaded']);
        expect(rowElements(list), 'no row of a backend that is not one').to.have.length(0);
        expect(said(list)).to.equal(text);
        expect(seen, seen.join('\n')).to.have.length(1);
        expect(seen[0]).to.match(/^<connect-integrations>: GET \S+\/integrations answered/);
        // The two likely fixes, worded as the element words them (developer-messages.ts).
        expect(seen[0]).to.include(
          `not a connect backend: check the endpoint attribute ("${list.endpoint}", here ${location.origin}${list.endpoint}), or where the server mounts the connect handler`,
        );
      });

    it('should say a list refused 401 as signed out, with the error and loaded, warned once', async () => {
      document.cookie = 'sid=; path=/; max-age=0';
      let list!: ConnectIntegrations;
      let events!: ReturnType<typeof record>;
      const seen = await warnings(async () => {
        ({ list } = await make());
        events = record(list);
        await waitUntil(() => events.of('connect-integrations-loaded').length === 1, 'loaded never fired');
      });
      const [error] = events.of('connect-integrations-error');
      expect(error).to.deep.include({ code: 'http_error' });
      expect(error.problem.status).to.equal(401);
      expect(events.of('connect-integrations-loaded')[0]).to.deep.equal({ integrations: [], error });
      expect(said(list)).to.equal('Sign in to see your integrations.');
      expect(seen).to.deep.equal([
        `<connect-integrations>: GET ${list.endpoint}/integrations answered 401: is the user signed in?`,
      ]);
    });

    it('should fire loaded with an error when the connections cannot be read, the rows unknown', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: 'GET /api/connect/connections', status: 503, retryable: false, count: 100 });
      const { list } = await make({ tag, providers: 'slack hubspot' });
      const events = record(list);
      await waitUntil(() => events.of('connect-integrations-loaded').length === 1, 'loaded never fired');
      const [loaded] = events.of('connect-integrations-loaded');
      expect(loaded.error.problem.status).to.equal(503);
      expect(loaded.integrations.map((i: { state: string }) => i.state)).to.deep.equal(['unknown', 'unknown']);
      expect(events.of('connect-integrations-error')).to.have.length(1);
    });
  });

  describe('its rows', () => {
    it('should let the page find each row by its provider attribute, its state in data-state and a badge', async () => {
      await seedConnection(group, 'hubspot', 'allow');
      await seedConnection(group, 'slack', 'allow_bad_credentials');
      const tag = uniqueTag();
      // The connections answer late: meanwhile every row is loading.
      await setFault(tag, { match: 'GET /api/connect/connections', delay: 1500 });
      const { list } = await make({ tag, providers: 'hubspot slack apollo' });
      await waitUntil(() => rowElements(list).length === 3, 'no rows');
      expect(rows(list).map((row) => row.dataset.state)).to.deep.equal(['loading', 'loading', 'loading']);
      await settled(list, 3);
      await list.updateComplete;
      expect([stateOf(list, 'hubspot'), stateOf(list, 'slack'), stateOf(list, 'apollo')]).to.deep.equal([
        'connected',
        'attention',
        'none',
      ]);
      expect([badgeOf(list, 'hubspot'), badgeOf(list, 'slack'), badgeOf(list, 'apollo')]).to.deep.equal([
        'Connected',
        'Needs attention',
        'Not connected',
      ]);
      // The row is a group named by the provider's name and its badge: entering its button, a screen reader hears both.
      const named = rowOf(list, 'slack').querySelector('[role=group]')!;
      const names = named
        .getAttribute('aria-labelledby')!
        .split(' ')
        .map((id) => root(list).getElementById(id)!.textContent!.trim());
      expect(names).to.deep.equal(['Slack', 'Needs attention']);
    });

    it("should badge every row Couldn't check when the connections cannot be read, never a guessed state", async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: 'GET /api/connect/connections', status: 503, retryable: false, count: 100 });
      const { list } = await make({ tag, providers: 'slack hubspot' });
      await waitUntil(() => rowElements(list).length === 2 && stateOf(list, 'slack') === 'unknown', 'not unknown');
      await list.updateComplete;
      expect([stateOf(list, 'slack'), stateOf(list, 'hubspot')]).to.deep.equal(['unknown', 'unknown']);
      expect([badgeOf(list, 'slack'), badgeOf(list, 'hubspot')]).to.deep.equal(['Couldn’t check', 'Couldn’t check']);
      expect(said(list)).to.equal('Your connections could not be checked.');
      // Try again, once the backend answers: the rows show their state.
      await clearFaults(tag);
      root(list).querySelector<HTMLButtonElement>('[part=retry]')!.click();
      await waitUntil(() => stateOf(list, 'slack') === 'none' && stateOf(list, 'hubspot') === 'none', 'not read again');
      expect(said(list)).to.equal('');
    });

    it('should give each row compact, and formOnDemand unless forms-open', async () => {
      const { list } = await make({ providers: 'slack apollo' });
      await settled(list, 2);
      expect(rowElements(list).map((row) => [row.compact, row.formOnDemand])).to.deep.equal([
        [true, true],
        [true, true],
      ]);
      list.formsOpen = true;
      await list.updateComplete;
      expect(list.hasAttribute('forms-open'), 'reflected').to.equal(true);
      expect(rowElements(list).map((row) => row.formOnDemand)).to.deep.equal([false, false]);
    });

    it("should lay every row out alike: the action at the end of the name's line, a form across the row below", async () => {
      await seedConnection(group, 'slack', 'allow');
      const { list } = await make({ providers: 'slack salesforce apollo', attributes: { disconnectable: '' } });
      list.style.cssText = 'display: block; width: 640px';
      await settled(list, 3);
      await pause(200);
      const box = (el: Element) => el.getBoundingClientRect();
      for (const provider of ['slack', 'salesforce', 'apollo']) {
        const row = rowOf(list, provider);
        const element = row.querySelector('connect-provider')!;
        // Connected (Reconnect, Disconnect) or not: on the name's line, at its end.
        expect(Math.round(box(element).right), provider).to.equal(Math.round(box(row).right));
        expect(box(element).top, provider).to.be.below(box(row.querySelector('.name')!).bottom);
        expect(box(element).left, provider).to.be.above(box(row.querySelector('strong')!).right);
      }
      // Apollo signs in with a form: once open, the element spans the row, below the name.
      list.formsOpen = true;
      const apollo = rowOf(list, 'apollo');
      const element = apollo.querySelector('connect-provider')!;
      await waitUntil(
        () => Math.round(box(element).left) === Math.round(box(apollo).left),
        'the form does not span the row',
      );
      expect(box(element).top).to.be.at.least(box(apollo.querySelector('strong')!).bottom);
    });

    it("should show a row's dark icon under a dark colour scheme", async () => {
      const { list } = await make({ providers: 'slack' });
      await settled(list, 1);
      const info = await (await fetch('/api/connect/providers/slack')).json();
      const img = rowOf(list, 'slack').querySelector<HTMLImageElement>('.name img')!;
      const source = rowOf(list, 'slack').querySelector('source')!;
      expect(img.getAttribute('src')).to.equal(info.media.regular.iconURL);
      expect(source.getAttribute('srcset')).to.equal(info.media.darkMode.iconURL);
      expect(source.getAttribute('media')).to.equal('(prefers-color-scheme: dark)');
      try {
        await emulateMedia({ colorScheme: 'dark' });
      } catch {
        // Firefox through Puppeteer and WebKit through WebDriver cannot emulate it: the markup above is the check.
        return;
      }
      try {
        await waitUntil(() => img.currentSrc === info.media.darkMode.iconURL, img.currentSrc);
      } finally {
        await emulateMedia({ colorScheme: 'light' });
      }
    });

    it('should say under a connected row what it is connected to: the workspace and since when, in the list language', async () => {
      await seedConnection(group, 'salesforce', 'allow', { workspace: 'acme-corp' });
      for (const lang of ['en', 'de']) {
        const { list } = await make({ providers: 'salesforce slack', lang });
        await settled(list, 2);
        await list.updateComplete;
        const connection = rowElements(list)[0].connection!;
        const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(connection.createTime!));
        // (The date isolated for a text of the other direction, U+2068…U+2069, reads the same.)
        const detail = rowOf(list, 'salesforce')
          .querySelector('.detail')!
          .textContent!.replace(/[\u2068\u2069]/g, '');
        expect(detail).to.equal(`acme-corp · since ${date}`);
        expect(rowOf(list, 'slack').querySelector('.detail'), 'nothing under a row without a connection').to.equal(
          null,
        );
      }
    });
  });

  describe('signed out', () => {
    it('should show every row signed out and disabled when the connections are refused 401, and bring them back', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: 'GET /api/connect/connections', status: 401, count: 100 });
      const { list } = await make({ tag, providers: 'slack hubspot' });
      await waitUntil(
        () => rowElements(list).length === 2 && stateOf(list, 'slack') === 'signed-out',
        'not signed out',
      );
      await list.updateComplete;
      expect([badgeOf(list, 'slack'), badgeOf(list, 'hubspot')]).to.deep.equal([
        'Sign in to connect',
        'Sign in to connect',
      ]);
      expect(rowElements(list).map((row) => row.disabled)).to.deep.equal([true, true]);
      expect(said(list)).to.equal('Sign in to connect your integrations.');
      // The user signs in (elsewhere): Try again.
      await clearFaults(tag);
      root(list).querySelector<HTMLButtonElement>('[part=retry]')!.click();
      await waitUntil(() => stateOf(list, 'slack') === 'none' && stateOf(list, 'hubspot') === 'none', 'not back');
      expect(rowElements(list).map((row) => row.disabled)).to.deep.equal([false, false]);
      expect(root(list).querySelector('[part=retry]')).to.equal(null);
    });

    it('should bring the rows back when the browser is online again', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: 'GET /api/connect/connections', status: 401, count: 100 });
      const { list } = await make({ tag, providers: 'slack' });
      await waitUntil(
        () => rowElements(list).length === 1 && stateOf(list, 'slack') === 'signed-out',
        'not signed out',
      );
      await clearFaults(tag);
      dispatchEvent(new Event('online'));
      await waitUntil(() => stateOf(list, 'slack') === 'none', 'not back');
      expect(rowElements(list)[0].disabled).to.equal(false);
    });
  });

  describe('its summary', () => {
    it('should count the rows connected and needing attention, and filter the latter', async () => {
      await seedConnection(group, 'hubspot', 'allow');
      await seedConnection(group, 'slack', 'allow_bad_credentials');
      const { list } = await make({ providers: 'hubspot slack apollo', attributes: { summary: '' } });
      await settled(list, 3);
      await list.updateComplete;
      const summary = root(list).querySelector('[part=summary]')!;
      expect(summary.textContent!.replace(/\s+/g, ' ')).to.include('Connected: 1 · Needs attention: 1');
      const filter = root(list).querySelector<HTMLButtonElement>('[part=filter]')!;
      expect(filter.getAttribute('aria-pressed')).to.equal('false');
      expect(visible(list)).to.deep.equal(['hubspot', 'slack', 'apollo']);
      filter.click();
      await list.updateComplete;
      expect(filter.getAttribute('aria-pressed')).to.equal('true');
      expect(visible(list)).to.deep.equal(['slack']);
      filter.click();
      await list.updateComplete;
      expect(visible(list)).to.deep.equal(['hubspot', 'slack', 'apollo']);
    });
  });

  describe('its search', () => {
    const descriptions = {
      hubspot: 'Zoho Café',
      salesforce: 'Łódź office',
      slack: 'İstanbul team',
      apollo: 'Straße',
      clariCopilot: 'Øresund',
      paypal: 'Đakovo',
      netsuite: 'Ærø',
      zendesk: 'Œuvre',
    };
    for (const [query, found] of [
      ['zoho cafe', 'hubspot'],
      ['ZOHO CAFÉ', 'hubspot'],
      ['lodz', 'salesforce'],
      ['istanbul', 'slack'],
      ['strasse', 'apollo'],
      ['oresund', 'clariCopilot'],
      ['dakovo', 'paypal'],
      ['aero', 'netsuite'],
      ['oeuvre', 'zendesk'],
      ['spot hub', 'hubspot'],
    ] as const)
      it(`should find "${query}" without accents or case, over names and descriptions`, async () => {
        const { list } = await make();
        list.descriptions = descriptions;
        await settled(list, DEMO.length);
        const search = root(list).querySelector<HTMLInputElement>('[part=search]')!;
        search.focus();
        await type(query);
        await list.updateComplete;
        expect(visible(list), `typed "${search.value}"`).to.deep.equal([found]);
      });

    it('should say plainly when nothing matches, with a Clear button that empties the search and focuses it', async () => {
      const { list } = await make();
      await settled(list, DEMO.length);
      const region = root(list).querySelector('[role=status]');
      const search = root(list).querySelector<HTMLInputElement>('[part=search]')!;
      search.focus();
      await sendKeys({ type: 'xyz' });
      await list.updateComplete;
      // (Compared as booleans: chai describing two elements on a failure takes minutes.)
      expect(root(list).querySelector('[role=status]') === region, 'the same live region').to.equal(true);
      expect(said(list)).to.equal('No integration matches “xyz”.');
      expect(region!.checkVisibility()).to.equal(true);
      const clear = root(list).querySelector<HTMLButtonElement>('[part=clear]')!;
      expect(clear.textContent!.trim()).to.equal('Clear search');
      clear.focus();
      await sendKeys({ press: 'Enter' });
      await list.updateComplete;
      expect(search.value).to.equal('');
      expect(root(list).activeElement === search, 'the focus is in the search').to.equal(true);
      expect(visible(list)).to.have.length(DEMO.length);
      expect(said(list)).to.equal('');
    });
  });

  describe('its errors', () => {
    it('should keep the focus on Try again while it fails, then move it to the first row once loaded', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: 'GET /api/connect/integrations', status: 400, count: 2 });
      const { list } = await make({ tag });
      await waitUntil(() => root(list).querySelector('[part=retry]'), 'no retry');
      const region = root(list).querySelector('[role=status]');
      expect(said(list)).to.equal('The integrations could not be loaded.');
      const retry = root(list).querySelector<HTMLButtonElement>('[part=retry]')!;
      retry.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(
        async () => (await serverLog(tag)).filter((r) => r.path.endsWith('/integrations') && r.fault).length === 2,
        'no second read',
      );
      await pause(200);
      await list.updateComplete;
      expect(root(list).activeElement === retry, 'still on Try again').to.equal(true);
      await sendKeys({ press: 'Enter' });
      await settled(list, DEMO.length);
      const first = rowElements(list)[0];
      await waitUntil(() => root(list).activeElement === first, 'the focus did not move to the first row');
      expect(first.shadowRoot!.activeElement === button(first), "on the row's button").to.equal(true);
      expect(root(list).querySelector('[role=status]') === region, 'the live region stayed').to.equal(true);
    });
  });

  describe('one round trip', () => {
    it('should ask for the connections before the integrations answered', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: 'GET /api/connect/integrations', delay: 800 });
      const { list } = await make({ tag });
      await settled(list, DEMO.length);
      const log = await serverLog(tag);
      const integrations = log.find((r) => r.path === '/api/connect/integrations')!;
      const connections = log.find((r) => r.path === '/api/connect/connections')!;
      expect(log.map((r) => r.path).sort()).to.deep.equal(['/api/connect/connections', '/api/connect/integrations']);
      expect(connections.at - integrations.at, 'asked at once, not after the 800 ms answer').to.be.below(400);
    });
  });

  describe('for everyone', () => {
    afterEach(() => {
      document.documentElement.style.colorScheme = '';
      document.body.style.background = document.body.style.color = '';
    });
    const pages = [
      ['light', () => (document.documentElement.style.colorScheme = 'light')],
      [
        'dark',
        () => {
          document.documentElement.style.colorScheme = 'dark';
          document.body.style.background = '#111827';
          document.body.style.color = '#f9fafb';
        },
      ],
    ] as const;
    for (const [page, set] of pages) {
      it(`should pass axe on a ${page} page: the summary shown, then filtered`, async () => {
        set();
        await seedConnection(group, 'slack', 'allow_bad_credentials');
        const { list } = await make({ attributes: { summary: '' } });
        await settled(list, DEMO.length);
        await list.updateComplete;
        await expect(list).to.be.accessible();
        root(list).querySelector<HTMLButtonElement>('[part=filter]')!.click();
        await list.updateComplete;
        expect(visible(list)).to.deep.equal(['slack']);
        await expect(list).to.be.accessible();
      });

      it(`should pass axe on a ${page} page: signed out`, async () => {
        set();
        const tag = uniqueTag();
        await setFault(tag, { match: 'GET /api/connect/connections', status: 401, count: 100 });
        const { list } = await make({ tag, attributes: { summary: '' } });
        await waitUntil(
          () =>
            rowElements(list).length === DEMO.length && rows(list).every((row) => row.dataset.state === 'signed-out'),
          'not signed out',
        );
        await Promise.all(rowElements(list).map((row) => row.updateComplete));
        await expect(list).to.be.accessible();
      });

      it(`should pass axe on a ${page} page: a search that matches nothing`, async () => {
        set();
        const { list } = await make({ attributes: { summary: '' } });
        await settled(list, DEMO.length);
        root(list).querySelector<HTMLInputElement>('[part=search]')!.focus();
        await sendKeys({ type: 'xyz' });
        await list.updateComplete;
        await expect(list).to.be.accessible();
      });
    }
  });
});
