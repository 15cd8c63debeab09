// The element as a row of a list (docs/element.md, "Attributes and properties": `form-on-demand`, `compact`): inputs
// that open on the Connect click and close on Escape or Back; short labels whose accessible names keep the provider;
// the rest state described but not announced at load; a connection the read could not tell never guessed as none.
// Real handler and emulator; the popup blocker is on.
import { aTimeout, expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import {
  button,
  ended,
  freshSessionEachTest,
  placeElement,
  ready,
  seedConnection,
  serverLog,
  setFault,
  statusText,
  uniqueTag,
  userClick,
  watch,
} from './helpers.js';

const fields = (el: ConnectProvider) => [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('[part=field]')];
const endpoint = (tag: string, mode = 'ok') => `/observe/${tag}/${mode}/api/connect`;

describe('the element as a list row: forms on demand', () => {
  freshSessionEachTest(() => {});

  it('should open the inputs on the Connect click, focus the first, and send nothing until they are sent', async () => {
    const tag = uniqueTag();
    const el = await placeElement(endpoint(tag), 'apollo', 'form-on-demand');
    await waitUntil(() => el.shadowRoot!.querySelector('img[part=icon]'), 'no provider info', { timeout: 5000 });
    await ready(el);
    expect(fields(el), 'no inputs before the click').to.have.length(0);
    const w = watch(el);
    await userClick(el);
    await waitUntil(() => el.shadowRoot!.activeElement === fields(el)[0], 'the form did not open with focus');
    expect(w.events, 'opening the form is no flow').to.have.length(0);
    expect((await serverLog(tag)).filter((r) => r.method !== 'GET')).to.have.length(0);
    expect(button(el, 'back').textContent).to.equal('Back');
    await sendKeys({ type: 'a-good-key' });
    await userClick(el);
    expect((await ended(w)).type).to.equal('connect-success');
    await waitUntil(() => fields(el).length === 0, 'the form did not close once connected');
  });

  it('should close the opened inputs on Escape and on Back, focus back on the button', async () => {
    const el = await placeElement(endpoint(uniqueTag()), 'cloudtalk', 'form-on-demand');
    await ready(el);
    await waitUntil(() => el.shadowRoot!.querySelector('img[part=icon]'), 'no provider info', { timeout: 5000 });
    await userClick(el);
    await waitUntil(() => fields(el).length === 2, 'the form did not open');
    await sendKeys({ type: 'someone' });
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => fields(el).length === 0, 'Escape did not close the form');
    await aTimeout(0);
    expect(el.shadowRoot!.activeElement).to.equal(button(el));
    await userClick(el);
    await waitUntil(() => fields(el).length === 2, 'the form did not open again');
    expect(fields(el)[0].value, 'closed is emptied').to.equal('');
    await userClick(el, 'back');
    await waitUntil(() => fields(el).length === 0, 'Back did not close the form');
    await aTimeout(0);
    expect(el.shadowRoot!.activeElement).to.equal(button(el));
  });

  it("should open an OAuth provider's workspace input on demand, then start its flow on the next click", async () => {
    const el = await placeElement(endpoint(uniqueTag()), 'zendesk', 'form-on-demand');
    await waitUntil(() => el.shadowRoot!.querySelector('img[part=icon]'), 'no provider info', { timeout: 5000 });
    await ready(el);
    expect(fields(el)).to.have.length(0);
    const w = watch(el);
    await userClick(el);
    await waitUntil(() => fields(el).length === 1, 'the workspace input did not open');
    expect(w.events).to.have.length(0);
    await sendKeys({ type: 'acme' });
    await userClick(el);
    await waitUntil(() => w.types().includes('connect-start'), 'no flow started');
    expect(w.events[0].detail.scheme).to.equal('popup');
    el.cancel();
  });
});

describe('the element as a list row: compact', () => {
  let group: string;
  freshSessionEachTest((session) => ({ group } = session));

  it('should label its buttons without the provider, their accessible names keeping it', async () => {
    await seedConnection(group, 'hubspot', 'allow');
    const el = await placeElement(endpoint(uniqueTag()), 'hubspot', 'compact disconnectable');
    await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read');
    await waitUntil(() => button(el).getAttribute('aria-label') === 'Reconnect HubSpot', 'no accessible name');
    expect(button(el).textContent).to.equal('Reconnect');
    expect(button(el, 'disconnect').textContent).to.equal('Disconnect');
    expect(button(el, 'disconnect').getAttribute('aria-label')).to.equal('Disconnect HubSpot');
    // The rest state is the button's description, not shown (the row's badge shows it).
    expect(button(el).getAttribute('aria-describedby')).to.equal('status');
    expect(statusText(el)).to.equal('Connected to HubSpot');
    const status = el.shadowRoot!.querySelector('[part=status]')!;
    expect(status.getBoundingClientRect().width).to.be.at.most(1);
    await expect(el).to.be.accessible();
  });

  it('should not guess Connect when the connection could not be read', async () => {
    const tag = uniqueTag();
    await setFault(tag, { match: '/connections$', status: 503, count: 100 });
    const el = await placeElement(endpoint(tag), 'hubspot', 'compact');
    // The read fails after its retries: the row stays unknown, named by the provider alone.
    await waitUntil(() => !el.shadowRoot!.querySelector('[part=button][aria-busy=true]'), 'still reading', {
      timeout: 10000,
    });
    await aTimeout(300);
    expect(el.hasAttribute('connection-status')).to.equal(false);
    expect(button(el).textContent).to.equal('HubSpot');
  });
});

describe('the rest state at load is described, not announced', () => {
  let group: string;
  freshSessionEachTest((session) => ({ group } = session));

  it('should keep the status line quiet for what a read at load found, and speak once the user acts', async () => {
    await seedConnection(group, 'hubspot', 'allow');
    const el = await placeElement(endpoint(uniqueTag()), 'hubspot', 'disconnectable');
    await waitUntil(() => statusText(el) === 'Connected to HubSpot', 'not read');
    const status = el.shadowRoot!.querySelector('[part=status]')!;
    expect(status.getAttribute('role')).to.equal('status');
    expect(status.getAttribute('aria-live'), 'a read at load is not announced').to.equal('off');
    expect(button(el).getAttribute('aria-describedby')).to.equal('status');
    await userClick(el, 'disconnect');
    await el.updateComplete;
    expect(status.getAttribute('aria-live'), 'what the user does is announced').to.equal('polite');
  });
});
