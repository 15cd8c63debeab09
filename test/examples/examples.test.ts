// The apps of examples/, as a new user gets them: each copied into a fresh
// folder, installed from the packed tarball (npm pack, or the tarball npm test
// packed once: test/shared/pack.ts), built for production, started, pointed at an
// emulator through the environment, and clicked through in Chromium with its
// popup blocker on: Connect -> the emulator's consent page -> Allow -> the
// app's own success callback writes "Connected!". Each app's route refuses a
// request that changes something without its CSRF header, which the page sets
// through the element's requestHeaders object property, so the success proves
// the header reached the backend. The Next.js page must hydrate without a
// warning or error in the browser's console, built (`next start`, where React
// does not compare attributes) and under `next dev` (where it does), with the
// wrapper rendered by a client component and by a server component.
// examples/routes holds the Astro and Nuxt routes of docs/frameworks.md:
// type-checked, and the Nuxt one run in h3. Every child process and wait is
// bounded; servers, emulators and the browser close in after().
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/browsers.mjs';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { freePort } from '../node/helpers/ports.js';
import { packedPackage } from '../shared/pack.js';

const execAsync = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'connect-provider-examples-'));
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };

/** Runs a command in `cwd` with a time limit; logs how long it took. */
async function exec(label: string, command: string, args: string[], cwd: string, timeout: number) {
  const started = Date.now();
  try {
    return await execAsync(command, args, { cwd, env, timeout, maxBuffer: 32 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${label} failed:\n${stdout}\n${stderr}`, { cause: error });
  } finally {
    console.log(`# ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

interface Example {
  /** The folder under examples/. */
  name: string;
  /** The commands that check and build it, in order (each an npx command of its own dependencies). */
  build: string[][];
  /** How to start the built app; none for examples/routes, whose route modules the test mounts itself. */
  start?(port: number): { command: string; args: string[]; env: Record<string, string> };
  /** How to start its development server, when the suite checks that too. */
  dev?(port: number): { command: string; args: string[]; env: Record<string, string> };
}

type Mode = 'start' | 'dev';

/** Every example, or those EXAMPLES names (space-separated: `EXAMPLES=next npm run test:examples`). */
const ALL_EXAMPLES: Example[] = [
  {
    name: 'next',
    // next build type-checks the app (tsc) before it builds.
    build: [['next', 'build']],
    start: (port) => ({
      command: process.execPath,
      args: ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)],
      env: {},
    }),
    // next dev writes to .next/dev, beside the production build, and runs after the built app has stopped.
    dev: (port) => ({
      command: process.execPath,
      args: ['node_modules/next/dist/bin/next', 'dev', '-H', '127.0.0.1', '-p', String(port)],
      env: {},
    }),
  },
  {
    name: 'sveltekit',
    // vite build does not type-check: svelte-check does, the .svelte page and the .ts routes, with the route types
    // ($types) and the tsconfig the app's extends that vite build's svelte-kit sync wrote (no sync of its own).
    build: [
      ['vite', 'build'],
      ['svelte-check', '--tsconfig', './tsconfig.json', '--fail-on-warnings'],
    ],
    // adapter-node takes its address from HOST and PORT, and the app's origin from ORIGIN (else it assumes https).
    start: (port) => ({
      command: process.execPath,
      args: ['build'],
      env: { HOST: '127.0.0.1', PORT: String(port), ORIGIN: `http://127.0.0.1:${port}` },
    }),
  },
  {
    // The Astro and Nuxt routes of docs/frameworks.md: type-checked against Astro's types (astro:env/server as
    // `astro sync` generates it from astro.config.ts) and h3's (Nuxt's server), and the Nuxt route run in h3.
    name: 'routes',
    build: [
      ['astro', 'sync', '--root', 'astro'],
      // One tsc run for both folders (one tsconfig: Astro's strict one, with Node's types for Nitro's process.env).
      ['tsc', '-p', '.'],
    ],
  },
];

const EXAMPLES = process.env.EXAMPLES
  ? ALL_EXAMPLES.filter((e) => process.env.EXAMPLES!.split(/\s+/).includes(e.name))
  : ALL_EXAMPLES;

/** Copies an example (its sources, package.json and lock) into a fresh folder and installs it with the tarball. */
async function install(example: Example, packed: string): Promise<string> {
  const dir = join(work, example.name);
  cpSync(join(root, 'examples', example.name), dir, {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|\.next|\.svelte-kit|\.astro|build)$/.test(source),
  });
  // The locked versions and the tarball on top, in one npm run. Not `npm ci`: the locks lack the optional binaries of
  // other platforms (@next/swc-darwin-*...), which the registry they were made with does not serve, and npm ci refuses
  // a lock without them.
  await exec(
    `${example.name}: install`,
    'npm',
    ['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', packed],
    dir,
    300_000,
  );
  return dir;
}

let browser: Browser;
/**
 * Each example installed and built, by name: all start at once and each builds as soon as it is installed, so one
 * example's install overlaps another's build.
 */
const prepared = new Map<string, Promise<string>>();

before(
  async () => {
    const { tarball: packed } = await packedPackage(work);
    for (const example of EXAMPLES) {
      const ready = install(example, packed).then(async (dir) => {
        for (const command of example.build)
          await exec(`${example.name}: ${command[0]}`, 'npx', ['--no-install', ...command], dir, 300_000);
        return dir;
      });
      // Awaited by the example's own suite, so a failed install or build fails that suite, not this hook.
      ready.catch(() => {});
      prepared.set(example.name, ready);
    }
    browser = await chromium.launch(chromiumLaunchOptions);
  },
  { timeout: 600_000 },
);

after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Starts the built app (or its development server) and waits until it answers; gives its base URL and a stop(). */
async function serve(example: Example, dir: string, platform: Record<string, string>, mode: Mode) {
  const port = await freePort();
  const { command, args, env: own } = mode === 'dev' ? example.dev!(port) : example.start!(port);
  let output = '';
  const child: ChildProcess = spawn(command, args, {
    cwd: dir,
    env: {
      ...env,
      ...platform,
      ...own,
      NODE_ENV: mode === 'dev' ? 'development' : 'production',
      DEV_LOGIN: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stop() ends the server with anything it started.
    detached: true,
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group has ended
    }
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      const killer = setTimeout(() => signal('SIGKILL'), 5000);
      const done = () => {
        clearTimeout(killer);
        signal('SIGKILL'); // what the server started and left behind
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', done);
      signal('SIGTERM');
    });
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    const up = await fetch(`${base}/dev-login`, { redirect: 'manual' }).then(
      (response) => response.status === 302 || response.status === 303,
      () => false,
    );
    if (up) return { base, stop, output: () => output };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`${example.name} did not start serving ${base}:\n${output}`);
}

/**
 * A console line that reports a hydration problem: React's own words in development, its minified errors in
 * production (#418 text or element mismatch, #423 a recovered render, #425 text content).
 */
const hydrationProblem = (line: string) =>
  /^(error|warning|pageerror): /.test(line) &&
  /hydrat|Minified React error #(418|419|421|422|423|425)\b|react\.dev\/errors\/(418|419|421|422|423|425)\b/i.test(
    line,
  );

/**
 * A console line that is the browser's own report of the favicon it asked for: the example apps have no icon, and
 * `next dev` answers /favicon.ico with a 404 the browser logs as an error.
 */
const missingFavicon = (line: string) =>
  /^error: Failed to load resource: .*\b404\b.* \(\S+\/favicon\.ico\)$/.test(line);

/** The element whose page callback writes #result: examples/next also shows #hubspot, from its server component. */
const CALLBACK_ELEMENT = 'connect-provider:not(#hubspot)';

const served = EXAMPLES.filter((e) => e.start).flatMap((example) =>
  (example.dev ? (['start', 'dev'] as const) : (['start'] as const)).map((mode) => ({ example, mode })),
);

for (const { example, mode } of served) {
  const title =
    mode === 'dev'
      ? `examples/${example.name}, installed from the tarball, under its development server`
      : `examples/${example.name}, built from the tarball and served`;
  describe(title, () => {
    let emulator: Emulator;
    let app: Awaited<ReturnType<typeof serve>>;
    // A development server compiles each route on its first request: every wait allows for that.
    const patience = mode === 'dev' ? 120_000 : 15_000;

    before(
      async () => {
        const dir = await prepared.get(example.name)!;
        emulator = createEmulator({ verifyDelay: 300 });
        const { baseUrl } = await emulator.listen();
        app = await serve(
          example,
          dir,
          {
            PLATFORM_API_KEY: emulator.apiKey,
            PLATFORM_BASE_URL: baseUrl,
            PLATFORM_PROJECT: 'demo',
          },
          mode,
        );
      },
      { timeout: 600_000 },
    );

    after(async () => {
      await app?.stop();
      await emulator?.close();
    });

    /**
     * A signed-in page (through the app's /dev-login) with what its console shows: each message as `type: text`, and
     * each uncaught error (`reportError` too, where React reports what it recovered from) as `pageerror: message`.
     */
    async function signedInPage(): Promise<{ page: Page; messages: string[] }> {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultNavigationTimeout(patience);
      const messages: string[] = [];
      page.on('console', (message) => {
        // A resource's failure names its URL only in the message's location.
        const url = message.text().startsWith('Failed to load resource') ? ` (${message.location().url})` : '';
        messages.push(`${message.type()}: ${message.text()}${url}`);
      });
      page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
      await page.goto(`${app.base}/dev-login`);
      assert.equal(new URL(page.url()).pathname, '/', 'dev-login sends the browser to the page');
      await page.locator(`${CALLBACK_ELEMENT} [part=button]`).waitFor({ timeout: patience });
      return { page, messages };
    }

    it("runs the app's own success callback after Allow, the CSRF header set as an object property", async () => {
      const { page, messages } = await signedInPage();
      try {
        // The route refuses a change without the header, though the cookies are there.
        const refused = await page.evaluate(async () => {
          const response = await fetch('/api/connect/oauth-connect', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ provider: 'salesforce' }),
          });
          return { status: response.status, type: response.headers.get('content-type') };
        });
        assert.deepEqual(refused, { status: 403, type: 'application/problem+json' });

        const [popup] = await Promise.all([
          page.waitForEvent('popup', { timeout: patience }),
          page.locator(`${CALLBACK_ELEMENT} [part=button]`).click(),
        ]);
        // The consent page opens only when oauth-connect succeeded: on a failure the element closes the popup, and the
        // page's callback says why.
        await popup
          .getByRole('button', { name: 'Allow', exact: true })
          .click({ timeout: patience })
          .catch(() => {});
        const result = page.locator('#result');
        await result.filter({ hasText: /\S/ }).waitFor({ timeout: patience });
        assert.match((await result.textContent()) ?? '', /^Connected! \(conn_\w+\)$/, "the page's own callback ran");
        assert.equal(await page.locator(CALLBACK_ELEMENT).getAttribute('state'), 'working');
        assert.deepEqual(messages.filter(hydrationProblem), [], 'no hydration warning or error in the console');
      } finally {
        await page.context().close();
      }
    });

    if (example.name === 'next') {
      it('hydrates the wrapper from a client and from a server component without a warning or error in the console', async () => {
        const { page, messages } = await signedInPage();
        try {
          // Each wrapper's element upgraded and got its properties: its rest state read through the route. The one
          // the server component renders reads the group's seeded HubSpot connection (bad_credentials).
          await page.locator(`${CALLBACK_ELEMENT}[connection-status]`).waitFor({ timeout: patience });
          await page.locator('#hubspot[connection-status="bad_credentials"]').waitFor({ timeout: patience });
          await page.waitForLoadState('networkidle');
          assert.deepEqual(messages.filter(hydrationProblem), [], 'no hydration warning or error in the console');
          const errors = messages.filter((line) => /^(error|pageerror): /.test(line) && !missingFavicon(line));
          assert.deepEqual(errors, [], 'no error in the console');
        } finally {
          await page.context().close();
        }
      });
    }
  });
}

/** What this test uses of h3 (the repository does not install it; the example's folder does, with its types). */
interface H3 {
  createApp(): { use(handler: unknown): unknown };
  createRouter(): { use(path: string, handler: unknown): unknown };
  toNodeListener(app: unknown): RequestListener;
}

if (EXAMPLES.some((e) => e.name === 'routes')) {
  describe('examples/routes: the Nuxt route, mounted in h3 as Nitro mounts it', () => {
    let emulator: Emulator;
    let server: Server;
    let base: string;

    before(
      async () => {
        const dir = await prepared.get('routes')!;
        emulator = createEmulator({ verifyDelay: 0 });
        const { baseUrl } = await emulator.listen();
        // The route module reads process.env when it is first imported (in Nitro: when the server starts).
        Object.assign(process.env, { PLATFORM_API_KEY: emulator.apiKey, PLATFORM_BASE_URL: baseUrl });
        // h3 and connect-provider as the folder installed them (the tarball's), not the repository's.
        const h3: H3 = await import(pathToFileURL(join(dir, 'node_modules/h3/dist/index.mjs')).href);
        const route = await import(pathToFileURL(join(dir, 'nuxt/server/api/connect/[...path].ts')).href);
        // Nitro's file route server/api/connect/[...path].ts: every method of /api/connect/**.
        const router = h3.createRouter().use('/api/connect/**', route.default);
        server = createServer(h3.toNodeListener(h3.createApp().use(router)));
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      },
      { timeout: 600_000 },
    );

    after(async () => {
      await new Promise((resolve) => server?.close(resolve));
      await emulator?.close();
    });

    it('serves the connect routes through toWebRequest, behind its CSRF check', async () => {
      const session = { cookie: 'sid=demo-session; csrf=token-1', origin: base };
      const connect = (headers: Record<string, string>) =>
        fetch(`${base}/api/connect/oauth-connect`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'salesforce' }),
        });
      const refused = await connect(session);
      assert.equal(refused.status, 403, 'no x-csrf-token header');
      const answer = await connect({ ...session, 'x-csrf-token': 'token-1' });
      assert.equal(answer.status, 200, await answer.clone().text());
      assert.match((await answer.json()).url, /\/consent\//);
      const read = await fetch(`${base}/api/connect/connections/conn_demo`, { headers: session });
      assert.equal(read.status, 200);
      assert.equal((await read.json()).id, 'conn_demo');
      const anonymous = await fetch(`${base}/api/connect/connections/conn_demo`);
      assert.equal(anonymous.status, 401);
    });
  });
}
