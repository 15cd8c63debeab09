// The flow as a user and a page see it: the states and events of a full
// connect, and the state machine's promise that whatever a listener does
// inside any event (cancel, start, remove, move) leaves the element
// consistent, with exactly one terminal event per flow and nothing held after (a cancel() inside the events after
// connect-start is held in Node, by test/node/element/flow.test.ts).
// Every flow starts from a real user click, with the browser's popup blocker on.
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import { ConnectError, type ConnectProvider } from '../../src/index.js';
import {
  answerConsent,
  flowRequests,
  button,
  ended,
  held,
  serverLog,
  uniqueTag,
  userClick,
  waitEvent,
  waitPopup,
  watch,
  freshSessionEachTest,
  type CapturedPopups,
  statusText,
} from './helpers.js';

async function make(
  template = html`<connect-provider endpoint="/api/connect" provider="salesforce" poll-interval="100"></connect-provider>`,
) {
  return (await fixture(template)) as ConnectProvider;
}

describe('a connect flow', () => {
  let popups: CapturedPopups;
  freshSessionEachTest((session) => ({ popups } = session));

  describe('when the user allows', () => {
    it('should go idle -> requesting -> authorizing -> verifying -> working and fire every event in order', async () => {
      const el = await make();
      const w = watch(el);
      await userClick(el);
      await answerConsent(await waitPopup(popups), 'allow');
      const end = await ended(w);
      expect(end.type).to.equal('connect-success');
      expect(w.states, JSON.stringify(w.states)).to.deep.equal([
        'idle',
        'requesting',
        'authorizing',
        'verifying',
        'working',
      ]);
      const types = w.types();
      expect(types.slice(0, 3)).to.deep.equal(['connect-start', 'connect-popup', 'connect-connection']);
      expect(types.slice(-2)).to.deep.equal(['connect-status', 'connect-success']);
      expect(w.events[0].detail).to.deep.equal({ mode: 'create', scheme: 'popup', provider: 'salesforce' });
      expect(w.events[1].detail.url).to.match(/\/consent\//);
      const connectionId = w.events[2].detail.connectionId;
      expect(end.detail.connection.id).to.equal(connectionId);
      expect(end.detail.connection.provider).to.equal('salesforce');
      expect(el.connection!.id).to.equal(connectionId);
      expect(el.connection).to.not.have.property('oauth2AuthorizationCode');
      expect(w.terminals()).to.have.length(1);
      expect(held(el)).to.equal(0);
      expect(button(el).getAttribute('aria-busy')).to.equal('false');
      expect(statusText(el)).to.equal('Connected to Salesforce');
    });

    it("should return the running flow's promise from start(), resolving with the working connection", async () => {
      const el = await make();
      const w = watch(el);
      await userClick(el);
      const first = el.start();
      expect(first instanceof Promise).to.equal(true);
      expect(el.start() === first, 'the same promise during the flow').to.equal(true);
      await answerConsent(await waitPopup(popups), 'allow');
      const connection = await first;
      expect(connection.status).to.equal('working');
      expect(connection.id).to.equal((await ended(w)).detail.connection.id);
    });

    it('should be busy during the flow, keep focus on its button and ignore further clicks', async () => {
      const el = await make();
      const w = watch(el);
      await userClick(el);
      await el.updateComplete;
      expect(button(el).getAttribute('aria-busy')).to.equal('true');
      expect(button(el).disabled, 'never disabled during a flow: focus stays').to.equal(false);
      await userClick(el);
      await userClick(el);
      await answerConsent(await waitPopup(popups), 'allow');
      await ended(w);
      expect(w.types().filter((t) => t === 'connect-start')).to.have.length(1);
      expect(popups.popups).to.have.length(1);
    });

    it('should allow a new flow after a terminal state', async () => {
      const el = await make();
      const w = watch(el);
      await userClick(el);
      el.cancel();
      await ended(w);
      await userClick(el);
      await answerConsent(await waitPopup(popups, 2), 'allow');
      await waitEvent(w, 'connect-success');
      expect(w.terminals().map((e) => e.type)).to.deep.equal(['connect-cancel', 'connect-success']);
    });
  });

  describe('when the provider refuses', () => {
    it('should end with connect-error bad_credentials on "Allow with bad credentials"', async () => {
      const el = await make();
      const w = watch(el);
      await userClick(el);
      const result = el.start();
      await answerConsent(await waitPopup(popups), 'allow_bad_credentials');
      const end = await ended(w);
      expect(end.type).to.equal('connect-error');
      expect(end.detail.code).to.equal('bad_credentials');
      expect(end.detail.connection.status).to.equal('bad_credentials');
      expect(el.getAttribute('state')).to.equal('bad_credentials');
      const error = await result.catch((e) => e);
      expect(error).to.be.instanceOf(ConnectError);
      expect(error.code).to.equal('bad_credentials');
      expect(el.error!.code).to.equal('bad_credentials');
      expect(statusText(el)).to.equal('Salesforce did not accept the sign-in. Please try again.');
    });

    it('should end with authorization_failed on Deny: plain words for the user, the detail in the event', async () => {
      const el = await make();
      const w = watch(el);
      await userClick(el);
      await answerConsent(await waitPopup(popups), 'deny');
      const end = await ended(w);
      expect(end.type).to.equal('connect-error');
      expect(end.detail.code).to.equal('authorization_failed');
      expect(end.detail.message).to.equal('The user denied access to Salesforce.');
      expect(el.error!.message).to.equal('The user denied access to Salesforce.');
      expect(el.getAttribute('state')).to.equal('error');
      expect(statusText(el)).to.equal('Salesforce access was not granted.');
      expect(held(el)).to.equal(0);
    });
  });

  describe('when the page or the user ends it', () => {
    it('should cancel with reason cancelled on cancel(), and close the popup', async () => {
      const el = await make();
      const w = watch(el);
      await userClick(el);
      const result = el.start();
      const popup = await waitPopup(popups);
      el.cancel();
      const end = await ended(w);
      expect(end).to.deep.equal({ type: 'connect-cancel', detail: { reason: 'cancelled', provider: 'salesforce' } });
      expect((await result.catch((e) => e)).code).to.equal('cancelled');
      await aTimeout(50);
      expect(popup.closed).to.equal(true);
      el.cancel();
      expect(w.terminals()).to.have.length(1);
    });

    it('should cancel when removed from the page, aborting its request at the server', async () => {
      const tag = uniqueTag();
      const el = await make(
        html`<connect-provider endpoint="/observe/${tag}/hang/api/connect" provider="slack"></connect-provider>`,
      );
      const w = watch(el);
      await userClick(el);
      await waitPopup(popups);
      el.remove();
      const end = await ended(w);
      expect(end.detail.reason).to.equal('cancelled');
      expect(held(el)).to.equal(0);
      await aTimeout(300);
      const log = flowRequests(await serverLog(tag));
      expect(log.length, 'the baseline and oauth-connect reached the server').to.be.at.least(1);
      expect(
        log.every((r) => r.abortedAt),
        `every request was aborted: ${JSON.stringify(log)}`,
      ).to.equal(true);
      expect(popups.popups[0].closed).to.equal(true);
    });

    it('should keep its flow when moved within the page', async () => {
      const el = await make();
      const w = watch(el);
      const other = document.createElement('section');
      document.body.append(other);
      try {
        await userClick(el);
        const popup = await waitPopup(popups);
        other.append(el);
        await aTimeout(100);
        expect(el.state).to.not.equal('cancelled');
        await answerConsent(popup, 'allow');
        expect((await ended(w)).type).to.equal('connect-success');
      } finally {
        other.remove();
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
      expect(el.state).to.equal('idle');
      expect(el.hasAttribute('state')).to.equal(false);
    });
  });

  describe('when a listener acts inside an event', () => {
    type Action = 'cancel' | 'start' | 'remove' | 'move';
    const RUNNING_EVENTS = [
      'connect-start',
      'connect-popup',
      'connect-popup-blocked',
      'connect-connection',
      'connect-status',
    ] as const;
    const TERMINAL_EVENTS = ['connect-success', 'connect-error', 'connect-cancel'] as const;
    const ACTIONS: Action[] = ['cancel', 'start', 'remove', 'move'];
    let shelf: HTMLElement;
    beforeEach(() => document.body.append((shelf = document.createElement('div'))));
    afterEach(() => shelf.remove());

    function act(el: ConnectProvider, action: Action): Promise<unknown> | undefined {
      if (action === 'cancel') el.cancel();
      if (action === 'remove') el.remove();
      if (action === 'move') shelf.append(el);
      if (action === 'start') {
        const promise = el.start();
        promise.catch(() => {});
        return promise;
      }
      return undefined;
    }

    /** Checks the element once its flow ended, and again later: nothing may bring it back to a busy state. */
    async function expectSettled(el: ConnectProvider, w: ReturnType<typeof watch>, type: string, where: string) {
      const end = await ended(w);
      expect(end.type, where).to.equal(type);
      await aTimeout(250);
      expect(w.terminals(), `${where}: ${w.types().join(', ')}`).to.have.length(1);
      expect(
        ['working', 'bad_credentials', 'error', 'cancelled'],
        `${where} ${w.states.join(' ')} ${w.types().join(' ')}`,
      ).to.include(el.getAttribute('state'));
      await el.updateComplete;
      expect(button(el).getAttribute('aria-busy'), where).to.equal('false');
      expect(button(el, 'fallback') === null, where).to.equal(true);
      expect(held(el), where).to.equal(0);
    }

    for (const event of RUNNING_EVENTS) {
      for (const action of ACTIONS) {
        // A listener's cancel() inside each event after connect-start (one terminal connect-cancel, nothing held) is
        // held in Node by test/node/element/flow.test.ts ("should end with the listener: a {event} listener that
        // cancels is the last word"); connect-start's cancel() stays here, as the element's own wiring.
        if (action === 'cancel' && event !== 'connect-start') continue;
        it(`should stay consistent when a ${event} listener calls ${action === 'move' || action === 'remove' ? `${action}s the element` : `${action}()`}`, async () => {
          const el = await make();
          const w = watch(el);
          let flowPromise: Promise<unknown> | undefined;
          let returned: Promise<unknown> | undefined;
          // The flow's own promise, as start() answers it while the flow runs.
          el.addEventListener('connect-start', () => (flowPromise = el.start()), { once: true });
          el.addEventListener(event, () => (returned = act(el, action)), { once: true });
          // No user gesture for connect-popup-blocked: the browser blocks the popup. An earlier test's click may still
          // count as the user's for a moment (WebKit does not always consume it in window.open): wait it out first.
          if (event === 'connect-popup-blocked') {
            await waitUntil(() => !navigator.userActivation?.isActive, 'an earlier click still counts', {
              timeout: 6000,
            });
            el.start().catch(() => {});
          } else await userClick(el);
          const where = `${action} in ${event}`;
          // Those two come after the user's consent.
          if (event === 'connect-connection' || event === 'connect-status')
            await answerConsent(await waitPopup(popups), 'allow');
          // A removal takes effect after the task (a move is not one): a status `working` may end the flow first.
          const working = () => w.events.some((e) => e.type === 'connect-status' && e.detail.status === 'working');
          if (action === 'remove' && event === 'connect-status' && (await ended(w)) && working()) {
            await expectSettled(el, w, 'connect-success', where);
            return;
          }
          if (action === 'cancel' || action === 'remove') {
            await expectSettled(el, w, 'connect-cancel', where);
            expect(w.terminals()[0].detail.reason).to.equal('cancelled');
            expect(el.isConnected, where).to.equal(action === 'cancel');
            return;
          }
          // start() and a move leave the flow running: it still ends as the user decides.
          if (event === 'connect-popup-blocked') {
            await waitEvent(w, 'connect-popup-blocked');
            await el.updateComplete;
            await userClick(el, 'fallback');
          }
          if (event !== 'connect-connection' && event !== 'connect-status')
            await answerConsent(await waitPopup(popups), 'allow');
          await waitEvent(w, event);
          // (compared as a boolean: a Promise does not serialize into a failure report)
          if (action === 'start')
            expect(returned === flowPromise, `${where}: start() answers the running flow's promise`).to.equal(true);
          await expectSettled(el, w, 'connect-success', where);
        });
      }
    }

    for (const event of TERMINAL_EVENTS) {
      for (const action of ACTIONS) {
        it(`should stay consistent when a ${event} listener calls ${action === 'move' || action === 'remove' ? `${action}s the element` : `${action}()`}`, async () => {
          const el = await make();
          const w = watch(el);
          const where = `${action} in ${event}`;
          let next: Promise<unknown> | undefined;
          el.addEventListener(event, () => (next = act(el, action)), { once: true });
          await userClick(el);
          const popup = await waitPopup(popups);
          if (event === 'connect-cancel') el.cancel();
          else await answerConsent(popup, event === 'connect-success' ? 'allow' : 'deny');
          const end = await ended(w);
          expect(end.type, where).to.equal(event);
          if (action === 'start') {
            // A new flow began inside the terminal event (blocked popup: no gesture), and runs on its own.
            expect(next instanceof Promise, where).to.equal(true);
            await waitEvent(w, 'connect-popup-blocked');
            expect(el.getAttribute('state'), where).to.equal('authorizing');
            expect(held(el), where).to.be.above(0);
            el.cancel();
            await aTimeout(100);
            expect(
              w.types().filter((t) => t === 'connect-start'),
              where,
            ).to.have.length(2);
            expect(
              w.terminals().map((e) => e.type),
              where,
            ).to.deep.equal([event, 'connect-cancel']);
            expect(held(el), where).to.equal(0);
            return;
          }
          await aTimeout(250);
          expect(w.terminals(), `${where}: ${w.types().join(', ')}`).to.have.length(1);
          expect(el.getAttribute('state'), where).to.equal(
            event === 'connect-success' ? 'working' : event === 'connect-error' ? 'error' : 'cancelled',
          );
          expect(button(el).getAttribute('aria-busy'), where).to.equal('false');
          expect(held(el), where).to.equal(0);
        });
      }
    }
  });
});
