// End-to-end, beside demo.test.ts (the settings page in three stacks, each
// outcome): the page of single <connect-provider> elements placed by hand, the
// page that embeds elements in an iframe sandboxed without allow-popups (the
// link way), the language switch (German, Arabic right to left, Japanese; kept
// by a reload), and every demo page at 320 px. A file of its own: each file has
// its own demo (helpers.ts) and its own time limit.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  chooseLanguage,
  connectsSalesforceThenDisconnects,
  demo,
  openPage,
  PROVIDERS,
  row,
  STACKS,
  statusText,
  buttonName,
  timelineEvent,
  useDemo,
  waitForCount,
  waitForText,
  zendeskSubdomain,
} from './helpers.js';

useDemo();

describe('the single elements page, placed by hand', () => {
  it("shows each element's connection before any click", async () => {
    const page = await openPage('/elements.html');
    assert.equal(await page.locator('connect-provider[disconnectable]').count(), PROVIDERS.length);
    const hubspot = page.locator('#hubspot');
    assert.equal(await hubspot.getAttribute('connection-status'), 'bad_credentials');
    assert.match(await statusText(page, 'hubspot'), /HubSpot needs you to sign in again/);
    assert.match(await buttonName(hubspot.locator('[part=button]')), /Reconnect HubSpot/);
    await page.locator('#slack[connection-status="working"]').waitFor();
    assert.match(await statusText(page, 'slack'), /Connected to Slack/);
    assert.equal(await page.locator('#salesforce').getAttribute('connection-status'), 'none');
    assert.equal(await page.locator('#salesforce [part=disconnect]').count(), 0);
    assert.match((await page.locator('#zendesk .field label').textContent()) ?? '', /Zendesk subdomain/);
    assert.match((await page.locator('#netsuite .field label').textContent()) ?? '', /Account ID/);
    assert.equal(await page.locator('#timeline li[data-event="connect-loaded"]').count(), PROVIDERS.length);
    await page.context().close();
  });

  it('connects Salesforce through the consent popup, then disconnects it after confirming', () =>
    connectsSalesforceThenDisconnects('/elements.html'));
  it("names Zendesk's input a subdomain (its own strings), stops an empty click and goes to the consent page typed", () =>
    zendeskSubdomain('/elements.html'));
});

describe('the page of an iframe sandboxed without allow-popups', () => {
  it('shows the link way in the frame; the link, opened in another browser and allowed, connects Salesforce', async () => {
    const context = await demo.browser.newContext();
    const page = await context.newPage();
    let popups = 0;
    page.on('popup', () => popups++);
    await page.goto(`${demo.base}/sandboxed.html`);
    assert.equal(await page.locator('#frame').getAttribute('sandbox'), 'allow-scripts allow-same-origin');
    const frame = page.frameLocator('#frame');
    await frame.locator('#salesforce[connection-status="none"]').waitFor({ timeout: 15000 });
    const salesforce = frame.locator('#salesforce');
    await salesforce.locator('[part=button]').click();
    await salesforce.locator('[part=qr]').waitFor();
    const link = (await salesforce.locator('[part=link]').textContent()) ?? '';
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/consent\//, "the emulator's consent link");
    assert.equal(await salesforce.getAttribute('state'), 'authorizing');
    assert.match(
      (await salesforce.locator('[part=status]').textContent()) ?? '',
      /Open this link in your browser to connect Salesforce/,
    );
    assert.match(await timelineEvent(page, 'connect-link', 'salesforce'), /"reason":"sandboxed"/);
    // Another browser (a context of its own: none of this page's cookies) opens the link, and the person allows.
    const elsewhere = await demo.browser.newContext();
    const consent = await elsewhere.newPage();
    await consent.goto(link);
    assert.match((await consent.locator('h1').textContent()) ?? '', /Demo App wants to connect to Salesforce/);
    await consent.getByRole('button', { name: 'Allow', exact: true }).click();
    await elsewhere.close();
    // The element, which could open no window, finds the new connection and ends connected on its own.
    assert.match(await timelineEvent(page, 'connect-success', 'salesforce'), /\(working\)/);
    await frame.locator('#salesforce[state="working"][connection-status="working"]').waitFor();
    assert.equal(popups, 0, 'no window opened');
    assert.equal(await page.locator('#timeline li[data-event="connect-popup-blocked"]').count(), 0);
    assert.equal(await page.locator('#timeline li[data-event="connect-success"]').count(), 1);
    // Left as found: disconnected, for the other tests of this demo.
    await salesforce.locator('[part=disconnect]').click();
    await salesforce.locator('[part=keep]').waitFor();
    await salesforce.locator('[part=disconnect]').click();
    await frame.locator('#salesforce[connection-status="none"]').waitFor();
    await context.close();
  });

  it('with the switch on (allow-popups), the same click opens the consent popup', async () => {
    const context = await demo.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${demo.base}/sandboxed.html`);
    const frame = page.frameLocator('#frame');
    await frame.locator('#salesforce[connection-status="none"]').waitFor({ timeout: 15000 });
    await Promise.all([
      page.waitForEvent('framenavigated', (navigated) => navigated.parentFrame() === page.mainFrame()),
      page.locator('#allow-popups').check(),
    ]);
    assert.match((await page.locator('#sandbox').textContent()) ?? '', /allow-popups allow-popups-to-escape-sandbox/);
    // The frame was loaded anew, with the new sandbox: its element reads its connection again.
    await frame.locator('#salesforce[connection-status="none"]').waitFor({ timeout: 15000 });
    const [popup] = await Promise.all([page.waitForEvent('popup'), frame.locator('#salesforce [part=button]').click()]);
    await popup.waitForLoadState();
    assert.match((await popup.locator('h1').textContent()) ?? '', /Demo App wants to connect to Salesforce/);
    assert.equal(await frame.locator('#salesforce [part=link]').count(), 0);
    await context.close();
  });
});

describe('the language switch', () => {
  // The element's texts come from its locale packs (src/locales), the settings card's from the demo.
  for (const [name, path] of STACKS) {
    it(`German on the ${name} page: <html lang="de">, the rows and the card in German, kept by a reload and on the other pages`, async () => {
      const page = await openPage(path);
      await chooseLanguage(page, 'de');
      assert.equal(await page.evaluate(() => document.documentElement.dir), 'ltr');
      await waitForText(page.locator(`${row(page, 'salesforce')} [part=button]`), /^\s*Salesforce verbinden\s*$/);
      assert.match(await statusText(page, 'hubspot'), /HubSpot erfordert eine erneute Anmeldung/);
      // A list's row opens its input on its button's click; a single element shows it from the start.
      const label = page.locator(`${row(page, 'zendesk')} .field label`);
      if (!(await label.count())) await page.locator(`${row(page, 'zendesk')} [part=button]`).click();
      assert.match((await label.textContent()) ?? '', /Zendesk-Subdomain/);
      assert.equal(await page.locator('#title').textContent(), 'Integrationen');
      if (path !== '/elements.html')
        assert.equal(
          await page.locator('connect-integrations [part=search]').getAttribute('placeholder'),
          'Integrationen durchsuchen',
        );
      // A reload keeps it (?lang=de), and so does another page without it (the choice is stored).
      assert.equal(new URL(page.url()).searchParams.get('lang'), 'de');
      await page.reload();
      await waitForText(page.locator(`${row(page, 'salesforce')} [part=button]`), /Salesforce verbinden/);
      await page.goto(`${demo.base}${path === '/vanilla.html' ? '/vue.html' : '/vanilla.html'}`);
      // The header is drawn once the page has taken its language.
      assert.equal(await page.locator('#lang').inputValue(), 'de', 'the other page keeps the choice');
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
      await waitForText(page.locator(`${row(page, 'hubspot')} [part=button]`), /HubSpot erneut verbinden/);
      await page.context().close();
    });
  }

  it('Arabic: <html lang="ar" dir="rtl">, the rows in Arabic, each mirrored: its main button left of its description', async () => {
    const page = await openPage('/vanilla.html');
    const salesforce = `connect-integrations li[part~=row]:has(.name > strong:text-is("Salesforce"))`;
    const boxes = async () => {
      const [description, button, reconnect, disconnectButton] = await Promise.all([
        page.locator(`${salesforce} .name > small:not(.detail)`).boundingBox(),
        page.locator(`${salesforce} [part=button]`).boundingBox(),
        page.locator(`${row(page, 'hubspot')} [part=button]`).boundingBox(),
        page.locator(`${row(page, 'hubspot')} [part=disconnect]`).boundingBox(),
      ]);
      return { description: description!, button: button!, reconnect: reconnect!, disconnect: disconnectButton! };
    };
    // Left to right (English), first: the main button lies right of the description, Disconnect right of Reconnect.
    const ltr = await boxes();
    assert.ok(ltr.button.x >= ltr.description.x + ltr.description.width, 'ltr: the button right of the description');
    const ltrGap = ltr.disconnect.x - (ltr.reconnect.x + ltr.reconnect.width);
    assert.ok(ltrGap > 0, `ltr: Disconnect after Reconnect (gap ${ltrGap})`);

    await chooseLanguage(page, 'ar');
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    await waitForText(page.locator(`${row(page, 'salesforce')} [part=button]`), /ربط حساب Salesforce/);
    assert.match(await statusText(page, 'hubspot'), /يتطلب HubSpot تسجيل الدخول مرة أخرى/);
    assert.equal(await page.locator('#title').textContent(), 'عمليات التكامل');
    assert.equal(
      await page.locator('connect-integrations [part=search]').getAttribute('placeholder'),
      'البحث في عمليات التكامل',
    );
    // Right to left: the row mirrors. The description (at the start) is on the right, the main button on its left;
    // Disconnect lies left of Reconnect with the same gap.
    const rtl = await boxes();
    assert.ok(
      rtl.button.x + rtl.button.width <= rtl.description.x,
      `rtl: the button (${rtl.button.x}+${rtl.button.width}) left of the description (${rtl.description.x})`,
    );
    const rtlGap = rtl.reconnect.x - (rtl.disconnect.x + rtl.disconnect.width);
    assert.ok(
      Math.abs(rtlGap - ltrGap) <= 1,
      `rtl: Disconnect before Reconnect with the same gap (${rtlGap}, ${ltrGap})`,
    );
    await page.context().close();
  });

  it('Japanese: <html lang="ja">, the rows and the card in Japanese', async () => {
    const page = await openPage('/react.html');
    await chooseLanguage(page, 'ja');
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'ltr');
    await waitForText(page.locator(`${row(page, 'salesforce')} [part=button]`), /Salesforce と連携/);
    assert.match(await statusText(page, 'slack'), /Slack と連携済み/);
    assert.match(await buttonName(page.locator(`${row(page, 'hubspot')} [part=button]`)), /HubSpot と再連携/);
    // The row's input opens on its button's click.
    await page.locator(`${row(page, 'zendesk')} [part=button]`).click();
    assert.match(
      (await page.locator(`${row(page, 'zendesk')} .field label`).textContent()) ?? '',
      /Zendesk のサブドメイン/,
    );
    assert.equal(await page.locator('#title').textContent(), '連携サービス');
    assert.equal(
      await page.locator('connect-integrations [part=search]').getAttribute('placeholder'),
      '連携サービスを検索',
    );
    await page.context().close();
  });
});

describe('every demo page at 320 px wide', () => {
  /** The main button of Salesforce in each language: the rows have their texts. */
  const CONNECT = { en: /Connect Salesforce/, de: /Salesforce verbinden/, ar: /ربط حساب Salesforce/ } as const;
  for (const path of ['/', '/vanilla.html', '/react.html', '/vue.html', '/elements.html'])
    it(`${path}: no horizontal scroll, the header within the screen, no row over its title, in English, German and Arabic`, async () => {
      const context = await demo.browser.newContext({ viewport: { width: 320, height: 640 } });
      const page = await context.newPage();
      for (const [lang, connect] of Object.entries(CONNECT)) {
        await page.goto(`${demo.base}${path}?lang=${lang}`);
        await page.locator('#lang').waitFor();
        if (path !== '/') {
          await waitForCount(page, 'connect-provider[connection-status]', PROVIDERS.length);
          await waitForText(page.locator(`${row(page, 'salesforce')} [part=button]`), connect);
        }
        const problems = await page.evaluate(() => {
          const found: string[] = [];
          const width = 320;
          const { scrollWidth } = document.documentElement;
          if (scrollWidth > width) found.push(`the page is ${scrollWidth} px wide`);
          for (const el of document.querySelectorAll<HTMLElement>('#header *')) {
            const box = el.getBoundingClientRect();
            if (box.left < 0 || box.right > width)
              found.push(`the header's ${el.localName} spans ${box.left}..${box.right}`);
          }
          // Each row: its title and its element, in the list's shadow root or placed by hand.
          const rows: [Element | null, Element | null][] = [...document.querySelectorAll('.integrations li')].map(
            (li) => [li.querySelector('.about'), li.querySelector('connect-provider')],
          );
          for (const list of document.querySelectorAll('connect-integrations'))
            for (const li of list.shadowRoot!.querySelectorAll('li[part~=row]'))
              rows.push([li.querySelector('.name'), li.querySelector('connect-provider')]);
          // What is drawn, not the boxes alone: a title's text may overflow its box, a button its element's. (No
          // named functions in here: tsx would wrap them in a helper the page does not have.)
          const range = document.createRange();
          for (const [title, element] of rows) {
            if (!title || !element) continue;
            range.selectNodeContents(title);
            const a = range.getBoundingClientRect();
            const name = (element as HTMLElement & { provider: string }).provider;
            if (a.left < 0 || a.right > width) found.push(`${name}'s title spans ${a.left}..${a.right}`);
            const parts = [...(element.shadowRoot?.querySelectorAll('[part]') ?? [])];
            for (const b of [element, ...parts].map((drawn) => drawn.getBoundingClientRect())) {
              if (!b.width || !b.height) continue;
              if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
                found.push(`${name}'s element overlaps its title`);
                break;
              }
              if (b.left < 0 || b.right > width) found.push(`${name}'s element spans ${b.left}..${b.right}`);
            }
          }
          return found;
        });
        assert.deepEqual(problems, [], `${path}?lang=${lang}`);
      }
      await context.close();
    });
});
