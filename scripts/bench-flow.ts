// The element's flows, measured for npm run bench: full flows in Chromium (its
// popup blocker on, real clicks) against the emulator through the real handler,
// with the element's defaults (poll-interval 1000) and the emulator's default
// verify delay (1500 ms). Rows: backend requests per flow (target <= 8), ms from
// the emulator marking the connection verified to connect-success (target:
// median <= 300), requests before the popup opens, and the requests a page
// load makes for its elements at rest (one list per endpoint, one provider
// read per provider). Each flow signs in as a user of a new group, so every
// flow connects anew (a group that has the connection would reconnect it).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { createEmulator } from '../src/emulator/index.js';
import { createConnectHandler, toNodeListener } from '../src/server/index.js';
import { chromiumLaunchOptions } from './browsers.mjs';

export type Row = [string, string, string];

/** Runs `flows` full flows with the self-contained bundle `element`, and returns the table's rows. */
export async function benchFlows(flows: number, element: Uint8Array): Promise<Row[]> {
  const rows: Row[] = [];
  const FLOWS = flows;
  const emulator = createEmulator({ verifyDelay: 1500 });
  const { baseUrl } = await emulator.listen();
  const handler = createConnectHandler({
    apiKey: emulator.apiKey,
    baseUrl,
    project: 'demo',
    authorize: (request) => {
      const group = /(?:^|;\s*)g=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? 'bench';
      return { groupRef: group, consumerRef: `${group}-user` };
    },
  });
  const connect = toNodeListener(handler);
  let handlerRequests = 0;
  const page = `<!doctype html><script type="module" src="/connect-provider.js"></script>
  <connect-provider endpoint="/api/connect" provider="salesforce"></connect-provider>`;
  const PROVIDERS = ['salesforce', 'hubspot', 'slack', 'notion', 'zendesk'];
  /** A settings page: `count` elements on one endpoint, over the five providers in turn. */
  const settingsPage = (count: number) =>
    `<!doctype html><script type="module" src="/connect-provider.js"></script>${Array.from(
      { length: count },
      (_, i) =>
        `<connect-provider endpoint="/api/connect" provider="${PROVIDERS[i % PROVIDERS.length]}"></connect-provider>`,
    ).join('')}`;
  const app = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/api/connect/')) {
      handlerRequests++;
      connect(req, res);
    } else if (req.url === '/connect-provider.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(element);
    } else {
      const count = /^\/settings\/(\d+)$/.exec(req.url ?? '')?.[1];
      res.writeHead(200, { 'content-type': 'text/html' }).end(count ? settingsPage(Number(count)) : page);
    }
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;

  const browser = await chromium.launch(chromiumLaunchOptions);
  const requestsPerFlow: number[] = [];
  const latencies: number[] = [];
  const beforePopup: number[] = [];
  try {
    for (const count of [1, 5, 20]) {
      const context = await browser.newContext();
      await context.addCookies([{ name: 'g', value: `load-${count}`, url: appUrl }]);
      const tab = await context.newPage();
      handlerRequests = 0;
      await tab.goto(`${appUrl}/settings/${count}`);
      await tab.waitForFunction(
        (n) => document.querySelectorAll('connect-provider[connection-status]').length === n,
        count,
      );
      rows.push([
        `page load: requests at rest for ${count} element(s) on one endpoint (${Math.min(count, PROVIDERS.length)} providers)`,
        String(handlerRequests),
        '',
      ]);
      await context.close();
    }
    for (let i = 0; i < FLOWS; i++) {
      const context = await browser.newContext();
      await context.addCookies([{ name: 'g', value: `flow-${i}`, url: appUrl }]);
      const tab = await context.newPage();
      await tab.goto(appUrl);
      // The reads at rest are the page load's, not the flow's: counted above.
      await tab.locator('connect-provider[connection-status]').waitFor();
      await tab.evaluate(() => {
        const w = window as unknown as { fetches: number; fetchesBeforeOpen: number; successAt: Promise<number> };
        w.fetches = 0;
        w.fetchesBeforeOpen = -1;
        const realFetch = window.fetch;
        window.fetch = (...args) => {
          w.fetches++;
          return realFetch(...args);
        };
        const realOpen = window.open;
        window.open = (...args) => {
          if (w.fetchesBeforeOpen < 0) w.fetchesBeforeOpen = w.fetches;
          return realOpen.apply(window, args);
        };
        w.successAt = new Promise((resolve) =>
          document
            .querySelector('connect-provider')!
            .addEventListener('connect-success', () => resolve(Date.now()), { once: true }),
        );
      });
      handlerRequests = 0;
      const [popup] = await Promise.all([
        tab.waitForEvent('popup'),
        tab.locator('connect-provider [part=button]').click(),
      ]);
      await popup.getByRole('button', { name: 'Allow', exact: true }).click();
      const successAt = await tab.evaluate(() => (window as unknown as { successAt: Promise<number> }).successAt);
      const id = await tab.evaluate(() => document.querySelector('connect-provider')!.connection!.id);
      const stored = emulator.state.connections.find((c) => c.id === id)!;
      // The emulator turns a connection working at pending.at; once read, that time is its updateTime.
      const verifiedAt = Date.parse(stored.pending?.at ?? stored.updateTime!);
      latencies.push(successAt - verifiedAt);
      requestsPerFlow.push(handlerRequests);
      beforePopup.push(
        await tab.evaluate(() => (window as unknown as { fetchesBeforeOpen: number }).fetchesBeforeOpen),
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  rows.push([
    `flows: ${FLOWS} full flows in Chromium, backend requests per flow (mean, max; target max <= 8)`,
    mean(requestsPerFlow).toFixed(1),
    String(Math.max(...requestsPerFlow)),
  ]);
  rows.push(['flows: verified -> connect-success, ms (median <= 300, p95)', String(pct(50)), String(pct(95))]);
  rows.push(['flows: requests before the popup opens (max)', String(Math.max(...beforePopup)), '']);
  app.close();
  await emulator.close();
  return rows;
}
