// What the end-to-end files share: the demo started for a file, its rows found
// (inside <connect-integrations> or placed by hand), and the steps of a flow.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { freePort } from '../node/helpers/ports.js';
import { DEMO_INTEGRATION_PROVIDERS } from '../shared/fixtures.js';
import { chromiumLaunchOptions } from '../../scripts/browsers.mjs';

/** The running demo: Vite (with the handler and the emulator in-process), Chromium, and the demo's base URL. */
export const demo = {} as { vite: ViteDevServer; browser: Browser; base: string };

/** The rows of the list, in the platform's order (the seed's int_demo, HubSpot, first). */
export const PROVIDERS = DEMO_INTEGRATION_PROVIDERS;
/** Each provider's display name, as the emulator's catalog spells it: a row is found by its title. */
export const NAMES: Record<string, string> = {
  hubspot: 'HubSpot',
  salesforce: 'Salesforce',
  slack: 'Slack',
  zendesk: 'Zendesk',
  netsuite: 'NetSuite',
  apollo: 'Apollo',
  insightly: 'Insightly',
  cloudtalk: 'CloudTalk',
  paypal: 'PayPal',
  clariCopilot: 'Clari Copilot',
};
/** The settings page as one <connect-integrations>, in each stack. */
export const LIST_PAGES = [
  ['plain HTML', '/vanilla.html'],
  ['React', '/react.html'],
  ['Vue', '/vue.html'],
] as const;
/** Every page that shows the settings: the list in three stacks, and the single elements placed by hand. */
export const STACKS = [...LIST_PAGES, ['single elements', '/elements.html']] as const;

/** Starts the demo on free ports (as `npm run demo` does, with a short verify delay) and Chromium, for one file. */
export function useDemo(): void {
  before(async () => {
    const port = await freePort();
    process.env.DEMO_EMULATOR_PORT = String(await freePort());
    process.env.DEMO_VERIFY_DELAY = '300';
    delete process.env.PLATFORM_API_KEY;
    demo.vite = await createServer({
      configFile: 'vite.config.ts',
      server: { port, strictPort: true },
      logLevel: 'error',
    });
    await demo.vite.listen();
    demo.base = `http://127.0.0.1:${port}`;
    demo.browser = await chromium.launch(chromiumLaunchOptions);
  });

  after(async () => {
    await demo.browser?.close();
    await demo.vite?.close();
  });
}

/**
 * The CSS selector of a provider's <connect-provider>: on a list page, the element of the row titled with the
 * provider's name, inside the list's shadow root (Playwright's CSS pierces open shadow roots); on the page of single
 * elements, the element by its id.
 */
export function row(page: Page, provider: string): string {
  return new URL(page.url()).pathname === '/elements.html'
    ? `#${provider}`
    : `connect-integrations connect-provider[provider="${provider}"]`;
}

/** Waits until `selector` (piercing shadow roots) matches `count` elements. */
export async function waitForCount(page: Page, selector: string, count: number, timeout = 15000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = await page.locator(selector).count();
    if (found === count) return;
    if (Date.now() > deadline) assert.fail(`${selector}: ${found} elements, not ${count}`);
    await page.waitForTimeout(50);
  }
}

/** Waits until the text of `locator` matches `pattern`; returns it. */
/** A button's accessible name: its aria-label (a list row's short label), else its text. */
export async function buttonName(locator: Locator): Promise<string> {
  return (await locator.evaluate((el) => el.getAttribute('aria-label') ?? el.textContent)) ?? '';
}

/** Waits until the text of `locator` (a button's accessible name) matches `pattern`. */
export async function waitForText(locator: Locator, pattern: RegExp, timeout = 15000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    // A button's accessible name: a list row's short label names its provider there.
    const text =
      ((await locator.count())
        ? await locator.first().evaluate((el) => el.getAttribute('aria-label') ?? el.textContent)
        : null) ?? '';
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) assert.fail(`${pattern} never matched: ${JSON.stringify(text)}`);
    await locator.page().waitForTimeout(50);
  }
}

/** Opens a page of the demo and waits until every row has read its connection. */
export async function openPage(path: string, context?: BrowserContext): Promise<Page> {
  const ctx = context ?? (await demo.browser.newContext());
  const opened = await ctx.newPage();
  await opened.goto(`${demo.base}${path}`);
  await opened.locator('#timeline').waitFor();
  await waitForCount(opened, 'connect-provider[connection-status]', PROVIDERS.length);
  return opened;
}

/** Clicks a row's button and returns the popup it opens. */
export async function clickAndGetPopup(page: Page, provider: string, part = 'button') {
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.locator(`${row(page, provider)} [part=${part}]`).click(),
  ]);
  await popup.waitForLoadState();
  return popup;
}

export async function timelineEvent(page: Page, type: string, source?: string): Promise<string> {
  const line = page.locator(`#timeline li[data-event="${type}"]${source ? `[data-source="${source}"]` : ''}`).first();
  await line.waitFor({ timeout: 15000 });
  return (await line.locator('.detail').textContent()) ?? '';
}

export async function statusText(page: Page, provider: string): Promise<string> {
  return (await page.locator(`${row(page, provider)} [part=status]`).textContent()) ?? '';
}

/** What the consent page shows under a label (Workspace, Account ID...). */
export async function consentDetail(popup: Page, label: string): Promise<string> {
  return (await popup.locator(`dt:text-is("${label}") + dd`).textContent()) ?? '';
}

/**
 * Disconnects a row through its in-place confirmation; resolves once the element shows Connect again. `asks: false`
 * skips the check of the confirmation's question (see the bad-credentials test).
 */
export async function disconnect(page: Page, provider: string, name: string, { asks = true } = {}) {
  const element = page.locator(row(page, provider));
  await element.locator('[part=disconnect]').click();
  await element.locator('[part=keep]').waitFor();
  if (asks) assert.match(await statusText(page, provider), new RegExp(`Disconnect ${name}\\?`));
  await element.locator('[part=disconnect]').click();
  await page.locator(`${row(page, provider)}[connection-status="none"]`).waitFor();
  assert.match(await timelineEvent(page, 'connect-disconnect', provider), /"connection":"conn_\w+ \(/);
  assert.match(await buttonName(element.locator('[part=button]')), new RegExp(`Connect ${name}`));
  assert.equal(await element.locator('[part=disconnect]').count(), 0);
}

/** Chooses a language with the header's switch. */
export async function chooseLanguage(page: Page, lang: string): Promise<void> {
  await page.selectOption('#lang', lang);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, lang);
}

/** Connects Salesforce through the consent popup on `path`, then disconnects it after Keep, then confirming. */
export async function connectsSalesforceThenDisconnects(path: string): Promise<void> {
  const page = await openPage(path);
  const popup = await clickAndGetPopup(page, 'salesforce');
  assert.match((await popup.locator('h1').textContent()) ?? '', /Demo App wants to connect to Salesforce/);
  await popup.getByRole('button', { name: 'Allow', exact: true }).click();
  assert.match(await timelineEvent(page, 'connect-success', 'salesforce'), /\(working\)/);
  await page.locator(`${row(page, 'salesforce')}[state="working"][connection-status="working"]`).waitFor();
  assert.match(await statusText(page, 'salesforce'), /Connected to Salesforce/);
  // Keep: the confirmation goes away and the connection stays.
  const element = page.locator(row(page, 'salesforce'));
  await element.locator('[part=disconnect]').click();
  assert.match(await statusText(page, 'salesforce'), /Disconnect Salesforce\?/);
  await element.locator('[part=keep]').click();
  assert.equal(await element.locator('[part=keep]').count(), 0);
  assert.equal(await element.getAttribute('connection-status'), 'working');
  assert.equal(await page.locator('#timeline li[data-event="connect-disconnect"]').count(), 0);
  // Disconnect, confirmed: the handler deletes it, and a new page finds nothing.
  await disconnect(page, 'salesforce', 'Salesforce');
  await page.reload();
  await page.locator(`${row(page, 'salesforce')}[connection-status="none"]`).waitFor({ timeout: 15000 });
  await page.context().close();
}

/** Zendesk's subdomain on `path`: an empty click opens and sends nothing; typed, it reaches the consent page. */
export async function zendeskSubdomain(path: string): Promise<void> {
  const page = await openPage(path);
  let popups = 0;
  page.on('popup', () => popups++);
  const posts: string[] = [];
  page.on('request', (request) => request.method() !== 'GET' && posts.push(request.url()));
  const field = page.locator(`${row(page, 'zendesk')} [part=field]`);
  // A list's row opens its input on the first click (forms on demand); a single element shows it from the start.
  if (!(await field.count())) {
    await page.locator(`${row(page, 'zendesk')} [part=button]`).click();
    await field.waitFor();
  }
  await page.locator(`${row(page, 'zendesk')} [part=button]`).click();
  assert.match(await statusText(page, 'zendesk'), /Enter “Zendesk subdomain” to connect Zendesk/);
  assert.equal(await field.evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input), true);
  await page.waitForTimeout(300);
  assert.equal(popups, 0, 'no popup for an empty subdomain');
  assert.deepEqual(posts, [], 'no request for an empty subdomain');
  assert.equal(await page.locator('#timeline li[data-event="connect-start"]').count(), 0);

  await field.fill('acme-support');
  const popup = await clickAndGetPopup(page, 'zendesk');
  assert.match((await popup.locator('h1').textContent()) ?? '', /connect to Zendesk/);
  assert.equal(await consentDetail(popup, 'Workspace'), 'acme-support');
  await popup.getByRole('button', { name: 'Allow', exact: true }).click();
  await timelineEvent(page, 'connect-success', 'zendesk');
  await page.locator(`${row(page, 'zendesk')}[connection-status="working"]`).waitFor();
  const workspace = await page
    .locator(row(page, 'zendesk'))
    .evaluate((el) => (el as HTMLElement & { connection?: { providerWorkspaceRef?: string } }).connection);
  assert.equal(workspace?.providerWorkspaceRef, 'acme-support');
  await disconnect(page, 'zendesk', 'Zendesk');
  await page.context().close();
}
