// npm run screenshot: starts the demo as the end-to-end test does (Vite, the
// connect handler and the emulator, in-process, on free ports), opens the
// plain-HTML settings page (one <connect-integrations>) in Chromium in each
// language below, waits until every row has read its connection and speaks the
// language, and writes docs/demo.png (English, light), docs/demo-dark.png
// (English, dark), docs/demo-320.png (German, a 320 px column),
// docs/demo-ar.png (Arabic, right to left) and docs/demo-ja.png (Japanese);
// then the link way: the page of an iframe sandboxed without allow-popups,
// Salesforce clicked, its link, Copy and QR code shown in the frame
// (docs/link-way.png, -dark, -320 in German, -ar).
// `npm run screenshot -- /tmp/out` writes them elsewhere. Japanese needs a
// font with its glyphs (Debian: fonts-ipafont-gothic or fonts-noto-cjk), or
// Chromium draws empty boxes: the script checks for one first.
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { chromium, type Page } from 'playwright-core';
import { createServer } from 'vite';
import { freePort } from '../test/node/helpers/ports.js';
import { chromiumLaunchOptions } from './browsers.mjs';

/**
 * Each picture: its language (`?lang=`, as the demo's switch keeps it), Salesforce's button's accessible name in it,
 * the viewport's width and the colour scheme.
 */
const SHOTS = [
  { file: 'demo.png', lang: 'en', connect: 'Connect Salesforce', width: 1000, scheme: 'light' },
  { file: 'demo-dark.png', lang: 'en', connect: 'Connect Salesforce', width: 1000, scheme: 'dark' },
  { file: 'demo-320.png', lang: 'de', connect: 'Salesforce verbinden', width: 320, scheme: 'light' },
  { file: 'demo-ar.png', lang: 'ar', connect: 'ربط حساب Salesforce', width: 1000, scheme: 'light' },
  { file: 'demo-ja.png', lang: 'ja', connect: 'Salesforce と連携', width: 1000, scheme: 'light' },
] as const;
/** The link way's pictures: the frame of demo/sandboxed.html once Salesforce's click showed its QR code. */
const LINK_SHOTS = [
  { file: 'link-way.png', lang: 'en', width: 1000, scheme: 'light' },
  { file: 'link-way-dark.png', lang: 'en', width: 1000, scheme: 'dark' },
  { file: 'link-way-320.png', lang: 'de', width: 320, scheme: 'light' },
  { file: 'link-way-ar.png', lang: 'ar', width: 1000, scheme: 'light' },
] as const;
const folder = process.argv[2]
  ? `${process.argv[2].replace(/\/$/, '')}/`
  : new URL('../docs/', import.meta.url).pathname;

/** Whether fontconfig knows a font for `lang` (true when fc-list is not there to ask). */
function hasFontFor(lang: string): boolean {
  const listed = spawnSync('fc-list', [`:lang=${lang}`], { encoding: 'utf8' });
  return listed.error !== undefined || listed.stdout.trim() !== '';
}

/** Every row has read its connection (past the seeded Slack connection's verification) and shows its icons and texts. */
async function settled(page: Page, connect: string): Promise<void> {
  await page.waitForFunction(
    (connect) => {
      const list = document.querySelector('connect-integrations')?.shadowRoot;
      const rows = [...(list?.querySelectorAll('connect-provider') ?? [])];
      const icons = [...(list?.querySelectorAll('img') ?? [])];
      return (
        rows.length > 0 &&
        icons.every((icon) => icon.complete) &&
        rows.every((el) => {
          // (A row's button shows no icon: the row shows it by the name, among the list's images above.)
          const status = el.getAttribute('connection-status');
          return status && status !== 'created';
        }) &&
        rows.some((el) => {
          const button = el.shadowRoot?.querySelector('[part=button]');
          return (button?.getAttribute('aria-label') ?? button?.textContent?.trim()) === connect;
        })
      );
    },
    connect,
    { timeout: 15000 },
  );
}

const missing = SHOTS.filter(({ lang }) => !hasFontFor(lang)).map(({ lang }) => lang);
if (missing.length) {
  console.error(
    `No font for ${missing.join(', ')}: Chromium would draw empty boxes. On Debian: apt-get install fonts-ipafont-gothic (or fonts-noto-cjk).`,
  );
  process.exit(1);
}

const port = await freePort();
process.env.DEMO_EMULATOR_PORT = String(await freePort());
process.env.DEMO_VERIFY_DELAY = '300';
delete process.env.PLATFORM_API_KEY;
const vite = await createServer({
  configFile: 'vite.config.ts',
  server: { port, strictPort: true },
  logLevel: 'error',
});
await vite.listen();
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  for (const { file, lang, connect, width, scheme } of SHOTS) {
    const out = `${folder}${file}`;
    const page = await browser.newPage({ viewport: { width, height: 640 }, colorScheme: scheme });
    await page.goto(`http://127.0.0.1:${port}/vanilla.html?lang=${lang}`);
    await settled(page, connect);
    await mkdir(folder, { recursive: true });
    await page.screenshot({ path: out, fullPage: true });
    await page.close();
    console.log(`wrote ${out}`);
  }
  for (const { file, lang, width, scheme } of LINK_SHOTS) {
    const out = `${folder}${file}`;
    const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
    await page.goto(`http://127.0.0.1:${port}/sandboxed.html?lang=${lang}`);
    const salesforce = page.frameLocator('#frame').locator('#salesforce[connection-status="none"]');
    await salesforce.waitFor({ timeout: 15000 });
    await salesforce.locator('[part=button]').click();
    await salesforce.locator('[part=qr]').waitFor({ timeout: 15000 });
    await page.locator('#frame').screenshot({ path: out });
    await page.close();
    console.log(`wrote ${out}`);
  }
} finally {
  await browser.close();
  await vite.close();
}
