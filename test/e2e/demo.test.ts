// End-to-end: the running demo (Vite, the connect handler and the emulator,
// in-process, as `npm run demo` starts them) driven through Debian's Chromium
// with Playwright: real clicks, the real popup window, the emulator's consent page.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { freePort } from '../node/helpers/ports.js';
import { chromiumLaunchOptions } from '../../scripts/browsers.mjs';

let vite: ViteDevServer;
let browser: Browser;
let base: string;

before(async () => {
  const port = await freePort();
  process.env.DEMO_EMULATOR_PORT = String(await freePort());
  process.env.DEMO_VERIFY_DELAY = '300';
  delete process.env.PLATFORM_API_KEY;
  vite = await createServer({ configFile: 'vite.config.ts', server: { port, strictPort: true }, logLevel: 'error' });
  await vite.listen();
  base = `http://127.0.0.1:${port}`;
  browser = await chromium.launch(chromiumLaunchOptions);
});

after(async () => {
  await browser?.close();
  await vite?.close();
});

async function openPage(path: string, context?: BrowserContext): Promise<Page> {
  const ctx = context ?? (await browser.newContext());
  const page = await ctx.newPage();
  await page.goto(`${base}${path}`);
  await page.locator('#timeline').waitFor();
  return page;
}

/** Clicks an element's button and returns the popup it opens. */
async function clickAndGetPopup(page: Page, elementId: string) {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator(`#${elementId} [part=button]`).click()]);
  await popup.waitForLoadState();
  return popup;
}

async function timelineEvent(page: Page, type: string, source?: string): Promise<string> {
  const line = page.locator(`#timeline li[data-event="${type}"]${source ? `[data-source="${source}"]` : ''}`).first();
  await line.waitFor({ timeout: 15000 });
  return (await line.locator('.detail').textContent()) ?? '';
}

describe('the demo, end to end in Chromium', () => {
  for (const [name, path] of [
    ['plain HTML', '/vanilla.html'],
    ['React', '/react.html'],
    ['Vue', '/vue.html'],
  ]) {
    it(`the ${name} page connects Salesforce through the consent popup`, async () => {
      const page = await openPage(path);
      const popup = await clickAndGetPopup(page, 'connect');
      assert.match((await popup.locator('h1').textContent()) ?? '', /Demo App wants to connect to Salesforce/);
      await popup.getByRole('button', { name: 'Allow', exact: true }).click();
      const detail = await timelineEvent(page, 'connect-success');
      assert.match(detail, /\(working\)/);
      await page.locator('#connect[state="working"]').waitFor();
      assert.match((await page.locator('#connect [part=status]').textContent()) ?? '', /Connected to Salesforce/);
      await page.context().close();
    });
  }

  it('reports a denied consent as authorization_failed', async () => {
    const page = await openPage('/vanilla.html');
    await page.selectOption('#provider', 'notion');
    const popup = await clickAndGetPopup(page, 'connect');
    await popup.getByRole('button', { name: 'Deny' }).click();
    assert.match(await timelineEvent(page, 'connect-error'), /"code":"authorization_failed"/);
    await page.context().close();
  });

  it('reports bad credentials after "Allow with bad credentials"', async () => {
    const page = await openPage('/vanilla.html');
    await page.selectOption('#provider', 'slack');
    const popup = await clickAndGetPopup(page, 'connect');
    await popup.getByRole('button', { name: 'Allow with bad credentials' }).click();
    assert.match(await timelineEvent(page, 'connect-error'), /"code":"bad_credentials"/);
    await page.locator('#connect[state="bad_credentials"]').waitFor();
    await page.context().close();
  });

  it('waits for a popup the user closed, and ends connect-cancel popup_closed through "Stop waiting"', async () => {
    const page = await openPage('/vanilla.html');
    const popup = await clickAndGetPopup(page, 'connect');
    // Closed once it shows the consent page (closed before, it ends at once: nothing can have happened).
    await popup.getByRole('button', { name: 'Deny' }).waitFor();
    await popup.close();
    const stop = page.locator('#connect [part=stop]');
    await stop.waitFor();
    assert.match((await page.locator('#connect [part=status]').textContent()) ?? '', /Waiting for Salesforce sign-in/);
    await stop.click();
    assert.match(await timelineEvent(page, 'connect-cancel'), /"reason":"popup_closed"/);
    await page.context().close();
  });

  it('runs its two elements side by side: Reconnect HubSpot allowed, Connect Salesforce denied', async () => {
    const page = await openPage('/vanilla.html');
    const salesforce = await clickAndGetPopup(page, 'connect');
    const hubspot = await clickAndGetPopup(page, 'reconnect');
    assert.notEqual(salesforce, hubspot);
    await hubspot.getByRole('button', { name: 'Allow', exact: true }).click();
    assert.match(await timelineEvent(page, 'connect-success', 'reconnect'), /conn_demo \(working\)/);
    assert.equal(await salesforce.isClosed(), false, "the HubSpot flow left Salesforce's popup alone");
    await salesforce.getByRole('button', { name: 'Deny' }).click();
    assert.match(await timelineEvent(page, 'connect-error', 'connect'), /authorization_failed/);
    await page.locator('#connect[state="error"]').waitFor();
    await page.locator('#reconnect[state="working"]').waitFor();
    assert.equal(await page.locator('#timeline li[data-event="connect-success"][data-source="connect"]').count(), 0);
    await page.context().close();
  });

  it('shows the fallback button when the popup is blocked, and connects through it', async () => {
    const context = await browser.newContext();
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
    await page.locator('#connect [part=button]').click();
    assert.match(await timelineEvent(page, 'connect-popup-blocked'), /consent/);
    const fallback = page.locator('#connect [part=fallback]');
    await fallback.waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), fallback.click()]);
    await popup.getByRole('button', { name: 'Allow', exact: true }).click();
    await timelineEvent(page, 'connect-success');
    await context.close();
  });

  it("refuses the other user's reconnect of Acme's conn_demo", async () => {
    const page = await openPage('/vanilla.html');
    await Promise.all([page.waitForEvent('load'), page.selectOption('#user', 'otto')]);
    await page.locator('#timeline').waitFor();
    await page.locator('#reconnect [part=button]').click();
    const detail = await timelineEvent(page, 'connect-error');
    assert.match(detail, /"code":"http_error"/);
    assert.match(detail, /"status":404/);
    await page.context().close();
  });

  it('reconnects conn_demo as an Acme user, past its old bad_credentials', async () => {
    const page = await openPage('/vanilla.html');
    const popup = await clickAndGetPopup(page, 'reconnect');
    assert.match((await popup.locator('h1').textContent()) ?? '', /reconnect to HubSpot/);
    await popup.getByRole('button', { name: 'Allow', exact: true }).click();
    const detail = await timelineEvent(page, 'connect-success');
    assert.match(detail, /conn_demo \(working\)/);
    await page.context().close();
  });
});
