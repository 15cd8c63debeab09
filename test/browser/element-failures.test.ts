// A failure that passes never leaves the user looking at a wrong state or stuck (docs/architecture.md, "A flow,
// and the rest state"): a proxy's HTML 5xx is retried like any 5xx, a read at rest that fails is
// retried and then read again (on `online`, when shown, before a click acts on it), a connection deleted behind the
// element's back ends any flow on it truthfully, offline periods spend no retries, and a click while waiting for a
// popup that reads closed starts over. Real handler and emulator, behind a front that injects one fault at a time.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  answerConsent,
  button,
  clearFaults,
  ended,
  freshSessionEachTest,
  goOffline,
  placeElement,
  held,
  seedConnection,
  serverLog,
  setFault,
  statusText,
  uniqueTag,
  userClick,
  waitEvent,
  waitPopup,
  warnings,
  watch,
  type CapturedPopups,
} from './helpers.js';

/** GET of one connection (a poll), the list at rest, a provider, oauth-connect. */
const ONE_CONNECTION = '^GET /api/connect/connections/[^/?]+$';
const LIST = '^GET /api/connect/connections$';
const OAUTH_CONNECT = '^POST /api/connect/oauth-connect$';

const make = (tag: string, provider = 'slack', attributes = ''): Promise<ConnectProvider> =>
  placeElement(`/observe/${tag}/real/api/connect`, provider, attributes);

const label = (el: ConnectProvider) => button(el).textContent!.trim();

describe('<connect-provider> failures that pass', () => {
  let popups: CapturedPopups;
  let group: string;
  freshSessionEachTest((session) => ({ group, popups } = session));

  describe("a proxy's HTML error page", () => {
    it('should retry an HTML 502 while verifying and end in success, with no "not a connect backend" warning', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: ONE_CONNECTION, status: 502, html: true, count: 1 });
      const el = await make(tag, 'slack', 'poll-interval="100"');
      const w = watch(el);
      const seen = await warnings(async () => {
        await userClick(el);
        await answerConsent(await waitPopup(popups), 'allow');
        const end = await ended(w);
        expect(end.type, JSON.stringify(end.detail)).to.equal('connect-success');
      });
      expect(seen.filter((s) => s.includes('not a connect backend'))).to.deep.equal([]);
      expect(
        (await serverLog(tag)).filter((r) => r.fault === 502),
        'the fault was met',
      ).to.have.length(1);
    });

    it('should retry an HTML 502 to oauth-connect and open the consent page', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: OAUTH_CONNECT, status: 502, html: true, count: 1 });
      const el = await make(tag, 'slack', 'poll-interval="100"');
      const w = watch(el);
      await userClick(el);
      await answerConsent(await waitPopup(popups), 'allow');
      expect((await ended(w)).type).to.equal('connect-success');
      const posts = (await serverLog(tag)).filter((r) => r.method === 'POST');
      expect(posts.map((r) => r.fault ?? 'passed')).to.deep.equal([502, 'passed']);
    });

    it('should still take an HTML 200 as "not a connect backend", at once', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: OAUTH_CONNECT, status: 200, html: true, count: 1 });
      const el = await make(tag);
      const w = watch(el);
      const seen = await warnings(async () => {
        await userClick(el);
        const end = await ended(w);
        expect([end.type, end.detail.code]).to.deep.equal(['connect-error', 'http_error']);
      });
      expect(
        seen.some((s) => s.includes('not a connect backend')),
        seen.join('\n'),
      ).to.equal(true);
      expect((await serverLog(tag)).filter((r) => r.method === 'POST')).to.have.length(1);
    });
  });

  describe('reads at rest', () => {
    it('should retry a 502 to the list read and show the connection', async () => {
      const tag = uniqueTag();
      await seedConnection(group, 'slack', 'allow');
      await setFault(tag, { match: LIST, status: 502, html: true, count: 1 });
      const el = await make(tag);
      await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not shown as connected', {
        timeout: 6000,
      });
      await el.updateComplete;
      expect(label(el)).to.equal('Reconnect Slack');
    });

    it('should stay unknown while the list read fails, then read again on `online`', async () => {
      const tag = uniqueTag();
      await seedConnection(group, 'slack', 'allow');
      await setFault(tag, { match: LIST, status: 503, count: 100 });
      const el = await make(tag);
      // The retries give up (seconds): unknown, no connection-status, no "Reconnect" guess.
      await waitUntil(
        async () => (await serverLog(tag)).filter((r) => r.fault === 503).length >= 2,
        'the read was not retried',
        { timeout: 8000 },
      );
      await aTimeout(9000);
      expect(el.hasAttribute('connection-status')).to.equal(false);
      expect(label(el)).to.not.equal('Reconnect Slack');
      await clearFaults(tag);
      dispatchEvent(new Event('online'));
      await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read again on online', {
        timeout: 4000,
      });
    }).timeout(30000);

    it('should read a failed provider again before a click acts on it (a workspace input appears, no popup)', async () => {
      const tag = uniqueTag();
      await setFault(tag, { match: '^GET /api/connect/providers/zendesk$', status: 502, count: 100 });
      const el = await make(tag, 'zendesk');
      await waitUntil(
        async () => (await serverLog(tag)).filter((r) => r.fault === 502).length >= 3,
        'the provider read was not retried',
        { timeout: 9000 },
      );
      await aTimeout(8000);
      expect(!!el.shadowRoot!.querySelector('[part=field]'), 'no workspace input while unknown').to.equal(false);
      await clearFaults(tag);
      const w = watch(el);
      await userClick(el);
      await waitUntil(() => el.shadowRoot!.querySelector('[part=field]'), 'the provider was not read again', {
        timeout: 4000,
      });
      await aTimeout(300);
      expect(popups.popups, 'no popup for a click that lacked the workspace').to.have.length(0);
      expect(w.types()).to.not.include('connect-popup');
    }).timeout(30000);

    it('should keep the button neutral and busy until the connection is read, and let no click start a flow', async () => {
      const tag = uniqueTag();
      await seedConnection(group, 'slack', 'allow');
      const el = await placeElement(`/observe/${tag}/stale-list/api/connect`, 'slack');
      await waitUntil(() => label(el) === 'Slack', `label: ${label(el)}`);
      expect(button(el).getAttribute('aria-busy')).to.equal('true');
      const w = watch(el);
      button(el).click();
      await aTimeout(100);
      expect(w.types(), 'a click while reading starts nothing').to.deep.equal([]);
      // The server holds the read until now; once released, the connection it finds is shown.
      const released = async () => (await (await fetch(`/__test__/release-reads?tag=${tag}`)).json()) >= 1;
      await waitUntil(released, 'the read at rest never reached the server', { timeout: 5000 });
      await waitUntil(() => label(el) === 'Reconnect Slack', `label: ${label(el)}`, { timeout: 5000 });
    }).timeout(15000);

    it('should reuse a list read answered under 2 s ago for elements added a little later', async () => {
      const tag = uniqueTag();
      const box = (await fixture(html`<div></div>`)) as HTMLElement;
      for (let i = 0; i < 4; i++) {
        box.insertAdjacentHTML(
          'beforeend',
          `<connect-provider endpoint="/observe/${tag}/real/api/connect" provider="slack"></connect-provider>`,
        );
        await waitUntil(() => box.lastElementChild!.hasAttribute('connection-status'), 'not read');
        await aTimeout(200);
      }
      const lists = (await serverLog(tag)).filter((r) => r.method === 'GET' && r.path === '/api/connect/connections');
      expect(lists).to.have.length(1);
    });
  });

  describe('a connection deleted behind the element', () => {
    it("should end a reconnect on another tab's deleted connection truthfully, and connect anew on the next click", async () => {
      const tag = uniqueTag();
      const id = await seedConnection(group, 'slack', 'allow');
      const el = await make(tag, 'slack', 'poll-interval="100"');
      await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read');
      // Another tab disconnects it.
      expect((await fetch(`/api/connect/connections/${id}`, { method: 'DELETE' })).status).to.equal(204);
      const w = watch(el);
      await userClick(el);
      const end = await ended(w);
      expect([end.type, end.detail.code, end.detail.problem?.status]).to.deep.equal([
        'connect-error',
        'http_error',
        404,
      ]);
      await el.updateComplete;
      expect(el.getAttribute('connection-status'), 'the rest state drops to none').to.equal('none');
      expect(label(el)).to.equal('Connect Slack');
      await waitUntil(() => popups.popups.every((p) => p.closed), 'a popup was left open');
      const again = watch(el);
      await userClick(el);
      expect(again.events[0].detail.mode).to.equal('create');
      await answerConsent(await waitPopup(popups, 2), 'allow');
      expect((await ended(again)).type).to.equal('connect-success');
    });

    it('should end a reconnect whose connection another element disconnects, closing its popup before it lands on an error', async () => {
      const id = await seedConnection(group, 'slack', 'allow');
      const box = (await fixture(html`<div>
        <connect-provider endpoint="/api/connect" provider="slack" disconnectable></connect-provider>
        <connect-provider endpoint="/api/connect" provider="slack"></connect-provider>
      </div>`)) as HTMLElement;
      const [a, b] = [...box.querySelectorAll('connect-provider')];
      for (const el of [a, b]) await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read');
      const w = watch(b);
      await userClick(b);
      const popup = await waitPopup(popups);
      await waitEvent(w, 'connect-popup');
      await userClick(a, 'disconnect');
      await a.updateComplete;
      await userClick(a, 'disconnect');
      const end = await ended(w);
      expect([end.type, end.detail.code, end.detail.problem?.status]).to.deep.equal([
        'connect-error',
        'http_error',
        404,
      ]);
      await waitUntil(() => popup.closed, "B's popup was left open");
      await b.updateComplete;
      expect(b.getAttribute('connection-status')).to.equal('none');
      expect(!!b.shadowRoot!.querySelector('[part=disconnect]'), 'no Disconnect for a gone connection').to.equal(false);
      expect(held(b)).to.equal(0);
      expect(id).to.be.a('string');
    });

    it('should take a 404 to Disconnect as done: the connection is gone', async () => {
      const tag = uniqueTag();
      const id = await seedConnection(group, 'slack', 'allow');
      const el = await make(tag, 'slack', 'disconnectable');
      await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read');
      expect((await fetch(`/api/connect/connections/${id}`, { method: 'DELETE' })).status).to.equal(204);
      await el.disconnect();
      await el.updateComplete;
      expect(el.getAttribute('connection-status')).to.equal('none');
      expect(statusText(el)).to.equal('Disconnected from Slack.');
    });
  });

  describe('offline', () => {
    it('should spend no retry while offline, and verify once back online', async () => {
      const tag = uniqueTag();
      const el = await make(tag, 'slack', 'poll-interval="100"');
      const w = watch(el);
      await userClick(el);
      const popup = await waitPopup(popups);
      await waitEvent(w, 'connect-popup');
      const back = await goOffline(tag);
      await answerConsent(popup, 'allow');
      // At a 100 ms interval, five failures in a row take about 3 s: offline for 6 s spends none of them.
      await aTimeout(6000);
      expect(
        w.types().filter((t) => t.startsWith('connect-') && ['connect-error', 'connect-cancel'].includes(t)),
      ).to.deep.equal([]);
      await back();
      const end = await ended(w);
      expect(end.type, JSON.stringify(end.detail)).to.equal('connect-success');
    }).timeout(20000);

    it('should read a failed read at rest again once online, and show the truth', async () => {
      const tag = uniqueTag();
      await seedConnection(group, 'slack', 'allow');
      await setFault(tag, { match: LIST, drop: true, count: 100 });
      const el = await make(tag);
      await waitUntil(
        async () => (await serverLog(tag)).filter((r) => r.fault === 'drop').length >= 1,
        'no read was tried',
      );
      await aTimeout(4000);
      expect(el.hasAttribute('connection-status')).to.equal(false);
      await clearFaults(tag);
      dispatchEvent(new Event('online'));
      await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read again on online', {
        timeout: 4000,
      });
    }).timeout(15000);
  });

  describe('a click while waiting', () => {
    it('should end the wait for a popup that reads closed and start a new flow inside the same click', async () => {
      const tag = uniqueTag();
      const el = await make(tag, 'slack', 'poll-interval="100"');
      const w = watch(el);
      await userClick(el);
      const first = await waitPopup(popups);
      await waitEvent(w, 'connect-popup');
      first.close();
      await waitUntil(() => el.state === 'authorizing' && !!el.shadowRoot!.querySelector('[part=stop]'), 'not waiting');
      await userClick(el);
      expect(w.types().filter((t) => t === 'connect-cancel')).to.have.length(1);
      expect(w.events.find((e) => e.type === 'connect-cancel')!.detail.reason).to.equal('cancelled');
      expect(
        w.types().filter((t) => t === 'connect-start'),
        'a second flow started',
      ).to.have.length(2);
      const second = await waitPopup(popups, 2);
      expect(second.closed, 'its popup opened inside the click').to.equal(false);
      await answerConsent(second, 'allow');
      await waitUntil(() => w.types().includes('connect-success'), 'no success', { timeout: 8000 });
    });
  });
});
