// Either direction, any word length (docs/architecture.md, "Languages and direction"): under dir="rtl" the
// secondary buttons lie to the left of the main button with the same gap as in ltr, and the icon, inputs and status
// marker mirror; a long German word wraps inside the element at 320 px, and every pack's Reconnect fits one line
// there. Measured boxes.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { ConnectProvider } from '../../src/index.js';
import { button, freshSessionEachTest, seedConnection } from './helpers.js';
import ar from '../../src/locales/ar.js';
import de from '../../src/locales/de.js';
import es from '../../src/locales/es.js';
import fr from '../../src/locales/fr.js';
import he from '../../src/locales/he.js';
import it_ from '../../src/locales/it.js';
import ja from '../../src/locales/ja.js';
import ko from '../../src/locales/ko.js';
import nl from '../../src/locales/nl.js';
import pl from '../../src/locales/pl.js';
import ptBR from '../../src/locales/pt-BR.js';
import sv from '../../src/locales/sv.js';
import tr from '../../src/locales/tr.js';
import zhCN from '../../src/locales/zh-CN.js';

const PACKS = { ar, de, es, fr, he, it: it_, ja, ko, nl, pl, 'pt-BR': ptBR, sv, tr, 'zh-CN': zhCN };

const box = (el: ConnectProvider, part: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part="${part}"]`)!.getBoundingClientRect();

async function connected(dir: 'ltr' | 'rtl') {
  const wrapper = (await fixture(html`<div dir=${dir} style="width: 600px">
    <connect-provider endpoint="/api/connect" provider="slack" disconnectable></connect-provider>
  </div>`)) as HTMLElement;
  const el = wrapper.querySelector('connect-provider')!;
  await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read');
  await waitUntil(() => el.shadowRoot!.querySelector<HTMLImageElement>('img[part=icon]')?.complete, 'no icon');
  await el.updateComplete;
  return el;
}

describe('<connect-provider> in either direction', () => {
  let group: string;
  freshSessionEachTest((session) => ({ group } = session));

  it('should put Disconnect on the far side of the main button, with the same gap in rtl as in ltr', async () => {
    await seedConnection(group, 'slack', 'allow');
    const ltr = await connected('ltr');
    const rtl = await connected('rtl');
    const [mainL, otherL] = [box(ltr, 'button'), box(ltr, 'disconnect')];
    const [mainR, otherR] = [box(rtl, 'button'), box(rtl, 'disconnect')];
    expect(otherL.left, 'ltr: Disconnect to the right').to.be.greaterThan(mainL.right);
    expect(otherR.right, 'rtl: Disconnect to the left').to.be.lessThan(mainR.left);
    const gapL = otherL.left - mainL.right;
    const gapR = mainR.left - otherR.right;
    expect(gapR).to.be.closeTo(gapL, 0.5);
    expect(gapL).to.be.greaterThan(4);
  });

  it('should mirror the icon and the status marker', async () => {
    await seedConnection(group, 'slack', 'allow');
    const ltr = await connected('ltr');
    const rtl = await connected('rtl');
    for (const [el, dir] of [
      [ltr, 'ltr'],
      [rtl, 'rtl'],
    ] as const) {
      const icon = box(el, 'icon');
      const main = box(el, 'button');
      // The slot is display: contents; its text's range is where the label is.
      const range = document.createRange();
      range.selectNodeContents(button(el).querySelector('slot')!);
      const label = range.getBoundingClientRect();
      if (dir === 'ltr') expect(icon.right, 'ltr: icon before the label').to.be.at.most(label.left);
      else expect(icon.left, 'rtl: icon before the label, on the right').to.be.at.least(label.right);
      expect(icon.left).to.be.within(main.left, main.right);
      const status = el.shadowRoot!.querySelector('[part=status]')!;
      const statusRange = document.createRange();
      statusRange.selectNodeContents(status);
      const words = statusRange.getBoundingClientRect();
      const line = status.getBoundingClientRect();
      // The marker (::before) takes the start of the line: the words begin after it, on the start side.
      if (dir === 'ltr') expect(words.left - line.left, 'ltr: marker on the left').to.be.greaterThan(5);
      else expect(line.right - words.right, 'rtl: marker on the right').to.be.greaterThan(5);
    }
  });

  it('should mirror the inputs: a label starts on the right in rtl', async () => {
    const wrapper = (await fixture(html`<div dir="rtl" style="width: 600px">
      <connect-provider endpoint="/api/connect" provider="netsuite"></connect-provider>
    </div>`)) as HTMLElement;
    const el = wrapper.querySelector('connect-provider')!;
    await waitUntil(() => el.shadowRoot!.querySelector('[part=field]'), 'no input');
    const label = el.shadowRoot!.querySelector('label')!;
    const range = document.createRange();
    range.selectNodeContents(label);
    const words = range.getBoundingClientRect();
    const line = label.getBoundingClientRect();
    expect(line.right - words.right).to.be.lessThan(1);
    expect(words.left - line.left).to.be.greaterThan(10);
  });

  it('should wrap a long German word inside a 320 px container', async () => {
    const wrapper = (await fixture(html`<div style="width: 320px" lang="de"></div>`)) as HTMLElement;
    const el = document.createElement('connect-provider') as ConnectProvider;
    el.strings = {
      connect: 'Kundenbeziehungsmanagementsystemverbindungseinrichtungsassistent {provider}',
      workspace: 'Arbeitsbereichsunterdomänenbezeichnungseingabefeldbeschriftung',
    };
    el.setAttribute('endpoint', '/api/connect');
    el.setAttribute('provider', 'zendesk');
    wrapper.append(el);
    await waitUntil(() => el.shadowRoot?.querySelector('[part=field]'), 'no input');
    await waitUntil(() => button(el).textContent!.includes('Kunden'), 'not the long label');
    const outer = wrapper.getBoundingClientRect();
    for (const part of ['button', 'field'])
      expect(box(el, part).right, `${part} within 320 px`).to.be.at.most(outer.right + 0.5);
    expect(el.getBoundingClientRect().width).to.be.at.most(320);
    expect(wrapper.scrollWidth).to.be.at.most(320);
  });
});

describe('<connect-provider> in a 320 px column, in every language', () => {
  let group: string;
  freshSessionEachTest((session) => ({ group } = session));

  it("should keep each pack's Reconnect Salesforce, icon and all, on one line", async () => {
    await seedConnection(group, 'salesforce', 'allow');
    const wrapper = (await fixture(html`<div style="width: 320px"></div>`)) as HTMLElement;
    const el = document.createElement('connect-provider') as ConnectProvider;
    el.setAttribute('endpoint', '/api/connect');
    el.setAttribute('provider', 'salesforce');
    wrapper.append(el);
    await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read');
    await waitUntil(() => el.shadowRoot!.querySelector<HTMLImageElement>('img[part=icon]')?.complete, 'no icon');
    const wrapped: string[] = [];
    for (const [lang, pack] of Object.entries(PACKS)) {
      el.lang = lang;
      const label = button(el).querySelector('slot')!;
      const expected = pack.reconnect!.replace('{provider}', 'Salesforce');
      await waitUntil(() => label.textContent === expected, `${lang}: not "${expected}"`);
      // One line: every box of the label's text (one per line it takes) starts at the same height.
      const range = document.createRange();
      range.selectNodeContents(label);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1 || box(el, 'button').right > wrapper.getBoundingClientRect().right + 0.5)
        wrapped.push(`${lang}: "${label.textContent}"`);
    }
    expect(wrapped, 'labels that wrap or overflow at 320 px').to.deep.equal([]);
  });
});

describe('<connect-provider> direction from its language', () => {
  let group: string;
  freshSessionEachTest((session) => ({ group } = session));

  it('should read right to left in a right-to-left language where the page sets no dir, and follow a dir set', async () => {
    await seedConnection(group, 'slack', 'allow');
    const wrapper = (await fixture(html`<div lang="he" style="width: 600px">
      <connect-provider endpoint="/api/connect" provider="slack" disconnectable></connect-provider>
    </div>`)) as HTMLElement;
    const el = wrapper.querySelector('connect-provider')!;
    await waitUntil(() => el.getAttribute('connection-status') === 'working', 'not read');
    await el.updateComplete;
    expect(getComputedStyle(button(el)).direction).to.equal('rtl');
    expect(box(el, 'disconnect').right, 'Disconnect to the left').to.be.lessThan(box(el, 'button').left);
    // The page's own dir wins.
    wrapper.dir = 'ltr';
    await waitUntil(() => getComputedStyle(button(el)).direction === 'ltr', 'the page dir did not win');
    wrapper.removeAttribute('dir');
    wrapper.lang = 'en';
    await waitUntil(() => getComputedStyle(button(el)).direction === 'ltr', 'English did not read left to right');
  });

  it('should isolate a name that ends in punctuation, so it keeps its order in a text of the other direction', async () => {
    const el = (await fixture(
      html`<connect-provider lang="ar" dir="rtl" endpoint="/nowhere" provider="yahoo!"></connect-provider>`,
    )) as ConnectProvider;
    const label = () => el.shadowRoot!.querySelector('[part=button] slot')!.textContent!;
    // Once the read answered (a backend without the routes: at once), the label is a text with the name in it.
    await waitUntil(() => label() !== 'Yahoo!', 'no label but the name');
    expect(label()).to.include('\u2068Yahoo!\u2069');
    // A name of letters alone needs no isolation.
    el.provider = 'slack';
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=button] slot')!.textContent).to.not.include('\u2068');
  });
});
