// The element speaks the language of where it stands (docs/architecture.md, "Languages and direction"):
// its own `lang`, else the nearest ancestor's across shadow roots, else <html lang>; the best registered pack;
// English built in; `strings` wins key by key; a change of `lang` or a pack registered later re-renders it. Which
// lang applies and which pack it picks, without a page, is test/node/element/moved-locale-choice.test.ts; here, what
// needs one: a row of the list across a real shadow root, the re-renders, `strings` over a pack, the list's texts.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/integrations.js';
import type { ConnectIntegrations, ConnectProvider } from '../../src/integrations.js';
import { registerLocale } from '../../src/element/locales.js';
import de from '../../src/locales/de.js';
import { freshSessionEachTest } from './helpers.js';

// Packs that say which one spoke: the rule under test is which pack is chosen, not what it says.
registerLocale('xa', { connect: 'xa {provider}', connectShort: 'xa', empty: 'xa empty' });
registerLocale('xc', { connect: 'xc {provider}' });

const label = (el: ConnectProvider) => el.shadowRoot!.querySelector('[part=button] slot')!.textContent!.trim();

async function make(template = html`<connect-provider endpoint="/api/connect" provider="slack"></connect-provider>`) {
  const el = (await fixture(template)) as HTMLElement;
  const element = (el.localName === 'connect-provider' ? el : el.querySelector('connect-provider')!) as ConnectProvider;
  await element.updateComplete;
  return element;
}

describe('<connect-provider> languages', () => {
  freshSessionEachTest();
  let htmlLang: string | null;
  beforeEach(() => (htmlLang = document.documentElement.getAttribute('lang')));
  afterEach(() => {
    if (htmlLang === null) document.documentElement.removeAttribute('lang');
    else document.documentElement.setAttribute('lang', htmlLang);
  });

  it('should find the lang of its host across a shadow root (a row of the list)', async () => {
    const list = (
      await fixture(
        html`<div lang="xa"><connect-integrations endpoint="/api/connect" providers="slack"></connect-integrations></div>`,
      )
    ).querySelector('connect-integrations') as ConnectIntegrations;
    await waitUntil(() => list.shadowRoot!.querySelector('connect-provider'), 'no row');
    const row = list.shadowRoot!.querySelector('connect-provider')!;
    // A row's label is the short one; its accessible name the whole text, both of the row's language.
    await waitUntil(() => label(row) === 'xa', label(row));
    expect(row.shadowRoot!.querySelector('[part=button]')!.getAttribute('aria-label')).to.equal('xa Slack');
  });

  it('should switch when its lang or an ancestor’s changes', async () => {
    const wrapper = (await fixture(
      html`<div lang="xa"><connect-provider endpoint="/api/connect" provider="slack"></connect-provider></div>`,
    )) as HTMLElement;
    const el = wrapper.querySelector('connect-provider')!;
    await waitUntil(() => label(el) === 'xa Slack', label(el));
    wrapper.setAttribute('lang', 'xc');
    await waitUntil(() => label(el) === 'xc Slack', label(el));
    el.setAttribute('lang', 'xa');
    await waitUntil(() => label(el) === 'xa Slack', label(el));
  });

  it('should switch when a pack for its language registers later', async () => {
    const el = await make(
      html`<connect-provider lang="xd" endpoint="/api/connect" provider="slack"></connect-provider>`,
    );
    await waitUntil(() => label(el) === 'Connect Slack', label(el));
    registerLocale('xd', { connect: 'xd {provider}' });
    await waitUntil(() => label(el) === 'xd Slack', label(el));
  });

  it('should let strings win key by key over the pack', async () => {
    const el = await make(
      html`<connect-provider lang="de" endpoint="/api/connect" provider="slack"></connect-provider>`,
    );
    el.strings = { connect: 'Mein {provider}' };
    await waitUntil(() => label(el) === 'Mein Slack', label(el));
    // A key the host did not set comes from the pack.
    const status = el.shadowRoot!.querySelector('[part=status]')!;
    el.strings = {};
    await el.updateComplete;
    expect(label(el)).to.equal(de.connect.replace('{provider}', 'Slack'));
    expect(status.textContent).to.not.match(/Connect|Connected/);
  });

  it("should give the list its language's texts", async () => {
    const list = (await fixture(
      html`<connect-integrations lang="xa" endpoint="/api/connect" providers="nosuchprovider"></connect-integrations>`,
    )) as ConnectIntegrations;
    const said = () => list.shadowRoot!.querySelector('[role=status]')?.textContent;
    await waitUntil(() => said() === 'xa empty', String(said()));
  });
});
