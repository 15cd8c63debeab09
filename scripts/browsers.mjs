#!/usr/bin/env node
// The browsers the tests drive, from Debian's packages (see docs/testing.md),
// and the set-up that installs them.
//   node scripts/browsers.mjs    install what is missing (root on Debian), or
//                                print the one command that would
// Each path can be overridden from the environment (CHROMIUM_PATH,
// FIREFOX_PATH, WEBKIT_DRIVER_PATH, MINIBROWSER_PATH, XVFB_PATH) to run the
// suites with other builds; the set-up only ever installs Debian's packages.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = process.env;

/** Where the suites find each program. */
export const browserPaths = {
  chromium: env.CHROMIUM_PATH || '/usr/bin/chromium',
  firefox: env.FIREFOX_PATH || '/usr/bin/firefox-esr',
  webkitDriver: env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver',
  miniBrowser: env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  xvfb: env.XVFB_PATH || '/usr/bin/Xvfb',
};

/** Chromium as every Playwright launch here uses it: the popup blocker on, as users have it, and quiet. */
export const chromiumLaunchOptions = {
  executablePath: browserPaths.chromium,
  // Playwright turns the popup blocker off by default.
  ignoreDefaultArgs: ['--disable-popup-blocking'],
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** Debian's package for each program the test command needs, by the path the package installs. */
export const APT_PACKAGES = [
  { name: 'chromium', path: '/usr/bin/chromium' },
  { name: 'firefox-esr', path: '/usr/bin/firefox-esr' },
  { name: 'webkit2gtk-driver', path: '/usr/bin/WebKitWebDriver' },
  { name: 'xvfb', path: '/usr/bin/Xvfb' },
  { name: 'xauth', path: '/usr/bin/xauth' },
];

/** The packages whose program is not on this machine. */
export function missingPackages() {
  return APT_PACKAGES.filter((p) => !existsSync(p.path)).map((p) => p.name);
}

/** The command a person runs to install `packages`. */
export function installCommand(packages, { sudo = true } = {}) {
  const s = sudo ? 'sudo ' : '';
  return `${s}apt-get update && ${s}apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

function canInstall() {
  return process.getuid?.() === 0 && existsSync('/etc/debian_version') && existsSync('/usr/bin/apt-get');
}

/**
 * Installs the missing browser packages when it can (root on Debian), saying
 * in one line what it installs; otherwise prints one line with the exact
 * command to run. Returns whether every package is there.
 */
export function ensureBrowsers({ log = console.log, error = console.error } = {}) {
  const missing = missingPackages();
  if (missing.length === 0) return true;
  if (!canInstall()) {
    error(
      `The browser tests need Debian's ${missing.join(', ')}: run \`${installCommand(missing)}\`, then npm test again.`,
    );
    return false;
  }
  log(`Installing the browsers the tests need, from Debian's apt: ${missing.join(' ')}`);
  const options = {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 15 * 60_000,
  };
  const update = spawnSync('apt-get', ['update', '-qq'], options);
  const install =
    update.status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], options).status === 0;
  const still = missingPackages();
  if (!install || still.length > 0) {
    error(
      `Installing ${missing.join(' ')} failed: run \`${installCommand(still.length ? still : missing, { sudo: false })}\` and read its errors.`,
    );
    return false;
  }
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(ensureBrowsers() ? 0 : 1);
}
