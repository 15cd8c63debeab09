// The controls keep their promises: focus stays in the element when a control
// it was on goes away, `disabled` stops every way in, a running flow keeps its
// own labels, a cancelled connect-start changes nothing, a page that goes away
// closes the flow's popup, and timing attributes stay within sane bounds.
import { aTimeout, expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  button,
  ended,
  freshSessionEachTest,
  userClick,
  waitEvent,
  waitPopup,
  watch,
  type CapturedPopups,
  statusText,
} from './helpers.js';

async function make(template = html`<connect-provider endpoint="/api/connect" provider="slack"></connect-provider>`) {
  const el = (await fixture(template)) as ConnectProvider;
  await el.updateComplete;
  return el;
}

describe('<connect-provider> controls', () => {
  let popups: CapturedPopups;
  freshSessionEachTest((session) => ({ popups } = session));

  it('should keep focus on its button when disabled is set mid-flow', async () => {
    const el = await make();
    const w = watch(el);
    await userClick(el);
    await waitEvent(w, 'connect-popup');
    button(el).focus();
    el.disabled = true;
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement === button(el), 'focus stays').to.equal(true);
    // A focused control that turns disabled loses focus at the next rendering update (the focus fixup), not at once.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(el.shadowRoot!.activeElement === button(el), 'focus stays after the next frames').to.equal(true);
    expect(button(el).disabled, 'the running flow keeps its button enabled (aria-disabled instead)').to.equal(false);
    el.cancel();
    await ended(w);
  });

  it('should not start from code when disabled: no event, no popup, a rejection', async () => {
    const el = await make(
      html`<connect-provider endpoint="/api/connect" provider="slack" disabled></connect-provider>`,
    );
    const w = watch(el);
    const error = await el.start().then(
      () => null,
      (e: { code: string }) => e,
    );
    expect(error?.code).to.equal('invalid_config');
    expect(w.events).to.deep.equal([]);
    expect(popups.popups).to.have.length(0);
  });

  it("should keep the running flow's labels when connection-id is set mid-flow", async () => {
    const el = await make();
    const w = watch(el);
    await userClick(el);
    await waitEvent(w, 'connect-popup');
    el.connectionId = 'conn_other';
    await el.updateComplete;
    expect(button(el).textContent).to.equal('Connect Slack');
    el.cancel();
    await ended(w);
  });

  it('should change nothing when connect-start is cancelled: the last error and its words stay', async () => {
    const el = await make(html`<connect-provider provider="slack"></connect-provider>`);
    const real = console.warn;
    console.warn = () => {};
    try {
      const w = watch(el);
      await userClick(el);
      await ended(w);
    } finally {
      console.warn = real;
    }
    await el.updateComplete;
    const before = statusText(el);
    expect(el.error?.code).to.equal('invalid_config');
    el.addEventListener('connect-start', (e) => e.preventDefault());
    await userClick(el);
    await el.updateComplete;
    expect(el.error?.code, 'the last error stays').to.equal('invalid_config');
    expect(statusText(el)).to.equal(before);
  });

  it("should close the flow's popup and cancel when the page goes away (pagehide)", async () => {
    const el = await make();
    const w = watch(el);
    await userClick(el);
    const popup = await waitPopup(popups);
    await waitEvent(w, 'connect-popup');
    window.dispatchEvent(new Event('pagehide'));
    const end = await ended(w);
    expect(end.type).to.equal('connect-cancel');
    await aTimeout(100);
    expect(popup.closed).to.equal(true);
  });

  it('should clamp timing attributes to sane bounds, warning once each, and not flood the backend', async () => {
    const seen: string[] = [];
    const real = console.warn;
    console.warn = (...args: unknown[]) => void seen.push(args.join(' '));
    const fetches: string[] = [];
    const realFetch = window.fetch;
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      fetches.push(String(input));
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      const el = await make(
        html`<connect-provider endpoint="/fixture/pending" provider="slack" poll-interval="1" timeout="abc" closed-grace="Infinity"></connect-provider>`,
      );
      const w = watch(el);
      await userClick(el);
      await waitEvent(w, 'connect-connection');
      const from = fetches.length;
      await aTimeout(1000);
      const polls = fetches.length - from;
      expect(w.terminals(), 'timeout="abc" does not end the flow at once').to.have.length(0);
      // 100 ms at least between polls (a few quick ones at 30 ms first): about a dozen a second, not hundreds.
      expect(polls, `${polls} requests in 1 s`).to.be.below(20);
      el.cancel();
      await ended(w);
      for (const name of ['pollInterval', 'timeout', 'closedGrace'])
        expect(
          seen.filter((s) => s.includes(name)),
          `${name}: ${seen.join('\n')}`,
        ).to.have.length(1);
    } finally {
      console.warn = real;
      window.fetch = realFetch;
    }
  });
});
