// End-to-end: the running demo (Vite, the connect handler and the emulator,
// in-process, as `npm run demo` starts them) driven through Debian's Chromium
// with Playwright: real clicks, the real popup window, the emulator's consent
// page. The demo is one settings page in three stacks, each one
// <connect-integrations endpoint="/api/connect" disconnectable> whose rows
// (the project's integrations, from GET /api/connect/integrations) are
// <connect-provider> elements in its shadow root, and a page of single
// <connect-provider> elements placed by hand (elements.html). Signed in as Ada
// (group acme): HubSpot is the seed's conn_demo in bad_credentials, Slack is
// connected at start, Zendesk asks for a subdomain and NetSuite an account ID.
// The single elements, the language switch and the pages at 320 px are in
// demo-pages.test.ts. The tests of a file share one emulator: each leaves the
// connections as it found them (what it connects, it disconnects), so they can
// run in any order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  clickAndGetPopup,
  connectsSalesforceThenDisconnects,
  consentDetail,
  demo,
  disconnect,
  LIST_PAGES,
  NAMES,
  openPage,
  PROVIDERS,
  row,
  statusText,
  timelineEvent,
  buttonName,
  useDemo,
  waitForCount,
  zendeskSubdomain,
} from './helpers.js';

useDemo();

describe('the demo settings page, end to end in Chromium', () => {
  for (const [name, path] of LIST_PAGES) {
    it(`the ${name} page shows every integration's row with its connection before any click`, async () => {
      const context = await demo.browser.newContext();
      const opened = await context.newPage();
      const reads: string[] = [];
      opened.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/connect')) reads.push(`${request.method()} ${url.pathname}`);
      });
      await opened.goto(`${demo.base}${path}`);
      await opened.locator('#timeline').waitFor();
      // One row per integration of the project, in the platform's order, each titled and described.
      await waitForCount(opened, 'connect-integrations connect-provider[provider]', PROVIDERS.length);
      const rows = await opened.locator('connect-integrations').evaluate((list) =>
        [...list.shadowRoot!.querySelectorAll('li[part~=row]')].map((li) => ({
          title: li.querySelector('.name > strong')?.textContent,
          about: li.querySelector('.name > small:not(.detail)')?.textContent ?? '',
          disconnectable: li.querySelector('connect-provider')?.hasAttribute('disconnectable'),
        })),
      );
      assert.deepEqual(
        rows.map((r) => r.title),
        PROVIDERS.map((p) => NAMES[p]),
      );
      assert.ok(
        rows.every((r) => r.about.length > 0 && r.disconnectable),
        'each row described and disconnectable',
      );
      assert.equal(rows[1].about, 'Sync accounts and opportunities.');
      // Each row reads its connection with no click: HubSpot's bad_credentials, Slack's working, the others none.
      await opened.locator(`${row(opened, 'slack')}[connection-status="working"]`).waitFor({ timeout: 15000 });
      await waitForCount(opened, 'connect-provider[connection-status]', PROVIDERS.length);
      for (const provider of PROVIDERS)
        assert.equal(
          await opened.locator(row(opened, provider)).getAttribute('connection-status'),
          provider === 'hubspot' ? 'bad_credentials' : provider === 'slack' ? 'working' : 'none',
          provider,
        );
      // The list read the integrations and the connections once each, and asked for no provider one by one.
      assert.deepEqual(reads.sort(), ['GET /api/connect/connections', 'GET /api/connect/integrations']);
      // HubSpot: the seed's conn_demo, bad_credentials: a plain-words status and Reconnect.
      const hubspot = opened.locator(row(opened, 'hubspot'));
      assert.match(await statusText(opened, 'hubspot'), /HubSpot needs you to sign in again/);
      assert.match(await buttonName(hubspot.locator('[part=button]')), /Reconnect HubSpot/);
      // The row shows the provider's icon by its name (its button does not repeat it).
      const icon = opened.locator(
        'connect-integrations li[part~=row]:has(connect-provider[provider="hubspot"]) .name img',
      );
      assert.match((await icon.getAttribute('src')) ?? '', /\/media\/hubspot(-dark)?\.svg$/);
      await hubspot.locator('[part=disconnect]').waitFor();
      // Slack: connected when the demo started.
      assert.match(await statusText(opened, 'slack'), /Connected to Slack/);
      await opened.locator(`${row(opened, 'slack')} [part=disconnect]`).waitFor();
      // Salesforce: nothing yet, so Connect and no Disconnect.
      assert.match(
        await buttonName(opened.locator(`${row(opened, 'salesforce')} [part=button]`)),
        /Connect Salesforce/,
      );
      assert.equal(await opened.locator(`${row(opened, 'salesforce')} [part=disconnect]`).count(), 0);
      // Zendesk asks for a subdomain (the list's strings), NetSuite for an account ID: each on its button's click.
      for (const provider of ['zendesk', 'netsuite']) {
        assert.equal(await opened.locator(`${row(opened, provider)} [part=field]`).count(), 0, 'no input before');
        await opened.locator(`${row(opened, provider)} [part=button]`).click();
        await opened.locator(`${row(opened, provider)} [part=field]`).waitFor();
      }
      assert.match(
        (await opened.locator(`${row(opened, 'zendesk')} .field label`).textContent()) ?? '',
        /Zendesk subdomain/,
      );
      assert.match((await opened.locator(`${row(opened, 'netsuite')} .field label`).textContent()) ?? '', /Account ID/);
      assert.equal(
        await opened.locator(`${row(opened, 'netsuite')} [part=field]`).getAttribute('data-field'),
        'accountId',
      );
      // The timeline heard every row on the list, by detail.provider, and the list's own event.
      await waitForCount(opened, '#timeline li[data-event="connect-loaded"]', PROVIDERS.length);
      const sources = await opened
        .locator('#timeline li[data-event="connect-loaded"]')
        .evaluateAll((lines) => lines.map((line) => (line as HTMLElement).dataset.source));
      assert.deepEqual(sources.sort(), [...PROVIDERS].sort());
      assert.match(await timelineEvent(opened, 'connect-loaded', 'hubspot'), /conn_demo \(bad_credentials\)/);
      assert.match(await timelineEvent(opened, 'connect-loaded', 'salesforce'), /"connection":null/);
      const loaded = await timelineEvent(opened, 'connect-integrations-loaded', 'list');
      for (const provider of PROVIDERS) assert.match(loaded, new RegExp(`"provider":"${provider}"`));
      await context.close();
    });
  }

  for (const [name, path] of LIST_PAGES) {
    it(`the ${name} page connects Salesforce through the consent popup, then disconnects it after confirming`, () =>
      connectsSalesforceThenDisconnects(path));
    it(`the ${name} page's Zendesk subdomain stops an empty click and goes to the consent page typed`, () =>
      zendeskSubdomain(path));
  }
});

describe('the plain HTML settings page (the list), each outcome', () => {
  it('connects Apollo through its API key form with no popup, then refuses an invalid key on reconnect', async () => {
    const page = await openPage('/vanilla.html');
    const apollo = page.locator(row(page, 'apollo'));
    const key = apollo.locator('[part=field][data-field=apiKey]');
    // The row's form opens on its button's click; the key is masked by style, never a password input.
    await apollo.locator('[part=button]').click();
    await key.waitFor();
    assert.equal(await key.getAttribute('data-masked'), '');
    assert.equal(await key.getAttribute('type'), 'text');
    await key.fill('demo-apollo-key');
    let popups = 0;
    page.on('popup', () => popups++);
    await key.press('Enter');
    await page.locator(`${row(page, 'apollo')}[connection-status="working"]`).waitFor();
    assert.match(await statusText(page, 'apollo'), /Connected to Apollo/);
    assert.match(await timelineEvent(page, 'connect-start', 'apollo'), /"scheme":"form"/);
    // Reconnect opens the form again, empty; an invalid key is refused by the provider.
    await apollo.locator('[part=button]').click();
    assert.equal(await key.inputValue(), '');
    await key.fill('an-invalid-key');
    await apollo.locator('[part=button]').click();
    await page.locator(`${row(page, 'apollo')}[connection-status="bad_credentials"]`).waitFor();
    assert.match(await statusText(page, 'apollo'), /Apollo did not accept the sign-in/);
    assert.equal(popups, 0, 'no window opened');
    // Left as found: no Apollo connection (the question is not checked after bad_credentials, see below).
    await disconnect(page, 'apollo', 'Apollo', { asks: false });
    await page.context().close();
  });

  it("sends NetSuite's account ID to the consent page, and reports a denied consent as authorization_failed", async () => {
    const page = await openPage('/vanilla.html');
    await page.locator(`${row(page, 'netsuite')} [part=button]`).click();
    await page.locator(`${row(page, 'netsuite')} [part=field]`).fill('1234567');
    const popup = await clickAndGetPopup(page, 'netsuite');
    assert.equal(await consentDetail(popup, 'Account ID'), '1234567');
    await popup.getByRole('button', { name: 'Deny' }).click();
    assert.match(await timelineEvent(page, 'connect-error', 'netsuite'), /"code":"authorization_failed"/);
    assert.match(await statusText(page, 'netsuite'), /NetSuite access was not granted/);
    assert.equal(await page.locator(row(page, 'netsuite')).getAttribute('connection-status'), 'none');
    await page.context().close();
  });

  it('reports bad credentials after "Allow with bad credentials", and the row then offers Reconnect', async () => {
    const page = await openPage('/vanilla.html');
    const popup = await clickAndGetPopup(page, 'salesforce');
    await popup.getByRole('button', { name: 'Allow with bad credentials' }).click();
    assert.match(await timelineEvent(page, 'connect-error', 'salesforce'), /"code":"bad_credentials"/);
    await page
      .locator(`${row(page, 'salesforce')}[state="bad_credentials"][connection-status="bad_credentials"]`)
      .waitFor();
    assert.match(await buttonName(page.locator(`${row(page, 'salesforce')} [part=button]`)), /Reconnect Salesforce/);
    // Known element issue: after a flow that ended in bad_credentials (or error), the status line keeps the flow's
    // text while the disconnect is being confirmed, so "Disconnect Salesforce?" is not shown; the Keep and
    // Disconnect buttons are, and the disconnect works.
    await disconnect(page, 'salesforce', 'Salesforce', { asks: false });
    await page.context().close();
  });

  it('waits for a popup the user closed, and ends connect-cancel popup_closed through "Stop waiting"', async () => {
    const page = await openPage('/vanilla.html');
    const popup = await clickAndGetPopup(page, 'salesforce');
    // Closed once it shows the consent page (closed before, it ends at once: nothing can have happened).
    await popup.getByRole('button', { name: 'Deny' }).waitFor();
    await popup.close();
    const stop = page.locator(`${row(page, 'salesforce')} [part=stop]`);
    await stop.waitFor();
    assert.match(await statusText(page, 'salesforce'), /Waiting for Salesforce sign-in/);
    await stop.click();
    assert.match(await timelineEvent(page, 'connect-cancel', 'salesforce'), /"reason":"popup_closed"/);
    await page.context().close();
  });

  it('shows the fallback button when the popup is blocked, and connects through it', async () => {
    const context = await demo.browser.newContext();
    // The boundary under test: the browser's popup blocker refuses the first window.open.
    await context.addInitScript(() => {
      const open = window.open;
      let refused = false;
      window.open = function (...args: Parameters<typeof window.open>) {
        if (!refused) {
          refused = true;
          return null;
        }
        return open.apply(window, args);
      } as typeof window.open;
    });
    const page = await openPage('/vanilla.html', context);
    await page.locator(`${row(page, 'salesforce')} [part=button]`).click();
    assert.match(await timelineEvent(page, 'connect-popup-blocked', 'salesforce'), /consent/);
    const popup = await clickAndGetPopup(page, 'salesforce', 'fallback');
    await popup.getByRole('button', { name: 'Allow', exact: true }).click();
    await timelineEvent(page, 'connect-success', 'salesforce');
    await disconnect(page, 'salesforce', 'Salesforce');
    await context.close();
  });

  it("shows the other group's user none of Acme's connections", async () => {
    const page = await openPage('/vanilla.html');
    await Promise.all([page.waitForEvent('load'), page.selectOption('#user', 'otto')]);
    await waitForCount(page, 'connect-provider[connection-status="none"]', PROVIDERS.length);
    assert.match(await buttonName(page.locator(`${row(page, 'hubspot')} [part=button]`)), /Connect HubSpot/);
    assert.equal(await page.locator('[part=disconnect]').count(), 0);
    await page.context().close();
  });

  it('runs two rows side by side: Reconnect HubSpot allowed, Connect Salesforce denied; then HubSpot refused again', async () => {
    const page = await openPage('/vanilla.html');
    const salesforce = await clickAndGetPopup(page, 'salesforce');
    const hubspot = await clickAndGetPopup(page, 'hubspot');
    assert.notEqual(salesforce, hubspot);
    assert.match((await hubspot.locator('h1').textContent()) ?? '', /reconnect to HubSpot/);
    await hubspot.getByRole('button', { name: 'Allow', exact: true }).click();
    assert.match(await timelineEvent(page, 'connect-success', 'hubspot'), /conn_demo \(working\)/);
    assert.equal(await salesforce.isClosed(), false, "the HubSpot flow left Salesforce's popup alone");
    await salesforce.getByRole('button', { name: 'Deny' }).click();
    assert.match(await timelineEvent(page, 'connect-error', 'salesforce'), /authorization_failed/);
    await page.locator(`${row(page, 'salesforce')}[state="error"]`).waitFor();
    await page.locator(`${row(page, 'hubspot')}[state="working"][connection-status="working"]`).waitFor();
    assert.match(await statusText(page, 'hubspot'), /Connected to HubSpot/);
    assert.equal(await page.locator('#timeline li[data-event="connect-success"][data-source="salesforce"]').count(), 0);
    // Reconnected again, with the provider refusing: conn_demo is back in bad_credentials, as the seed has it.
    const again = await clickAndGetPopup(page, 'hubspot');
    await again.getByRole('button', { name: 'Allow with bad credentials' }).click();
    await page.locator(`${row(page, 'hubspot')}[connection-status="bad_credentials"]`).waitFor({ timeout: 15000 });
    await page.context().close();
  });
});
