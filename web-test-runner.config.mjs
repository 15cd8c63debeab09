// Browser tests in the three engines installed from Debian's packages
// (see ../shared/research/tooling.md): Chromium through Playwright, Firefox ESR
// through Puppeteer's WebDriver BiDi, WebKit (MiniBrowser) through WebKitWebDriver.
// BROWSERS=chromium,firefox,webkit selects a subset.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromeLauncher } from '@web/test-runner-chrome';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import puppeteer from 'puppeteer-core';
import { defaultReporter } from '@web/test-runner';
import { testMiddleware } from './test/browser/server/middleware.ts';
import { reactAsEsm } from './test/browser/server/react-esm.mjs';
import { bundle } from './scripts/bundle.mjs';

// The self-contained bundle, for the test that loads it twice in a page.
await bundle({ write: true });
import { countReporter } from './test/browser/server/count-reporter.mjs';

const wanted = (process.env.BROWSERS ?? 'chromium,firefox,webkit').split(',').map((s) => s.trim());

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const children = [];
process.on('exit', () => children.forEach((c) => c.kill()));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => process.exit(130));
}

// MiniBrowser needs a display: start a private Xvfb when none is set.
async function ensureDisplay() {
  if (process.env.DISPLAY) return;
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(xvfb);
  const display = await new Promise((resolve, reject) => {
    xvfb.on('error', reject);
    xvfb.stdout.once('data', (chunk) => resolve(String(chunk).trim()));
  });
  process.env.DISPLAY = `:${display}`;
}

async function startWebKitDriver() {
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { stdio: 'ignore' });
  children.push(driver);
  // Wait until the driver accepts connections.
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return port;
}

const browsers = [];
if (wanted.includes('chromium')) {
  browsers.push(
    playwrightLauncher({
      product: 'chromium',
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        // Playwright turns the popup blocker off by default; the element's tests run with it on, as users have it.
        ignoreDefaultArgs: ['--disable-popup-blocking'],
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      },
    }),
  );
}
if (wanted.includes('firefox')) {
  browsers.push(
    chromeLauncher({
      puppeteer,
      // Puppeteer's Firefox profile turns the popup blocker off (dom.disable_open_during_load): turned back on.
      launchOptions: {
        browser: 'firefox',
        executablePath: '/usr/bin/firefox-esr',
        headless: true,
        extraPrefsFirefox: { 'dom.disable_open_during_load': true },
      },
    }),
  );
}
if (wanted.includes('webkit')) {
  await ensureDisplay();
  const port = await startWebKitDriver();
  browsers.push(
    webdriverLauncher({
      hostname: '127.0.0.1',
      port,
      path: '/',
      logLevel: 'error',
      capabilities: {
        browserName: 'MiniBrowser',
        'wdio:enforceWebDriverClassic': true,
        'webkitgtk:browserOptions': {
          binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
          // No --javascript-can-open-windows-automatically: popups open only from a user's click, as in Safari.
          args: ['--automation'],
        },
      },
    }),
  );
}

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['production'] },
  plugins: [
    reactAsEsm,
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }),
  ],
  middleware: [testMiddleware],
  browsers,
  reporters: [defaultReporter(), countReporter()],
  concurrency: 1,
  testFramework: { config: { timeout: 20000 } },
  browserStartTimeout: 60000,
  testsStartTimeout: 60000,
  testsFinishTimeout: 300000,
};
