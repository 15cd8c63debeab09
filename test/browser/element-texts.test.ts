// What the user reads: each outcome in plain words that say what happened and
// what to do, the provider named everywhere a string asks for it, and a
// button that always has a name. The developer's detail stays in the events.
import { aTimeout, expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  button,
  ended,
  ready,
  freshSessionEachTest,
  userClick,
  waitEvent,
  watch,
  type CapturedPopups,
  warnings,
} from './helpers.js';

const status = (el: ConnectProvider) => el.shadowRoot!.querySelector<HTMLElement>('[part=status]')!.textContent;

async function make(
  template = html`<connect-provider endpoint="/api/connect" provider="salesforce"></connect-provider>`,
) {
  const el = (await fixture(template)) as ConnectProvider;
  await el.updateComplete;
  // Its label is final once its connection is read (no neutral "Salesforce" while reading).
  if (el.endpoint) await ready(el);
  return el;
}

describe('<connect-provider> texts', () => {
  let popups: CapturedPopups;
  freshSessionEachTest((session) => ({ popups } = session));

  it('should ask a signed-out user to sign in (a 401), keeping http_error and the problem in the event', async () => {
    document.cookie = 'sid=; path=/; max-age=0';
    const el = await make();
    const w = watch(el);
    await userClick(el);
    const end = await ended(w);
    expect(end.detail.code).to.equal('http_error');
    expect(end.detail.problem.status).to.equal(401);
    await el.updateComplete;
    expect(status(el)).to.equal('Please sign in to connect Salesforce.');
  });

  it('should say a mis-cased provider cannot be connected here, and warn once naming it', async () => {
    let el!: ConnectProvider;
    const seen = await warnings(async () => {
      el = await make(html`<connect-provider endpoint="/api/connect" provider="Hubspot"></connect-provider>`);
      const w = watch(el);
      await userClick(el);
      await ended(w);
      await el.updateComplete;
    });
    expect(status(el)).to.equal('Hubspot cannot be connected here.');
    const named = seen.filter((s) => s.includes('"Hubspot"'));
    expect(named, seen.join('\n')).to.have.length(1);
  });

  it('should say the sign-in was cancelled, and no longer that the popup was blocked', async () => {
    const el = await make();
    const w = watch(el);
    el.start().catch(() => {});
    await waitEvent(w, 'connect-popup-blocked');
    await el.updateComplete;
    expect(status(el)).to.equal('The browser blocked the sign-in window.');
    el.cancel();
    await ended(w);
    await el.updateComplete;
    expect(status(el)).to.equal('The sign-in was cancelled.');
    expect(popups.popups).to.have.length(0);
  });

  it('should name the provider in every place a string asks for it', async () => {
    const el = await make(html`<connect-provider endpoint="/api/connect" provider="slack"></connect-provider>`);
    el.strings = { connect: '{provider}: connect {provider}' };
    await el.updateComplete;
    expect(button(el).textContent).to.equal('Slack: connect Slack');
  });

  it('should write a name holding replacement patterns ($&) as it is', async () => {
    const el = await make(html`<connect-provider endpoint="/api/connect" provider=${"a$&b$'c"}></connect-provider>`);
    expect(button(el).textContent).to.equal("Connect A$&b$'c");
  });

  it('should keep an accessible name when strings.connect is empty', async () => {
    const el = await make(html`<connect-provider endpoint="/api/connect" provider="slack"></connect-provider>`);
    el.strings = { connect: '' };
    await el.updateComplete;
    expect(button(el).textContent!.trim()).to.not.equal('');
    await expect(el).to.be.accessible();
  });

  it('should end a 503 with a long Retry-After at once, in words that do not blame the network', async () => {
    // The boundary under test: a backend in maintenance.
    const real = window.fetch;
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'POST'
        ? Promise.resolve(
            new Response(JSON.stringify({ status: 503, title: 'Service Unavailable', detail: 'maintenance' }), {
              status: 503,
              headers: { 'content-type': 'application/problem+json', 'retry-after': '600' },
            }),
          )
        : real(input, init)) as typeof fetch;
    try {
      const el = await make();
      const w = watch(el);
      const started = performance.now();
      await userClick(el);
      const end = await ended(w, 4000);
      expect(end.detail.code).to.equal('network_error');
      expect(end.detail.problem.detail).to.equal('maintenance');
      expect(performance.now() - started, 'no wait of 600 s, nor of a long budget').to.be.below(3000);
      await el.updateComplete;
      expect(status(el)).to.equal('Connecting is not available right now. Please try again later.');
      expect(
        popups.popups.every((p) => p.closed),
        'no blank popup left',
      ).to.equal(true);
    } finally {
      window.fetch = real;
    }
  });

  it('should say the provider did not confirm in time when verification, not the sign-in, took too long', async () => {
    const el = await make(
      html`<connect-provider endpoint="/fixture/pending" provider="slack" timeout="1500" poll-interval="100"></connect-provider>`,
    );
    const w = watch(el);
    await userClick(el);
    await waitEvent(w, 'connect-connection');
    const end = await ended(w, 5000);
    expect(end.detail.code).to.equal('timeout');
    await el.updateComplete;
    expect(status(el)).to.equal('Slack did not confirm the connection in time. Please try again.');
    await aTimeout(10);
  });
});

describe('<connect-provider> misconfiguration', () => {
  freshSessionEachTest(() => {});

  it('should give an unreached backend seconds of retries, not the budget of one that answers, and one warning naming the likely fix', async () => {
    // Observed at the boundary: the requests the browser is asked to send. The jitter is pinned to its low end, so the
    // waits are 0.5, 1 and 2 s: the 3 s budget of an unreached backend allows 3 attempts, the 8 s one of a backend
    // that answers would allow 6.
    const real = { fetch: window.fetch, random: Math.random };
    const attempts: string[] = [];
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST') attempts.push(String(input));
      return real.fetch(input, init);
    }) as typeof fetch;
    Math.random = () => 0;
    let seen: string[] = [];
    try {
      seen = await warnings(async () => {
        // Nothing listens on port 1: to the browser, as a CORS refusal, a failed request with no answer.
        const el = await make(
          html`<connect-provider endpoint="http://127.0.0.1:1/api/connect" provider="slack"></connect-provider>`,
        );
        const w = watch(el);
        await userClick(el);
        const end = await ended(w, 8000);
        expect(end.detail.code).to.equal('network_error');
      });
    } finally {
      window.fetch = real.fetch;
      Math.random = real.random;
    }
    expect(attempts, 'the URL request and its retries within 3 s').to.have.length(3);
    expect(attempts.every((url) => url.startsWith('http://127.0.0.1:1/api/connect/'))).to.equal(true);
    const named = seen.filter((s) => s.includes('allowedOrigins'));
    expect(named, seen.join('\n')).to.have.length(1);
    expect(named[0]).to.contain('http://127.0.0.1:1/api/connect');
  });
});
