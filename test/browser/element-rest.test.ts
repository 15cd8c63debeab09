// The element at rest, on a settings page: it reads the caller's connection
// before any click (one list request per endpoint, one provider request per
// provider, however many elements), shows it, reconnects it through the
// update flow with no host code, disconnects it after a confirmation in
// place, names the provider by its displayName and asks for the inputs the
// provider needs. Real handler, real emulator, popup blocker on.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  answerConsent,
  button,
  ended,
  freshSessionEachTest,
  seedConnection,
  serverLog,
  uniqueTag,
  userClick,
  waitPopup,
  watch,
  type CapturedPopups,
  statusText,
} from './helpers.js';

async function loaded(el: ConnectProvider): Promise<void> {
  await waitUntil(() => el.hasAttribute('connection-status'), 'no connection-status', { timeout: 5000 });
  await el.updateComplete;
}

describe('<connect-provider> at rest', () => {
  let popups: CapturedPopups;
  let group: string;
  freshSessionEachTest((session) => ({ group, popups } = session));

  it('should say none and offer Connect with the brand name when the caller has no connection', async () => {
    const el = (await fixture(
      html`<connect-provider endpoint="/api/connect" provider="hubspot"></connect-provider>`,
    )) as ConnectProvider;
    const heard: unknown[] = [];
    el.addEventListener('connect-loaded', (e) => heard.push(e.detail.connection));
    await loaded(el);
    expect(el.getAttribute('connection-status')).to.equal('none');
    await waitUntil(() => button(el).textContent === 'Connect HubSpot', `label: ${button(el).textContent}`);
    expect(statusText(el)).to.equal('');
    expect(el.connection).to.equal(undefined);
  });

  it('should show a bad_credentials connection and reconnect it through oauth-update, with no host code', async () => {
    const id = await seedConnection(group, 'hubspot', 'allow_bad_credentials');
    const el = (await fixture(
      html`<connect-provider endpoint="/api/connect" provider="hubspot" poll-interval="100"></connect-provider>`,
    )) as ConnectProvider;
    await loaded(el);
    expect(el.getAttribute('connection-status')).to.equal('bad_credentials');
    expect(el.connection!.id).to.equal(id);
    expect(statusText(el)).to.equal('HubSpot needs you to sign in again.');
    expect(button(el).textContent).to.equal('Reconnect HubSpot');
    const w = watch(el);
    await userClick(el);
    expect(w.events[0]).to.deep.equal({
      type: 'connect-start',
      detail: { mode: 'update', scheme: 'popup', provider: 'hubspot' },
    });
    await answerConsent(await waitPopup(popups), 'allow');
    const end = await ended(w);
    expect(end.type).to.equal('connect-success');
    expect(end.detail.connection.id, 'the same connection, updated').to.equal(id);
    await el.updateComplete;
    expect(el.getAttribute('connection-status'), 'the rest state follows the outcome').to.equal('working');
    expect(statusText(el)).to.equal('Connected to HubSpot');
  });

  it('should read once per endpoint for many elements, and once per provider', async () => {
    const tag = uniqueTag();
    await seedConnection(group, 'slack', 'allow');
    const endpoint = `/observe/${tag}/real/api/connect`;
    const box = (await fixture(html`<div>
      <connect-provider endpoint=${endpoint} provider="slack"></connect-provider>
      <connect-provider endpoint=${endpoint} provider="slack"></connect-provider>
      <connect-provider endpoint=${endpoint} provider="hubspot"></connect-provider>
      <connect-provider endpoint=${endpoint} provider="salesforce"></connect-provider>
    </div>`)) as HTMLElement;
    const elements = [...box.querySelectorAll('connect-provider')];
    for (const el of elements) await loaded(el);
    expect(elements.map((el) => el.getAttribute('connection-status'))).to.deep.equal([
      'working',
      'working',
      'none',
      'none',
    ]);
    // connection-status comes from the list; a provider's read may still be on its way then (seen in CI's Firefox).
    const log = async () => (await serverLog(tag)).map((r) => `${r.method} ${r.path}`);
    const providerReads = async () => (await log()).filter((r) => r.startsWith('GET /api/connect/providers/'));
    await waitUntil(async () => (await providerReads()).length >= 3, 'a provider was never read', { timeout: 5000 });
    expect((await log()).filter((r) => r === 'GET /api/connect/connections')).to.have.length(1);
    expect((await providerReads()).sort()).to.deep.equal([
      'GET /api/connect/providers/hubspot',
      'GET /api/connect/providers/salesforce',
      'GET /api/connect/providers/slack',
    ]);
  });

  it('should disconnect only after a confirmation in place, and show Connect again', async () => {
    const id = await seedConnection(group, 'slack', 'allow');
    const el = (await fixture(
      html`<connect-provider endpoint="/api/connect" provider="slack" disconnectable></connect-provider>`,
    )) as ConnectProvider;
    await loaded(el);
    const heard: unknown[] = [];
    const w = watch(el);
    el.addEventListener('connect-disconnect', (e) => heard.push(e.detail.connection.id));
    await userClick(el, 'disconnect');
    await el.updateComplete;
    expect(statusText(el)).to.equal('Disconnect Slack?');
    expect(heard, 'nothing before the confirmation').to.deep.equal([]);
    await userClick(el, 'disconnect');
    await waitUntil(() => heard.length === 1, 'no connect-disconnect');
    expect(heard).to.deep.equal([id]);
    await el.updateComplete;
    expect(el.getAttribute('connection-status')).to.equal('none');
    expect(button(el).textContent).to.equal('Connect Slack');
    expect(w.events, 'a disconnect is not a flow').to.deep.equal([]);
    const list = await (await fetch('/api/connect/connections?provider=slack')).json();
    expect(list, 'the platform no longer has it').to.deep.equal([]);
  });

  it('should keep the connection and say so when the disconnect fails', async () => {
    const id = await seedConnection(group, 'slack', 'allow');
    const el = (await fixture(
      html`<connect-provider endpoint="/api/connect" provider="slack" disconnectable></connect-provider>`,
    )) as ConnectProvider;
    await loaded(el);
    // The boundary under test: the backend refuses the DELETE.
    const real = window.fetch;
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'DELETE'
        ? Promise.resolve(
            new Response(JSON.stringify({ status: 503, title: 'Service Unavailable' }), {
              status: 503,
              headers: { 'content-type': 'application/problem+json' },
            }),
          )
        : real(input, init)) as typeof fetch;
    try {
      const error = await el.disconnect().then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.name).to.equal('ConnectError');
    } finally {
      window.fetch = real;
    }
    await el.updateComplete;
    expect(el.getAttribute('connection-status')).to.equal('working');
    expect(statusText(el)).to.equal('Could not disconnect Slack. Please try again.');
    // Kept, not only in the attribute: the element still holds it, offers Reconnect, and a retry disconnects it.
    expect(el.connection?.id, 'the connection is kept').to.equal(id);
    expect(button(el).textContent).to.equal('Reconnect Slack');
    expect(button(el, 'disconnect'), 'Disconnect is still offered').to.exist;
    const heard: string[] = [];
    el.addEventListener('connect-disconnect', (e) => heard.push(e.detail.connection.id));
    await userClick(el, 'disconnect');
    await el.updateComplete;
    await userClick(el, 'disconnect');
    await waitUntil(() => heard.length === 1, 'the retry did not disconnect');
    expect(heard).to.deep.equal([id]);
    await el.updateComplete;
    expect(el.getAttribute('connection-status')).to.equal('none');
  });

  it('should ask for a required workspace: an empty click opens and sends nothing; a filled one carries it', async () => {
    const tag = uniqueTag();
    const el = (await fixture(
      html`<connect-provider endpoint="/observe/${tag}/real/api/connect" provider="zendesk"></connect-provider>`,
    )) as ConnectProvider;
    await loaded(el);
    await waitUntil(() => el.shadowRoot!.querySelector('[part=field]'), 'no field');
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('[part=field]')!;
    expect(input.labels![0].textContent).to.contain('Zendesk workspace');
    const w = watch(el);
    await userClick(el);
    await el.updateComplete;
    expect(w.events, 'no flow').to.deep.equal([]);
    expect(popups.popups, 'no popup').to.have.length(0);
    expect(el.shadowRoot!.activeElement).to.equal(input);
    expect(statusText(el)).to.contain('Zendesk workspace');
    expect((await serverLog(tag)).filter((r) => r.method === 'POST')).to.deep.equal([]);
    input.value = 'acme';
    input.dispatchEvent(new Event('input'));
    await userClick(el);
    await waitPopup(popups);
    el.cancel();
    await ended(w);
    const post = (await serverLog(tag)).find((r) => r.method === 'POST')!;
    expect(JSON.parse(post.body).providerWorkspaceRef).to.equal('acme');
  });

  it('should keep what a flow or a disconnect ended with when an older read of the connection answers later', async () => {
    const tag = uniqueTag();
    const endpoint = `/observe/${tag}/stale-list/api/connect`;
    /** Lets the held reads at rest answer, once each has reached this page: how many were held. */
    const releaseReads = async () => {
      const list = (entry: PerformanceEntry) =>
        entry.name.endsWith(`/observe/${tag}/stale-list/api/connect/connections`);
      const before = performance.getEntriesByType('resource').filter(list).length;
      const held = (await (await fetch(`/__test__/release-reads?tag=${tag}`)).json()) as number;
      await waitUntil(
        () => performance.getEntriesByType('resource').filter(list).length >= before + held,
        'a released read never reached the page',
        { timeout: 5000 },
      );
      return held;
    };
    const el = (await fixture(
      html`<connect-provider endpoint=${endpoint} provider="slack" poll-interval="100" disconnectable></connect-provider>`,
    )) as ConnectProvider;
    // Clicked while the read at rest (the caller has none) is still on its way: the server holds it.
    const w = watch(el);
    await userClick(el);
    await answerConsent(await waitPopup(popups), 'allow');
    expect((await ended(w)).type).to.equal('connect-success');
    expect(el.getAttribute('connection-status')).to.equal('working');
    expect(await releaseReads(), 'the read at rest was still on its way when the flow ended').to.be.at.least(1);
    await el.updateComplete;
    expect(el.getAttribute('connection-status'), 'the stale list (none) does not undo the flow').to.equal('working');
    expect(button(el).textContent).to.equal('Reconnect Slack');

    // A disconnect while another element's read, asked before it, is on its way.
    const reads = async () =>
      (await serverLog(tag)).filter((r) => r.method === 'GET' && /\/connections(\?|$)/.test(r.path)).length;
    const readsBefore = await reads();
    const other = document.createElement('connect-provider');
    Object.assign(other, { endpoint, provider: 'slack' });
    el.after(other);
    await waitUntil(async () => (await reads()) > readsBefore, "the other's read never reached the server");
    await userClick(el, 'disconnect');
    await userClick(el, 'disconnect');
    await waitUntil(() => el.getAttribute('connection-status') === 'none', 'not disconnected', { timeout: 3000 });
    expect(other.hasAttribute('connection-status'), "the other's read is still on its way").to.equal(false);
    expect(await releaseReads(), "the other's read was held").to.be.at.least(1);
    await waitUntil(() => other.hasAttribute('connection-status'), 'the other read never answered', { timeout: 6000 });
    await other.updateComplete;
    expect(other.getAttribute('connection-status'), 'the stale list does not bring it back').to.equal('none');
    other.remove();
  });
});

describe('<connect-provider> at rest: the icon and the reads again', () => {
  freshSessionEachTest(() => {});

  for (const [icon, shown] of [
    ['https://cdn.example/icon.svg', true],
    ['http://localhost:1/icon.svg', true],
    ['http://cdn.example/icon.svg', false],
    ['javascript:alert(1)', false],
    ['data:image/svg+xml,<svg/>', false],
  ] as const) {
    it(`should ${shown ? 'show' : 'not show'} the icon ${icon}`, async () => {
      const el = (await fixture(
        html`<connect-provider endpoint=${`/fixture/icons/${encodeURIComponent(icon)}`} provider="iconic"></connect-provider>`,
      )) as ConnectProvider;
      // The provider's answer has arrived once its displayName is in the label.
      await waitUntil(() => button(el).textContent === 'Connect Icon Test', `label: ${button(el).textContent}`);
      const img = el.shadowRoot!.querySelector<HTMLImageElement>('[part=icon]');
      expect(img !== null, 'an icon').to.equal(shown);
      if (img) {
        expect(img.getAttribute('src')).to.equal(icon);
        expect(img.getAttribute('alt')).to.equal('');
      }
    });
  }

  it('should keep the button its size when the provider name and icon arrive', async () => {
    const tag = uniqueTag();
    const el = (await fixture(
      html`<connect-provider endpoint="/observe/${tag}/slow-provider/api/connect" provider="slack"></connect-provider>`,
    )) as ConnectProvider;
    // Once the connection is read, the label is final (no "Connect" guess before: section "At rest").
    await waitUntil(() => el.hasAttribute('connection-status'), 'the connection was not read');
    await el.updateComplete;
    const before = button(el).getBoundingClientRect();
    expect(el.shadowRoot!.querySelector('img'), 'the provider is not known yet').to.equal(null);
    await waitUntil(() => el.shadowRoot!.querySelector<HTMLImageElement>('img[part=icon]')?.complete, 'no icon', {
      timeout: 4000,
    });
    const after = button(el).getBoundingClientRect();
    expect(button(el).textContent).to.equal('Connect Slack');
    expect([after.width, after.height], 'no layout jump').to.deep.equal([before.width, before.height]);
  });

  it('should read the connection again when the page comes back after a minute hidden, not after seconds', async () => {
    const tag = uniqueTag();
    const el = (await fixture(
      html`<connect-provider endpoint="/observe/${tag}/real/api/connect" provider="slack"></connect-provider>`,
    )) as ConnectProvider;
    await loaded(el);
    const lists = async () =>
      (await serverLog(tag)).filter((r) => r.method === 'GET' && r.path === '/api/connect/connections').length;
    expect(await lists()).to.equal(1);
    // The Page Visibility API and the clock are the boundary under test.
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    const setHidden = (hidden: boolean) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    try {
      setHidden(true);
      now += 10_000;
      setHidden(false);
      await aTimeout(300);
      expect(await lists(), 'hidden 10 s: no new read').to.equal(1);
      setHidden(true);
      now += 61_000;
      setHidden(false);
      await waitUntil(async () => (await lists()) === 2, 'no second read after a minute hidden', { timeout: 3000 });
    } finally {
      Date.now = realNow;
      delete (document as { hidden?: boolean }).hidden;
    }
  });
});
