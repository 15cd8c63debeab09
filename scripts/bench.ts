#!/usr/bin/env -S node --import tsx
// npm run bench [-- --peers] [-- --flows N]: one table, measured in one run.
//   sizes    the self-contained element bundle next to lit's baseline, and with
//            --peers the platform's own React library (@amp-labs/react,
//            ConnectProvider) and @nangohq/frontend, installed for the bench
//            only and bundled the same way (esbuild + terser, React external)
//   flows    full flows in Chromium against the emulator, through the real
//            handler, with the element's defaults (poll-interval 1000,
//            verify delay 1500): requests per flow, ms from the emulator
//            marking the connection verified to connect-success, and requests
//            before the popup opens
//   install  packages, files and bytes that npm install connect-provider brings
//            (scripts/bench-install.ts)
//   handler  the handler's own cost: emulator, handler and a bare pass-through
//            proxy each in its own process, driven by autocannon in interleaved
//            rounds (scripts/bench-handler.ts)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { minify } from 'terser';
import { createEmulator } from '../src/emulator/index.js';
import { createConnectHandler, toNodeListener } from '../src/server/index.js';
import { installRows } from './bench-install.js';
// @ts-expect-error plain ES module without types
import { bundle, bundleLitBaseline, LIT_BASELINE_NAME } from './bundle.mjs';
import { benchHandler } from './bench-handler.js';

const { values } = parseArgs({
  options: { peers: { type: 'boolean', default: false }, flows: { type: 'string', default: '30' } },
});
const FLOWS = Math.max(1, Number(values.flows));
const rows: Array<[string, string, string]> = [];
const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

// ---------------------------------------------------------------- sizes
async function minified(contents: string, resolveDir: string, external: string[] = []): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'js' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    conditions: ['production'],
    external,
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'error',
  });
  const { code } = await minify(result.outputFiles[0].text, { module: true, ecma: 2022, compress: { passes: 3 }, mangle: true });
  return new TextEncoder().encode(code!);
}

const element: Uint8Array = await bundle({ write: true });
rows.push(['size: <connect-provider> (lit included), min / gzip', `${element.length} B`, `${gzip(element)} B (${kb(gzip(element))})`]);
const lit: Uint8Array = await bundleLitBaseline();
rows.push([`size: ${LIT_BASELINE_NAME}`, `${lit.length} B`, `${gzip(lit)} B (${kb(gzip(lit))})`]);

if (values.peers) {
  const dir = join(process.cwd(), 'node_modules', '.cache', 'bench-peers');
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-peers', private: true }));
  console.error('installing @amp-labs/react and @nangohq/frontend for the bench...');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--legacy-peer-deps', '@amp-labs/react', '@nangohq/frontend', 'react', 'react-dom'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const react = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client'];
  const amp = await minified("export { ConnectProvider } from '@amp-labs/react';", dir, react);
  const ampVersion = JSON.parse(readFileSync(join(dir, 'node_modules/@amp-labs/react/package.json'), 'utf8')).version;
  rows.push([`size: @amp-labs/react ${ampVersion} ConnectProvider (React external)`, `${amp.length} B`, `${gzip(amp)} B (${kb(gzip(amp))})`]);
  const nango = await minified("export { default } from '@nangohq/frontend';", dir, react);
  const nangoVersion = JSON.parse(readFileSync(join(dir, 'node_modules/@nangohq/frontend/package.json'), 'utf8')).version;
  rows.push([`size: @nangohq/frontend ${nangoVersion} (no UI)`, `${nango.length} B`, `${gzip(nango)} B (${kb(gzip(nango))})`]);
}

// ---------------------------------------------------------------- install footprint
rows.push(...installRows());

// ---------------------------------------------------------------- flows
const emulator = createEmulator({ verifyDelay: 1500 });
const { baseUrl } = await emulator.listen();
const handler = createConnectHandler({
  apiKey: emulator.apiKey,
  baseUrl,
  project: 'demo',
  authorize: () => ({ groupRef: 'bench', consumerRef: 'bench-user' }),
});
const connect = toNodeListener(handler);
let handlerRequests = 0;
const page = `<!doctype html><script type="module" src="/connect-provider.js"></script>
<connect-provider endpoint="/api/connect" provider="salesforce"></connect-provider>`;
const app = createServer((req: IncomingMessage, res: ServerResponse) => {
  if (req.url?.startsWith('/api/connect/')) {
    handlerRequests++;
    connect(req, res);
  } else if (req.url === '/connect-provider.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(element);
  } else {
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  }
});
await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const requestsPerFlow: number[] = [];
const latencies: number[] = [];
const beforePopup: number[] = [];
try {
  for (let i = 0; i < FLOWS; i++) {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(appUrl);
    await tab.locator('connect-provider [part=button]').waitFor();
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
        document.querySelector('connect-provider')!.addEventListener('connect-success', () => resolve(Date.now()), { once: true }),
      );
    });
    handlerRequests = 0;
    const [popup] = await Promise.all([tab.waitForEvent('popup'), tab.locator('connect-provider [part=button]').click()]);
    await popup.getByRole('button', { name: 'Allow', exact: true }).click();
    const successAt = await tab.evaluate(() => (window as unknown as { successAt: Promise<number> }).successAt);
    const id = await tab.evaluate(() => document.querySelector('connect-provider')!.connection!.id);
    const stored = emulator.state.connections.find((c) => c.id === id)!;
    // The emulator turns a connection working at pending.at; once read, that time is its updateTime.
    const verifiedAt = Date.parse(stored.pending?.at ?? stored.updateTime!);
    latencies.push(successAt - verifiedAt);
    requestsPerFlow.push(handlerRequests);
    beforePopup.push(await tab.evaluate(() => (window as unknown as { fetchesBeforeOpen: number }).fetchesBeforeOpen));
    await context.close();
  }
} finally {
  await browser.close();
}
const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
rows.push([`flows: ${FLOWS} full flows in Chromium, requests per flow (mean, max)`, mean(requestsPerFlow).toFixed(1), String(Math.max(...requestsPerFlow))]);
rows.push(['flows: verified -> connect-success, ms (median, p95)', String(pct(50)), String(pct(95))]);
rows.push(['flows: requests before the popup opens (max)', String(Math.max(...beforePopup)), '']);

app.close();
await emulator.close();

// ---------------------------------------------------------------- handler overhead (separate processes: scripts/bench-handler.ts)
rows.push(...(await benchHandler()));

// ---------------------------------------------------------------- table
const width = Math.max(...rows.map((r) => r[0].length));
console.log(`${'measure'.padEnd(width)} | ${'value'.padStart(12)} | ${'value'.padStart(20)}`);
console.log(`${'-'.repeat(width)}-|-${'-'.repeat(12)}-|-${'-'.repeat(20)}`);
for (const [name, a, b] of rows) console.log(`${name.padEnd(width)} | ${a.padStart(12)} | ${b.padStart(20)}`);
console.log(`(node ${process.version}, ${new Date().toISOString()})`);
