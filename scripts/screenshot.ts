// npm run screenshot: starts the demo as the end-to-end test does (Vite, the
// connect handler and the emulator, in-process, on free ports), opens the
// plain-HTML settings page in Chromium, waits until every <connect-provider>
// has read its connection, and writes docs/demo.png.
import { mkdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { freePort } from '../test/node/helpers/ports.js';
import { chromiumLaunchOptions } from './browsers.mjs';

const out = new URL('../docs/demo.png', import.meta.url);
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
  const page = await browser.newPage({ viewport: { width: 1000, height: 640 }, colorScheme: 'light' });
  await page.goto(`http://127.0.0.1:${port}/vanilla.html`);
  // Every row has read its connection, past the seeded Slack connection's verification, with its icon shown.
  await page.waitForFunction(
    () => {
      const elements = [...document.querySelectorAll('connect-provider')];
      return (
        elements.length > 0 &&
        elements.every((el) => {
          const status = el.getAttribute('connection-status');
          const icon = el.shadowRoot?.querySelector<HTMLImageElement>('[part=icon]');
          return status && status !== 'created' && icon?.complete;
        })
      );
    },
    undefined,
    { timeout: 15000 },
  );
  await mkdir(new URL('.', out), { recursive: true });
  await page.screenshot({ path: out.pathname, fullPage: true });
  console.log(`wrote ${out.pathname}`);
} finally {
  await browser.close();
  await vite.close();
}
