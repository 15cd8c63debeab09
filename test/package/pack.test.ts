// The package as a user gets it: npm pack (which builds), publint and
// are-the-types-wrong on the tarball, an install into a fresh project, every
// entry point imported in Node, the emulator bin run, and the element loaded
// from the tarball's self-contained bundle in a real browser.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'connect-provider-pack-'));
const app = join(work, 'app');
let tarball = '';

before(async () => {
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  // prepack's build logs come first; the JSON array is the rest.
  const json = stdout.slice(stdout.search(/^\[\s*\{/m));
  tarball = join(work, JSON.parse(json)[0].filename);
  await exec('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  await exec('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, 'react@19', 'react-dom@19'], {
    cwd: app,
    maxBuffer: 16 * 1024 * 1024,
  });
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  it('holds dist/, the manifest, the OpenAPI document and no tests', async () => {
    const { stdout } = await exec('tar', ['-tzf', tarball]);
    const files = stdout.split('\n');
    for (const file of [
      'package/dist/index.js',
      'package/dist/index.d.ts',
      'package/dist/connect-provider.js',
      'package/dist/element/react.js',
      'package/dist/server/index.js',
      'package/dist/api/index.js',
      'package/dist/api/openapi.yaml',
      'package/dist/emulator/index.js',
      'package/dist/emulator/cli.js',
      'package/custom-elements.json',
      'package/README.md',
      'package/LICENSE',
    ]) {
      assert.ok(files.includes(file), `${file} is in the tarball`);
    }
    assert.ok(!files.some((f) => f.startsWith('package/test/')), 'no tests in the tarball');
  });

  it('passes publint', async () => {
    const { stdout } = await exec('npx', ['publint', join(app, 'node_modules', 'connect-provider'), '--pack', 'false', '--strict'], { cwd: root });
    assert.match(stdout, /All good/);
  });

  it('passes are-the-types-wrong (ESM only)', async () => {
    await exec('npx', ['attw', tarball, '--profile', 'esm-only'], { cwd: root });
  });

  it('imports every entry point in Node, the element entry without a DOM', async () => {
    const script = `
      const element = await import('connect-provider');
      const react = await import('connect-provider/react');
      const server = await import('connect-provider/server');
      const api = await import('connect-provider/api');
      const emulator = await import('connect-provider/emulator');
      const manifest = (await import('connect-provider/custom-elements.json', { with: { type: 'json' } })).default;
      console.log(JSON.stringify({
        element: typeof element.ConnectProvider, tag: element.TAG,
        react: typeof react.ConnectProvider,
        server: [typeof server.createConnectHandler, typeof server.toNodeListener],
        api: typeof api.createPlatformClient,
        emulator: typeof emulator.createEmulator,
        manifestTag: manifest.modules[0].declarations[0].tagName,
      }));`;
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], { cwd: app });
    assert.deepEqual(JSON.parse(stdout), {
      element: 'function',
      tag: 'connect-provider',
      react: 'object',
      server: ['function', 'function'],
      api: 'function',
      emulator: 'function',
      manifestTag: 'connect-provider',
    });
  });

  it('runs the emulator bin, which serves the API', async () => {
    const child = spawn(join(app, 'node_modules', '.bin', 'connect-provider-emulator'), ['--port', '0'], { cwd: app });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c) => {
          out += c;
          const m = /listening on (\S+)/.exec(out);
          if (m && out.includes('bearer token:')) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`the bin exited with ${code}: ${out}`)));
      });
      const response = await fetch(`${url}/v1/orgs/org_demo/invites`, { headers: { 'x-api-key': 'dev-api-key' } });
      assert.equal(response.status, 200);
      assert.equal((await response.json()).length, 3);
    } finally {
      child.kill();
    }
  });

  it('loads the element from the self-contained bundle in Chromium', async () => {
    writeFileSync(
      join(app, 'index.html'),
      `<!doctype html><script type="module" src="/node_modules/connect-provider/dist/connect-provider.js"></script>
       <connect-provider endpoint="/api/connect" provider="salesforce"></connect-provider>`,
    );
    const server: Server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      const file = join(app, path === '/' ? 'index.html' : path);
      if (!file.startsWith(app) || !existsSync(file) || statSync(file).isDirectory()) {
        res.writeHead(404).end();
        return;
      }
      const type = { '.html': 'text/html', '.js': 'text/javascript' }[extname(file)] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const label = await page.locator('connect-provider [part=button]').textContent();
      assert.equal(label?.trim(), 'Connect Salesforce');
      assert.equal(await page.evaluate(() => typeof customElements.get('connect-provider')), 'function');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      server.close();
    }
  });

  it('ships a browser bundle with no Node globals in it', () => {
    const shipped = readFileSync(join(app, 'node_modules', 'connect-provider', 'dist', 'connect-provider.js'));
    assert.ok(shipped.length > 1000);
    assert.ok(!shipped.toString().includes('process.env'), 'no Node globals in the browser bundle');
  });
});
