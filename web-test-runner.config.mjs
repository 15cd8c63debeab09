// Browser tests in the three engines installed from Debian's packages
// (see docs/testing.md): Chromium through Playwright, Firefox ESR
// through Puppeteer's WebDriver BiDi, WebKit (MiniBrowser) through WebKitWebDriver.
// BROWSERS=chromium,firefox,webkit selects a subset.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
import { browserPaths, chromiumLaunchOptions } from './scripts/browsers.mjs';

/**
 * Whether dist/connect-provider.js was written after every file it is made of changed: a whole `npm test` has just
 * built it (its pack's build runs before the browser tests), so bundling it again would spend seconds for the same bytes.
 */
function bundleIsFresh() {
  let built;
  try {
    built = statSync('dist/connect-provider.js').mtimeMs;
  } catch {
    return false;
  }
  const inputs = ['scripts/bundle.mjs', 'tsconfig.json', 'package-lock.json'];
  for (const entry of readdirSync('src', { recursive: true, withFileTypes: true }))
    if (entry.isFile()) inputs.push(join(entry.parentPath, entry.name));
  return inputs.every((path) => statSync(path).mtimeMs < built);
}

// The self-contained bundle, for the tests that load it (loading, sandbox, the strict CSP page).
if (!bundleIsFresh()) await bundle({ write: true });
import { countReporter } from './test/browser/server/count-reporter.mjs';

/**
 * esbuild compiles the TypeScript of the tests and of src/ only. Given a target, the plugin also compiles every
 * JavaScript file and HTML page it serves to it: lit, chai, axe-core, and mocha's runner, which is served anew
 * (270 KB, compiled again: 0.4 to 0.7 s) for every test file in every engine. All three engines run ES2022 as written,
 * so that compiling changed nothing but the time: measured with three empty test files in Chromium, a page's start fell
 * from 2.6 to 3.5 s to 1.3 to 1.6 s.
 */
function typescriptOnly(plugin) {
  const transform = plugin.transform.bind(plugin);
  plugin.transform = (context) => (/\.ts$/.test(context.path) ? transform(context) : undefined);
  return plugin;
}

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

// MiniBrowser needs a display: start a private Xvfb when none is set. A
// missing program fails with the Debian package to install, not a raw ENOENT.
function startProgram(path, args, stdio, packageName) {
  const child = spawn(path, args, { stdio });
  children.push(child);
  const failed = new Promise((_, reject) => {
    child.on('error', (error) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${path} is missing: install Debian's ${packageName} (apt-get install -y --no-install-recommends ${packageName}); npm test does it when run as root`,
            )
          : error,
      );
    });
    child.on('exit', (code, signal) => reject(new Error(`${path} exited (${signal ?? code}) before it was ready`)));
  });
  failed.catch(() => {});
  return { child, failed };
}

async function ensureDisplay() {
  if (process.env.DISPLAY) return;
  const xvfb = startProgram(
    browserPaths.xvfb,
    ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
    ['ignore', 'pipe', 'ignore'],
    'xvfb xauth',
  );
  const ready = new Promise((resolve) => xvfb.child.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
  const display = await Promise.race([ready, xvfb.failed, timeLimit(10_000, 'Xvfb gave no display number')]);
  process.env.DISPLAY = `:${display}`;
}

function timeLimit(ms, message) {
  return new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`${message} within ${ms / 1000} s`)), ms).unref(),
  );
}

async function startWebKitDriver() {
  const port = await freePort();
  const driver = startProgram(browserPaths.webkitDriver, [`--port=${port}`], 'ignore', 'webkit2gtk-driver');
  let failure;
  driver.failed.catch((error) => (failure = error));
  // Wait until the driver accepts connections.
  const deadline = Date.now() + 10_000;
  while (
    !(await fetch(`http://127.0.0.1:${port}/status`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (failure) throw failure;
    if (Date.now() > deadline) throw new Error('WebKitWebDriver did not answer within 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return port;
}

const browsers = [];
if (wanted.includes('chromium')) {
  browsers.push(
    playwrightLauncher({
      product: 'chromium',
      // The element's tests run with the popup blocker on, as users have it.
      launchOptions: chromiumLaunchOptions,
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
        executablePath: browserPaths.firefox,
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
          binary: browserPaths.miniBrowser,
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
  plugins: [reactAsEsm, typescriptOnly(esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }))],
  middleware: [
    testMiddleware,
    (await import('./test/browser/server/cross-origin.ts')).crossOrigin,
    (await import('./test/browser/server/strict-page.ts')).strictPage,
  ],
  browsers,
  reporters: [defaultReporter(), countReporter()],
  concurrency: 1,
  testFramework: { config: { timeout: 20000 } },
  browserStartTimeout: 60000,
  testsStartTimeout: 60000,
  testsFinishTimeout: 300000,
};
