// npm run audit:bundled (scripts/audit-bundled.mjs) against a stand-in
// registry: it lists what dist/ inlines with installed versions, asks the
// bulk advisory endpoint about exactly those, exits 1 on a known advisory,
// 0 on none, and 0 with "check these by hand" when the registry cannot be asked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = fileURLToPath(new URL('../../scripts/audit-bundled.mjs', import.meta.url));
const installed = (name: string) =>
  (JSON.parse(readFileSync(`${root}node_modules/${name}/package.json`, 'utf8')) as { version: string }).version;

function run(registry: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script],
      { cwd: root, env: { ...process.env, npm_config_registry: registry }, timeout: 60_000 },
      (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
}

/** A registry whose bulk endpoint answers `answer`, recording what it was asked. */
async function registry(answer: (asked: Record<string, string[]>) => { status: number; body: unknown }) {
  const asked: Array<{ path: string; body: Record<string, string[]> }> = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, string[]>;
      asked.push({ path: req.url ?? '', body });
      const { status, body: out } = answer(body);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, asked, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('npm run audit:bundled', () => {
  it('is an npm script', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts['audit:bundled'], 'node scripts/audit-bundled.mjs');
  });

  it('asks about exactly the bundled packages at their installed versions; none known: exit 0', async () => {
    const stub = await registry(() => ({ status: 200, body: {} }));
    try {
      const { code, stdout } = await run(stub.url);
      assert.equal(code, 0, stdout);
      assert.equal(stub.asked.length, 1);
      assert.equal(stub.asked[0].path, '/-/npm/v1/security/advisories/bulk');
      const body = stub.asked[0].body;
      for (const name of ['ajv', 'ajv-formats', 'fast-uri', 'yaml', 'openapi-fetch', '@lit/react', 'lit-html']) {
        assert.deepEqual(body[name], [installed(name)], `${name} asked about at its installed version`);
        assert.match(stdout, new RegExp(`${name.replace('/', '\\/')}@${installed(name).replaceAll('.', '\\.')}`));
      }
      // Only what is bundled: no dev tool, no package the bundles leave external.
      for (const name of ['esbuild', 'typescript', 'react', 'prettier']) assert.equal(body[name], undefined, name);
      assert.match(stdout, /no known advisory/);
    } finally {
      await stub.close();
    }
  });

  it('a known advisory for a bundled version: exit 1, naming it', async () => {
    const stub = await registry(() => ({
      status: 200,
      body: {
        yaml: [
          {
            id: 1,
            title: 'Stand-in advisory',
            severity: 'high',
            url: 'https://example.test/1',
            vulnerable_versions: '*',
          },
        ],
      },
    }));
    try {
      const { code, stdout } = await run(stub.url);
      assert.equal(code, 1, stdout);
      assert.match(stdout, /yaml .*high: Stand-in advisory https:\/\/example\.test\/1/);
    } finally {
      await stub.close();
    }
  });

  for (const [name, status] of [
    ['answers an error', 503],
    ['does not serve the endpoint', 405],
  ] as const) {
    it(`a registry that ${name}: the list, "check these by hand", exit 0`, async () => {
      const stub = await registry(() => ({ status, body: { error: 'no' } }));
      try {
        const { code, stdout } = await run(stub.url);
        assert.equal(code, 0, stdout);
        assert.match(stdout, /ajv@/);
        assert.match(stdout, /could not reach the registry: check these by hand/);
      } finally {
        await stub.close();
      }
    });
  }

  it('a registry nobody listens at: the list, "check these by hand", exit 0', async () => {
    const stub = await registry(() => ({ status: 200, body: {} }));
    await stub.close();
    const { code, stdout } = await run(stub.url);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /yaml@/);
    assert.match(stdout, /could not reach the registry: check these by hand/);
  });
});
