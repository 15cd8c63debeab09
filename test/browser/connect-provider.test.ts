import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import { ConnectError, type ConnectProvider } from '../../src/index.js';
import { answerConsent, button, capturePopups, countFetches, held, signInAs, signInFreshGroup, sleep, watch } from './helpers.js';

async function make(template = html`<connect-provider endpoint="/api/connect" provider="salesforce" poll-interval="40" closed-grace="300"></connect-provider>`) {
  return (await fixture(template)) as ConnectProvider;
}

describe('<connect-provider>', () => {
  let popups: ReturnType<typeof capturePopups>;
  beforeEach(() => {
    signInFreshGroup();
    popups = capturePopups();
  });
  afterEach(() => {
    popups.restore();
    for (const popup of popups.popups) if (!popup.closed) popup.close();
  });

  describe('rendering', () => {
    it('should render a real button labelled "Connect Salesforce", and be accessible', async () => {
      const el = await make();
      expect(button(el).tagName).to.equal('BUTTON');
      expect(button(el).textContent!.trim()).to.equal('Connect Salesforce');
      expect(el.getAttribute('state')).to.equal('idle');
      expect(el.shadowRoot!.querySelector('[part=status]')!.getAttribute('role')).to.equal('status');
      await expect(el).to.be.accessible();
    });

    it('should take its label from the slot', async () => {
      const el = await make(html`<connect-provider endpoint="/api/connect" provider="slack">Add Slack</connect-provider>`);
      const slot = el.shadowRoot!.querySelector('slot')!;
      expect(slot.assignedNodes().map((n) => n.textContent).join('')).to.equal('Add Slack');
      await expect(el).to.be.accessible();
    });

    it('should say "Reconnect" in update mode and use replaced strings', async () => {
      const el = await make(html`<connect-provider endpoint="/api/connect" provider="hubspot" connection-id="c1"></connect-provider>`);
      expect(button(el).textContent!.trim()).to.equal('Reconnect Hubspot');
      el.strings = { reconnect: 'Erneut verbinden' };
      await el.updateComplete;
      expect(button(el).textContent!.trim()).to.equal('Erneut verbinden');
    });

    it('should render hostile text as text', async () => {
      const el = await make(html`<connect-provider endpoint="/api/connect" provider="<img src=x onerror=alert(1)>"></connect-provider>`);
      expect(el.shadowRoot!.querySelector('img')).to.equal(null);
    });

    it('should reflect disabled and ignore clicks then', async () => {
      const el = await make(html`<connect-provider endpoint="/api/connect" provider="slack" disabled></connect-provider>`);
      const w = watch(el);
      expect(button(el).disabled).to.equal(true);
      button(el).click();
      await sleep(50);
      expect(w.events).to.deep.equal([]);
    });

    it('should keep styles inside its shadow root and expose parts', async () => {
      const el = await make();
      const outside = document.createElement('button');
      document.body.append(outside);
      try {
        expect(getComputedStyle(outside).backgroundColor).to.not.equal('rgb(79, 70, 229)');
        expect(getComputedStyle(button(el)).backgroundColor).to.equal('rgb(79, 70, 229)');
        el.style.setProperty('--connect-provider-background', 'rgb(1, 2, 3)');
        expect(getComputedStyle(button(el)).backgroundColor).to.equal('rgb(1, 2, 3)');
      } finally {
        outside.remove();
      }
    });
  });

  describe('when the user allows', () => {
    it('should go idle -> requesting -> authorizing -> verifying -> working and fire every event in order', async () => {
      const el = await make();
      const w = watch(el);
      button(el).click();
      await answerConsent(await waitPopup(popups), 'allow');
      const end = await w.ended;
      expect(end.type).to.equal('connect-success');
      expect(w.states, JSON.stringify(w.states)).to.deep.equal(['idle', 'requesting', 'authorizing', 'verifying', 'working']);
      const types = w.types();
      expect(types[0]).to.equal('connect-start');
      expect(types[1]).to.equal('connect-popup');
      expect(types[2]).to.equal('connect-connection');
      expect(types.slice(-2)).to.deep.equal(['connect-status', 'connect-success']);
      const statuses = w.events.filter((e) => e.type === 'connect-status').map((e) => e.detail.status);
      expect(statuses[statuses.length - 1]).to.equal('working');
      expect(w.events[0].detail).to.deep.equal({ mode: 'create' });
      expect(w.events[1].detail.url).to.match(/\/consent\//);
      const connectionId = w.events[2].detail.connectionId;
      expect(end.detail.connection.id).to.equal(connectionId);
      expect(el.connection!.id).to.equal(connectionId);
      expect(el.connection).to.not.have.property('oauth2AuthorizationCode');
      expect(w.terminals()).to.have.length(1);
      expect(held(el)).to.equal(0);
      expect(button(el).getAttribute('aria-busy')).to.equal('false');
    });

    it('should resolve start() with the working connection', async () => {
      const el = await make();
      const result = el.start();
      await answerConsent(await waitPopup(popups), 'allow');
      const connection = await result;
      expect(connection.status).to.equal('working');
    });

    it('should be busy during the flow and ignore further clicks', async () => {
      const el = await make();
      const w = watch(el);
      button(el).click();
      await el.updateComplete;
      expect(button(el).getAttribute('aria-busy')).to.equal('true');
      expect(button(el).disabled, 'never disabled during a flow: focus stays').to.equal(false);
      button(el).click();
      button(el).click();
      expect(el.start()).to.be.a('promise');
      await answerConsent(await waitPopup(popups), 'allow');
      await w.ended;
      expect(w.types().filter((t) => t === 'connect-start')).to.have.length(1);
      expect(popups.popups).to.have.length(1);
    });

    it('should allow a new start() after a terminal state', async () => {
      const el = await make();
      const w = watch(el);
      el.start().catch(() => {});
      el.cancel();
      await w.ended;
      const second = el.start();
      await answerConsent(await waitPopup(popups), 'allow');
      expect((await second).status).to.equal('working');
    });
  });

  describe('when the provider refuses', () => {
    it('should end with connect-error bad_credentials on "Allow with bad credentials"', async () => {
      const el = await make();
      const w = watch(el);
      const result = el.start();
      await answerConsent(await waitPopup(popups), 'allow_bad_credentials');
      const end = await w.ended;
      expect(end.type).to.equal('connect-error');
      expect(end.detail.code).to.equal('bad_credentials');
      expect(end.detail.connection.status).to.equal('bad_credentials');
      expect(el.getAttribute('state')).to.equal('bad_credentials');
      const error = await result.catch((e) => e);
      expect(error).to.be.instanceOf(ConnectError);
      expect(error.code).to.equal('bad_credentials');
      expect(el.error!.code).to.equal('bad_credentials');
    });

    it('should end with authorization_failed on Deny, with the message', async () => {
      const el = await make();
      const w = watch(el);
      button(el).click();
      await answerConsent(await waitPopup(popups), 'deny');
      const end = await w.ended;
      expect(end.type).to.equal('connect-error');
      expect(end.detail.code).to.equal('authorization_failed');
      expect(end.detail.message).to.equal('The user denied access to Salesforce.');
      expect(el.getAttribute('state')).to.equal('error');
      expect(el.shadowRoot!.querySelector('[part=status]')!.textContent).to.contain('The user denied access');
      expect(held(el)).to.equal(0);
    });
  });

  describe('when the user gives up', () => {
    it('should cancel with popup_closed after the grace period when the popup is closed', async () => {
      const el = await make();
      const w = watch(el);
      button(el).click();
      const popup = await waitPopup(popups);
      await sleep(100);
      popup.close();
      const end = await w.ended;
      expect(end).to.deep.equal({ type: 'connect-cancel', detail: { reason: 'popup_closed' } });
      expect(el.getAttribute('state')).to.equal('cancelled');
      expect(held(el)).to.equal(0);
    });

    it('should cancel with reason cancelled on cancel(), and close the popup', async () => {
      const el = await make();
      const w = watch(el);
      const result = el.start();
      const popup = await waitPopup(popups);
      el.cancel();
      const end = await w.ended;
      expect(end).to.deep.equal({ type: 'connect-cancel', detail: { reason: 'cancelled' } });
      expect((await result.catch((e) => e)).code).to.equal('cancelled');
      await sleep(50);
      expect(popup.closed).to.equal(true);
      el.cancel();
      expect(w.terminals()).to.have.length(1);
    });

    it('should cancel when removed from the page, and leave nothing behind', async () => {
      const el = await make();
      const w = watch(el);
      const fetches = countFetches();
      try {
        button(el).click();
        await waitPopup(popups);
        el.remove();
        const end = await w.ended;
        expect(end.detail.reason).to.equal('cancelled');
        expect(held(el)).to.equal(0);
        const after = fetches.calls.length;
        await sleep(200);
        expect(fetches.calls.length).to.equal(after);
      } finally {
        fetches.restore();
      }
    });

    it('should not start when connect-start is prevented', async () => {
      const el = await make();
      const w = watch(el);
      el.addEventListener('connect-start', (e) => e.preventDefault());
      const error = await el.start().catch((e) => e);
      expect(error.code).to.equal('cancelled');
      expect(w.types()).to.deep.equal(['connect-start']);
      expect(popups.popups).to.have.length(0);
      expect(el.getAttribute('state')).to.equal('idle');
    });
  });

  describe('when the popup is blocked', () => {
    it('should fire connect-popup-blocked, show the fallback button, and go on when it is clicked', async () => {
      const el = await make();
      const w = watch(el);
      const open = window.open;
      window.open = () => null;
      button(el).click();
      await waitFor(() => w.types().includes('connect-popup-blocked'));
      window.open = open;
      const blocked = w.events.find((e) => e.type === 'connect-popup-blocked')!;
      expect(blocked.detail.url).to.match(/\/consent\//);
      await el.updateComplete;
      const fallback = button(el, 'fallback');
      expect(fallback).to.exist;
      expect(el.shadowRoot!.querySelector('[part=status]')!.textContent).to.contain('blocked');
      await expect(el).to.be.accessible();
      fallback.click();
      await el.updateComplete;
      expect(button(el, 'fallback')).to.equal(null);
      expect(el.shadowRoot!.activeElement ?? document.activeElement).to.exist;
      await answerConsent(await waitPopup(popups), 'allow');
      const end = await w.ended;
      expect(end.type).to.equal('connect-success');
      expect(w.types().slice(0, 3)).to.deep.equal(['connect-start', 'connect-popup-blocked', 'connect-popup']);
    });
  });

  describe('when the configuration or the backend is wrong', () => {
    it('should end with invalid_config before any request when endpoint or provider is missing', async () => {
      const fetches = countFetches();
      try {
        for (const template of [
          html`<connect-provider provider="slack"></connect-provider>`,
          html`<connect-provider endpoint="/api/connect"></connect-provider>`,
        ]) {
          const el = await make(template);
          const w = watch(el);
          button(el).click();
          const end = await w.ended;
          expect(end.detail.code).to.equal('invalid_config');
          expect(w.types()).to.deep.equal(['connect-start', 'connect-error']);
        }
        expect(fetches.calls).to.deep.equal([]);
        expect(popups.popups).to.have.length(0);
      } finally {
        fetches.restore();
      }
    });

    it('should end with http_error carrying the problem when the backend refuses', async () => {
      const el = await make(html`<connect-provider endpoint="/api/connect" provider="myspace" poll-interval="20"></connect-provider>`);
      const w = watch(el);
      button(el).click();
      const end = await w.ended;
      expect(end.detail.code).to.equal('http_error');
      expect(end.detail.problem.status).to.equal(400);
      expect(end.detail.problem.issues[0].name).to.equal('provider');
      await sleep(50);
      expect(popups.popups.every((p) => p.closed), 'the blank popup is closed').to.equal(true);
    });

    it('should end with http_error for a non-retryable 4xx', async () => {
      const el = await make(html`<connect-provider endpoint="/fixture/refused" provider="slack"></connect-provider>`);
      const w = watch(el);
      button(el).click();
      const end = await w.ended;
      expect(end.detail.code).to.equal('http_error');
      expect(end.detail.message).to.equal('not for you');
    });

    it('should end with invalid_url for an http, javascript: or missing URL', async () => {
      for (const kind of ['http-url', 'js-url', 'no-url']) {
        const el = await make(html`<connect-provider endpoint="/fixture/${kind}" provider="slack"></connect-provider>`);
        const w = watch(el);
        button(el).click();
        const end = await w.ended;
        expect(end.detail.code, kind).to.equal('invalid_url');
      }
    });

    it('should accept a bare JSON string as the URL', async () => {
      const el = await make(html`<connect-provider endpoint="/fixture/bare-url" provider="slack"></connect-provider>`);
      const w = watch(el);
      button(el).click();
      await waitFor(() => w.types().includes('connect-popup'));
      expect(w.events.find((e) => e.type === 'connect-popup')!.detail.url).to.equal('https://127.0.0.1:1/never');
      el.cancel();
    });

    it('should end with network_error once retries are exhausted', async () => {
      const el = await make(html`<connect-provider endpoint="/fixture/down" provider="slack" poll-interval="10"></connect-provider>`);
      const w = watch(el);
      button(el).click();
      const end = await w.ended;
      expect(end.detail.code).to.equal('network_error');
      expect(end.detail.problem.status).to.equal(503);
    });

    it('should end with timeout when nothing happens in time', async () => {
      const el = await make(html`<connect-provider endpoint="/fixture/hang" provider="slack" timeout="300"></connect-provider>`);
      const w = watch(el);
      const fetches = countFetches();
      try {
        button(el).click();
        const end = await w.ended;
        expect(end.detail.code).to.equal('timeout');
        expect(held(el), 'the hanging request was aborted').to.equal(0);
      } finally {
        fetches.restore();
      }
    });
  });

  describe('messages', () => {
    it('should ignore messages from other windows and origins', async () => {
      const el = await make(html`<connect-provider endpoint="/api/connect" provider="slack"></connect-provider>`);
      const w = watch(el);
      button(el).click();
      await waitFor(() => w.types().includes('connect-popup'));
      // The backend's messageOrigin is this page's origin here, so the forger is a
      // sandboxed frame: another window, with an opaque origin.
      const frame = document.createElement('iframe');
      frame.sandbox.add('allow-scripts');
      frame.srcdoc = `<script>parent.postMessage({ eventType: 'AUTHORIZATION_FAILED', data: { error: 'forged' } }, '*')<\/script>`;
      document.body.append(frame);
      await sleep(300);
      frame.remove();
      expect(w.terminals()).to.have.length(0);
      el.cancel();
    });

    it('should trust the origins of message-origins only, and read the older data.message form', async () => {
      // /fixture/bare-url answers a bare URL string: no messageOrigin from the backend.
      const failure = { eventType: 'AUTHORIZATION_FAILED', data: { message: 'old form' } };
      const untrusting = await make(html`<connect-provider endpoint="/fixture/bare-url" provider="slack"></connect-provider>`);
      const u = watch(untrusting);
      button(untrusting).click();
      await waitFor(() => u.types().includes('connect-popup'));
      window.postMessage(failure, '*');
      await sleep(200);
      expect(u.terminals(), 'a message from an untrusted origin is ignored').to.have.length(0);
      untrusting.cancel();

      const trusting = await make(
        html`<connect-provider endpoint="/fixture/bare-url" provider="slack" message-origins="https://other.example ${location.origin}"></connect-provider>`,
      );
      const t = watch(trusting);
      button(trusting).click();
      await waitFor(() => t.types().includes('connect-popup'));
      window.postMessage(JSON.stringify(failure), '*');
      const end = await t.ended;
      expect(end.detail).to.include({ code: 'authorization_failed', message: 'old form' });
    });
  });

  describe('while the page is hidden', () => {
    // The Page Visibility API is the boundary under test: document.hidden is overridden.
    function setHidden(hidden: boolean) {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
      document.dispatchEvent(new Event('visibilitychange'));
    }
    afterEach(() => {
      delete (document as { hidden?: boolean }).hidden;
    });

    it('should poll five times slower while hidden, and at once when visible again', async () => {
      const el = await make(html`<connect-provider endpoint="/fixture/pending" provider="slack" poll-interval="100" timeout="20000"></connect-provider>`);
      const w = watch(el);
      button(el).click();
      await waitFor(() => w.types().includes('connect-connection'));
      await sleep(50);
      setHidden(true);
      await fetch('/__test__/pending-polls'); // forget the polls so far
      await sleep(1200);
      const hiddenPolls: number[] = await (await fetch('/__test__/pending-polls')).json();
      // 100 ms visible would be about 12 polls; 500 ms hidden at most 3.
      expect(hiddenPolls.length, JSON.stringify(hiddenPolls)).to.be.within(1, 3);
      const shown = Date.now();
      setHidden(false);
      await sleep(150);
      const visiblePolls: number[] = await (await fetch('/__test__/pending-polls')).json();
      expect(visiblePolls.length, 'a poll at once on becoming visible').to.be.at.least(1);
      expect(visiblePolls[0] - shown, "well before the 500 ms hidden interval").to.be.below(400);
      el.cancel();
      await w.ended;
      expect(w.events.filter((e) => e.type === 'connect-status').map((e) => e.detail.status)).to.deep.equal(['created']);
    });
  });

  describe('in update mode', () => {
    it('should not end a reconnect at once because of the old bad_credentials', async () => {
      const group = signInFreshGroup();
      const seeded = await (await fetch(`/__test__/seed-connection?group=${group}&decision=allow_bad_credentials`)).json();
      const el = await make(
        html`<connect-provider endpoint="/api/connect" provider="hubspot" connection-id=${seeded.connectionId} poll-interval="40" closed-grace="300"></connect-provider>`,
      );
      const w = watch(el);
      const result = el.start();
      expect(w.events[0].detail).to.deep.equal({ mode: 'update' });
      await answerConsent(await waitPopup(popups), 'allow');
      const end = await w.ended;
      expect(end.type).to.equal('connect-success');
      expect(w.events.filter((e) => e.type === 'connect-status').map((e) => e.detail.status)).to.not.include('bad_credentials');
      expect((await result).id).to.equal(seeded.connectionId);
    });

    it('should still verify a reconnect whose popup closed without a message (COOP)', async () => {
      const group = signInFreshGroup();
      const seeded = await (await fetch(`/__test__/seed-connection?group=${group}&decision=allow_bad_credentials`)).json();
      const el = await make(
        html`<connect-provider endpoint="/fixture/silent" provider="hubspot" connection-id=${seeded.connectionId} poll-interval="40" closed-grace="2000"></connect-provider>`,
      );
      const w = watch(el);
      button(el).click();
      const end = await w.ended;
      expect(end.type, w.types().join(', ')).to.equal('connect-success');
      expect(w.types()).to.include('connect-connection');
      expect(end.detail.connection.id).to.equal(seeded.connectionId);
    });

    it('should refuse another group\'s connection (404 from the backend)', async () => {
      const el = await make(html`<connect-provider endpoint="/api/connect" connection-id="conn_demo"></connect-provider>`);
      signInAs('mallory');
      const w = watch(el);
      button(el).click();
      const end = await w.ended;
      expect(end.detail.code).to.equal('http_error');
      expect(end.detail.problem.status).to.equal(404);
    });
  });
});

async function waitFor(condition: () => boolean, ms = 10000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await sleep(10);
  }
}

async function waitPopup(popups: ReturnType<typeof capturePopups>): Promise<Window> {
  await waitFor(() => popups.popups.length > 0);
  return popups.latest();
}
