// The code of README.md and docs/*.md: each named example runs against a real emulator, and every other code block
// is either checked by a test here or is a region of a type-checked fixture or of a built example app.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UserConfig } from 'vite';
import { createConnectHandler, toNodeListener } from '../../src/server/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  documentation,
  documentationBlocks,
  readmeExamples,
  runReadmeExample,
  serveReadmeExample,
  writeReadmeExamples,
} from './helpers/readme.js';
import { startTestServer } from './helpers/http-server.js';
import { freePort } from './helpers/ports.js';

describe('README examples', () => {
  it('the API client example runs as written', async () => {
    const server = await startTestServer((request) => {
      if (request.method === 'POST' && request.path === '/v1/oauth-connect') {
        return {
          status: 200,
          headers: { 'content-type': 'text/plain' },
          body: 'https://consent.example.test/start?c=1',
        };
      }
      return {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
        body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no connection does-not-exist' },
      };
    });
    try {
      const result = await runReadmeExample('client', { PLATFORM_BASE_URL: `${server.url}/v1`, PLATFORM_API_KEY: 'k' });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(
        result.stdout,
        'send the browser to https://consent.example.test/start?c=1\n404 Not Found no connection does-not-exist\n',
      );
      assert.equal(server.requests[0].headers['x-api-key'], 'k');
    } finally {
      await server.close();
    }
  });
});

describe('README examples (emulator)', () => {
  it('the emulator example runs as written', async () => {
    const result = await runReadmeExample('emulator', {});
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'hubspot bad_credentials\n');
  });
});

describe('README examples (onError)', () => {
  it('the on-error example prints what its last comment lines say onError is handed, without the key', async () => {
    const result = await runReadmeExample('on-error', {});
    assert.equal(result.code, 0, result.stderr);
    const said = readmeExamples()
      .get('on-error')!
      .trimEnd()
      .split('\n')
      .slice(-2)
      .map((line) => line.replace(/^\/\/ /, ''));
    assert.deepEqual(result.stdout.trimEnd().split('\n'), said);
    assert.ok(!result.stdout.includes('sk-live-4f2a'));
  });
});

describe('README examples (server)', () => {
  let emulator: Emulator;
  let env: Record<string, string>;

  before(async () => {
    emulator = createEmulator({ apiKey: 'readme-key', verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    env = { PLATFORM_API_KEY: 'readme-key', PLATFORM_BASE_URL: baseUrl, PLATFORM_PROJECT: 'demo' };
  });
  after(() => emulator.close());

  /** The checks every mounting of the handler must pass. */
  async function exercise(base: string) {
    const origin = new URL(base).origin;
    const signedIn = { cookie: 'sid=demo-session', origin };
    const connect = await fetch(`${base}/api/connect/oauth-connect`, {
      method: 'POST',
      headers: { ...signedIn, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'salesforce' }),
    });
    assert.equal(connect.status, 200, await connect.clone().text());
    const answer = await connect.json();
    assert.match(answer.url, /\/consent\//);
    assert.equal(answer.messageOrigin, new URL(env.PLATFORM_BASE_URL).origin);
    const get = await fetch(`${base}/api/connect/connections/conn_demo`, { headers: signedIn });
    assert.equal(get.status, 200);
    assert.equal((await get.json()).id, 'conn_demo');
    const notAllowed = await fetch(`${base}/api/connect/oauth-connect`, {
      method: 'POST',
      headers: { ...signedIn, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'notion' }),
    });
    assert.equal(notAllowed.status, 400, 'the allow-list holds');
    const anonymous = await fetch(`${base}/api/connect/connections/conn_demo`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('content-type'), 'application/problem+json');
  }

  for (const name of ['node-http', 'express', 'hono', 'quick-handler']) {
    it(`the ${name} example serves the connect routes`, async () => {
      const port = await freePort();
      const server = await serveReadmeExample(name, { ...env, PORT: String(port) }, `http://127.0.0.1:${port}/`);
      try {
        await exercise(`http://127.0.0.1:${port}`);
        if (name === 'express') {
          // The development sign-in: one request, and the session cookie the handler's authorize reads.
          const login = await fetch(`http://127.0.0.1:${port}/dev-login`, { redirect: 'manual' });
          assert.equal(login.status, 302);
          assert.match(login.headers.get('set-cookie') ?? '', /^sid=demo-session;.*HttpOnly/);
        }
      } finally {
        await server.stop();
      }
    });
  }

  it('the Next.js route module exports GET, POST, PATCH and DELETE that serve the routes', async () => {
    const examples = writeReadmeExamples();
    Object.assign(process.env, env);
    try {
      const route = await import(examples.file('next'));
      assert.deepEqual(Object.keys(route).sort(), ['DELETE', 'GET', 'PATCH', 'POST']);
      // Disconnect is served (allowDisconnect): an unknown connection is a 404, not the 405 of a handler without it.
      const removed = await route.DELETE(
        new Request('https://app.example/api/connect/connections/conn_nobody', {
          method: 'DELETE',
          headers: { cookie: 'sid=demo-session', origin: 'https://app.example' },
        }),
      );
      assert.equal(removed.status, 404);
      const origin = 'https://app.example';
      const post = await route.POST(
        new Request(`${origin}/api/connect/oauth-connect`, {
          method: 'POST',
          headers: { cookie: 'sid=demo-session', origin, 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'hubspot' }),
        }),
      );
      assert.equal(post.status, 200);
      const patch = await route.PATCH(
        new Request(`${origin}/api/connect/connections/conn_demo:oauth-update`, {
          method: 'PATCH',
          headers: { cookie: 'sid=demo-session', origin },
        }),
      );
      assert.equal(patch.status, 200);
      const get = await route.GET(
        new Request(`${origin}/api/connect/connections/conn_demo`, { headers: { cookie: 'sid=nobody' } }),
      );
      assert.equal(get.status, 401);
    } finally {
      examples.cleanup();
    }
  });

  it('the React Router resource route serves GET in loader, and POST, PATCH and DELETE in action', async () => {
    const examples = writeReadmeExamples();
    Object.assign(process.env, env);
    try {
      const route = await import(examples.file('react-router'));
      assert.deepEqual(Object.keys(route).sort(), ['action', 'loader'], 'a resource route: no default component');
      const origin = 'https://app.example';
      const signedIn = { cookie: 'sid=demo-session', origin };
      // React Router calls each with an object holding the request (and params, context...).
      const get = await route.loader({
        request: new Request(`${origin}/api/connect/connections/conn_demo`, { headers: signedIn }),
        params: { '*': 'connections/conn_demo' },
      });
      assert.equal(get.status, 200);
      assert.equal((await get.json()).id, 'conn_demo');
      const post = await route.action({
        request: new Request(`${origin}/api/connect/oauth-connect`, {
          method: 'POST',
          headers: { ...signedIn, 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'hubspot' }),
        }),
      });
      assert.equal(post.status, 200);
      const patch = await route.action({
        request: new Request(`${origin}/api/connect/connections/conn_demo:oauth-update`, {
          method: 'PATCH',
          headers: signedIn,
        }),
      });
      assert.equal(patch.status, 200);
      // Disconnect is served (allowDisconnect): an unknown connection is a 404, not the 405 of a handler without it.
      const removed = await route.action({
        request: new Request(`${origin}/api/connect/connections/conn_nobody`, { method: 'DELETE', headers: signedIn }),
      });
      assert.equal(removed.status, 404);
      const anonymous = await route.loader({
        request: new Request(`${origin}/api/connect/connections/conn_demo`, { headers: { cookie: 'sid=nobody' } }),
      });
      assert.equal(anonymous.status, 401);
    } finally {
      examples.cleanup();
    }
  });
});

describe('README examples (the front door)', () => {
  let emulator: Emulator;
  let env: Record<string, string>;

  before(async () => {
    emulator = createEmulator({ apiKey: 'front-door-key', verifyDelay: 0 });
    const { baseUrl } = await emulator.listen();
    env = { PLATFORM_API_KEY: 'front-door-key', PLATFORM_BASE_URL: baseUrl };
  });
  after(() => emulator.close());

  it('the API client example lists the seeded connection of group acme', async () => {
    const result = await runReadmeExample('quick-client', env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'hubspot bad_credentials\n');
  });

  it('the emulator example starts one on a free port with the default key', async () => {
    const result = await runReadmeExample('quick-emulator', {});
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'true dev-api-key\n');
  });
});

describe('docs/frameworks.md and docs/server.md: the Vite configurations', () => {
  it("the Vue plugin treats the package's two tags, and only them, as custom elements", async () => {
    const examples = writeReadmeExamples();
    try {
      const config = (await import(examples.file('vite-vue'))).default as {
        plugins: {
          name: string;
          api: { options: { template: { compilerOptions: { isCustomElement(tag: string): boolean } } } };
        }[];
      };
      const vue = config.plugins.find((plugin) => plugin.name === 'vite:vue');
      assert.ok(vue, 'the Vue plugin is configured');
      const { isCustomElement } = vue.api.options.template.compilerOptions;
      assert.equal(isCustomElement('connect-provider'), true);
      assert.equal(isCustomElement('connect-integrations'), true);
      assert.equal(isCustomElement('div'), false);
      assert.equal(isCustomElement('connect-nope'), false);
    } finally {
      examples.cleanup();
    }
  });

  it("the dev proxy keeps the browser's Host (changeOrigin: false), as the handler needs", async () => {
    const examples = writeReadmeExamples();
    try {
      const config = (await import(examples.file('vite-proxy'))).default;
      assert.equal(config.server.proxy['/api'].changeOrigin, false);
      assert.match(config.server.proxy['/api'].target, /^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      examples.cleanup();
    }
  });
});

describe('docs/server.md: a handler inside a Vite dev server answers its own preflights with server.cors: false', () => {
  /** The preflight of a POST from an allowed other origin, to the handler mounted in a Vite dev server with `config`. */
  async function preflightThroughVite(config: UserConfig, root: string): Promise<Response> {
    const { createServer: createViteServer } = await import('vite');
    const handler = createConnectHandler({
      apiKey: 'vite-key',
      baseUrl: 'http://127.0.0.1:9/v1',
      project: 'demo',
      authorize: () => null,
      allowedOrigins: ['http://localhost:5173'],
    });
    const vite = await createViteServer({
      ...config,
      configFile: false,
      root,
      logLevel: 'silent',
      appType: 'custom',
      server: { ...config.server, middlewareMode: true, hmr: false, ws: false },
      // Mounted as a framework's dev server mounts its routes: a plugin's middleware.
      plugins: [{ name: 'connect', configureServer: (server) => void server.middlewares.use(toNodeListener(handler)) }],
    });
    const server = createServer(vite.middlewares);
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      return await fetch(`http://127.0.0.1:${port}/api/connect/oauth-connect`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    } finally {
      server.close();
      await vite.close();
    }
  }

  it("without it, Vite's own CORS answers the preflight, without credentials", { timeout: 20_000 }, async () => {
    const examples = writeReadmeExamples();
    try {
      const preflight = await preflightThroughVite({}, examples.dir);
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173');
      assert.equal(
        preflight.headers.get('access-control-allow-credentials'),
        null,
        'the browser then refuses the POST',
      );
    } finally {
      examples.cleanup();
    }
  });

  it('with the example, the handler answers it, with credentials', { timeout: 20_000 }, async () => {
    const examples = writeReadmeExamples();
    try {
      const config = (await import(examples.file('vite-cors'))).default as UserConfig;
      const preflight = await preflightThroughVite(config, examples.dir);
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173');
      assert.equal(preflight.headers.get('access-control-allow-credentials'), 'true');
      assert.equal(
        preflight.headers.get('access-control-allow-methods'),
        'GET, POST, PATCH, DELETE',
        "the handler's own answer",
      );
    } finally {
      examples.cleanup();
    }
  });
});

describe('every code block of README.md and docs/*.md is checked', () => {
  const root = new URL('../../', import.meta.url);
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
    scripts: Record<string, string>;
    name: string;
    bin: Record<string, string>;
    exports: unknown;
  };
  /** Every file the package's exports point at, without "./". */
  const exported = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') exported.add(value.replace(/^\.\//, ''));
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(pkg.exports);
  /** A path the package exports, by name or by a pattern of its exports (`dist/locales/*.js`). */
  const isExported = (path: string) =>
    exported.has(path) ||
    [...exported].some(
      (pattern) =>
        pattern.includes('*') && new RegExp(`^${pattern.replaceAll('.', '\\.').replace('*', '[\\w-]+')}$`).test(path),
    );
  const exportedPath = (text: string) =>
    [...text.matchAll(/node_modules\/connect-provider\/([\w./-]+)/g)].map((match) => match[1]);

  /** The files of a folder, its subfolders' too, but no installed or built ones. */
  const walk = (dir: string): string[] =>
    readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((entry) =>
      ['node_modules', '.next', '.svelte-kit', 'build'].includes(entry.name)
        ? []
        : entry.isDirectory()
          ? walk(`${dir}${entry.name}/`)
          : [`${dir}${entry.name}`],
    );
  /**
   * The snippets (readme:start ... readme:end), each as trimmed lines, of the type fixtures (npm run test:types
   * checks them) and of the apps of examples/ (npm run test:examples builds and runs them).
   */
  const fixtures = [...walk('test/types/'), ...walk('examples/')]
    .filter((file) => /\.(ts|tsx|vue|svelte)$/.test(file))
    .flatMap((file) =>
      [...readFileSync(new URL(file, root), 'utf8').matchAll(/readme:start.*\n([\s\S]*?)\n.*readme:end/g)].map(
        (match) => match[1]!.split('\n').map((line) => line.trim()),
      ),
    );
  const trimmed = (code: string) =>
    code
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.trim());

  const blocks = [...documentation()].flatMap(([file, text]) =>
    [...text.matchAll(/^```(\S*)(?: example:([\w-]+))?\n([\s\S]*?)^```/gm)].map((match) => ({
      file,
      lang: match[1]!,
      name: match[2],
      code: match[3]!,
    })),
  );

  it('finds the blocks, with unique example names', () => {
    assert.ok(blocks.length >= 20, `${blocks.length} blocks`);
    assert.doesNotThrow(() => documentationBlocks('ts'));
    assert.doesNotThrow(() => documentationBlocks('html'));
  });

  for (const block of blocks) {
    const label = `${block.file}: ${block.lang}${block.name ? ` example:${block.name}` : ''} (${block.code.split('\n')[0]})`;
    it(label, async () => {
      if (block.lang === 'ts' && block.name) {
        // Run or imported by the tests above or by test/runtimes/ (each runtime's snippet): one names it, or another
        // example imports it.
        const source = ['test/node/readme-examples.test.ts', 'test/runtimes/runtimes.test.ts']
          .map((file) => readFileSync(new URL(file, root), 'utf8'))
          .join('\n');
        const imported = [...readmeExamples().values()].some((code) => code.includes(`'./${block.name}.js'`));
        assert.ok(source.includes(`'${block.name}'`) || imported, `a test runs example ${block.name}`);
      } else if (block.lang === 'html' && block.name) {
        const { ConnectProvider, ConnectIntegrations } = await import('../../src/integrations.js');
        const events = new Set<string>();
        for (const [tag, element, file] of [
          ['connect-provider', ConnectProvider, 'connect-provider.ts'],
          ['connect-integrations', ConnectIntegrations, 'connect-integrations.ts'],
        ] as const) {
          const observed = new Set((element as unknown as { observedAttributes: string[] }).observedAttributes);
          const source = readFileSync(new URL(`src/element/${file}`, root), 'utf8');
          for (const [, event] of source.matchAll(/@event (\S+)/g)) events.add(event!);
          for (const [, attributes] of block.code.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))) {
            for (const [, name] of attributes!.matchAll(/([\w-]+)(?:="[^"]*")?/g))
              assert.ok(observed.has(name!), `<${tag}> observes the attribute ${name}`);
          }
        }
        for (const [, event] of block.code.matchAll(/addEventListener\('([\w-]+)'/g))
          assert.ok(events.has(event), `the element fires ${event}`);
        for (const path of exportedPath(block.code)) assert.ok(isExported(path), `the package exports ${path}`);
      } else if (block.lang === 'json' && block.name) {
        const paths = exportedPath(JSON.stringify(JSON.parse(block.code)));
        assert.ok(paths.length > 0);
        for (const path of paths) assert.ok(exported.has(path), `the package exports ${path}`);
      } else if (block.lang === 'http' && block.name) {
        // A response header the browser suite sends as written: test/browser/server/strict-page.ts reads it by name.
        assert.match(block.code, /^Content-Security-Policy: [^\n]+\n$/);
        const server = readFileSync(new URL('test/browser/server/strict-page.ts', root), 'utf8');
        assert.ok(server.includes(`http example:${block.name}`), `the browser suite serves example ${block.name}`);
      } else if (block.lang === 'sh') {
        for (const [, script] of block.code.matchAll(/npm run ([\w:.-]+)/g))
          assert.ok(script! in pkg.scripts, `package.json has the script ${script}`);
        for (const [, bin] of block.code.matchAll(/npx (?:-p connect-provider )?(connect-provider[\w-]*)/g))
          assert.ok(bin! in pkg.bin, `package.json has the bin ${bin}`);
        // `npx -p` names the package that holds the bin.
        for (const [, name] of block.code.matchAll(/npx -p (\S+)/g))
          assert.equal(name, pkg.name, 'npx -p names this package');
      } else if (['ts', 'tsx', 'vue', 'svelte'].includes(block.lang) && !block.name) {
        // The block is fixture regions in a row; between them only a Svelte component's script tags or blank lines.
        const lines = trimmed(block.code);
        let regions = 0;
        for (let i = 0; i < lines.length;) {
          const region = fixtures.find((r) => r.every((line, j) => lines[i + j] === line));
          if (region) {
            regions++;
            i += region.length;
          } else {
            assert.ok(
              ['', '<script lang="ts">', '</script>'].includes(lines[i]!),
              `line ${i + 1} (${lines[i]}) is in a readme:start/readme:end region of a fixture under test/types/ (npm run test:types checks it) or of an app under examples/ (npm run test:examples builds it)`,
            );
            i++;
          }
        }
        assert.ok(regions > 0, 'the block holds a fixture region');
      } else {
        assert.fail(`no test checks a ${block.lang} block; mark it "example:NAME" of a checked kind`);
      }
    });
  }

  it("shows every readme:start region of examples/ on a page, so the framework pages show the examples' code", () => {
    const pages = [...documentation().values()].map((text) => text.split('\n').map((line) => line.trim()));
    const files = walk('examples/').filter((file) => /\.(ts|tsx|svelte)$/.test(file));
    let regions = 0;
    for (const file of files) {
      for (const [, region] of readFileSync(new URL(file, root), 'utf8').matchAll(
        /readme:start.*\n([\s\S]*?)\n.*readme:end/g,
      )) {
        regions++;
        const lines = region!.split('\n').map((line) => line.trim());
        const found = pages.some((page) => page.some((_, i) => lines.every((line, j) => page[i + j] === line)));
        assert.ok(found, `README.md or a page of docs/ holds these lines of ${file} in a row:\n${region}`);
      }
    }
    assert.ok(regions >= 8, `${regions} regions in examples/`);
  });

  it('links only to files that exist, and to nothing outside the repository', () => {
    for (const [file, text] of documentation()) {
      assert.doesNotMatch(text, /\.\.\/shared\/|\/work\//, `${file} names no path outside the repository`);
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const url = new URL(target!, new URL(file, root));
        assert.ok(url.href.startsWith(root.href), `${file} links inside the repository: ${target}`);
        assert.ok(existsSync(url), `${file} links to ${target}, which exists`);
      }
    }
  });
});
