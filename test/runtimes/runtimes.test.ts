// The handler on every runtime docs/server.md names: its own snippet for Node, Bun, Deno and Cloudflare Workers
// (workerd, the Workers runtime), each runtime from its npm package (devDependencies), each snippet bundled from the
// sources as a user's bundler would (the Workers one for the browser platform, where a node: module cannot be
// resolved) and run as a child process on a free port, with an emulator of its own behind it. The same requests go
// to each, and every answer must match Node's: status, content type, Cache-Control, Allow, JSON shape, and a
// problem's type, title and detail. A runtime that is not installed, or does not start, fails its test with what it
// printed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { readmeExamples } from '../node/helpers/readme.js';
import { freePort } from '../node/helpers/ports.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so the bundles resolve the server's own dependencies from its node_modules.
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
const work = mkdtempSync(join(root, 'node_modules', '.cache', 'runtimes-'));
const API_KEY = 'runtimes-key';
/** Node's globals that a Worker without Node's APIs lacks. */
const NODE_GLOBALS = ['process', 'Buffer', 'setImmediate'];

/** The package's entry points the snippets import, as the sources they are built from. */
const ENTRIES: Record<string, string> = {
  'connect-provider/server': join(root, 'src/server/index.ts'),
  'connect-provider/node': join(root, 'src/node.ts'),
};

interface Runtime {
  name: string;
  /** The docs/server.md example it serves. */
  example: string;
  /** The npm package that installs it, and its command under node_modules/.bin. */
  pkg: string;
  bin: string;
  /** How a user's bundler builds for it: esbuild's platform and export conditions (wrangler's, for Workers). */
  platform: 'node' | 'neutral' | 'browser';
  conditions: string[];
  version(): string;
  /** The command that serves `file` (an ES module in `dir`) on `port`. */
  command(file: string, dir: string, port: number, env: Record<string, string>): { args: string[]; env: object };
}

const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (file: string, args: string[]) => execFileSync(file, args, { encoding: 'utf8', timeout: 30_000 }).trim();

const RUNTIMES: Runtime[] = [
  {
    name: 'Node',
    example: 'runtime-node',
    pkg: 'node',
    bin: process.execPath,
    platform: 'node',
    conditions: [],
    version: () => process.version,
    command: (file, _dir, port, env) => ({ args: [file], env: { ...env, PORT: String(port) } }),
  },
  {
    name: 'Bun',
    example: 'runtime-bun',
    pkg: 'bun',
    bin: bin('bun'),
    platform: 'neutral',
    conditions: ['bun'],
    version: () => `bun ${run(bin('bun'), ['--version'])}`,
    command: (file, _dir, port, env) => ({ args: [file], env: { ...env, PORT: String(port) } }),
  },
  {
    name: 'Deno',
    example: 'runtime-deno',
    pkg: 'deno',
    bin: bin('deno'),
    platform: 'neutral',
    conditions: ['deno'],
    version: () => run(bin('deno'), ['--version']).split('\n')[0]!,
    command: (file, _dir, port, env) => ({
      // As docs/server.md says to run it: the network to serve and to reach the platform, the environment.
      args: ['run', '--allow-net', '--allow-env', file],
      env: { ...env, PORT: String(port), DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' },
    }),
  },
  {
    name: 'workerd',
    example: 'runtime-workers',
    pkg: 'workerd',
    bin: bin('workerd'),
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    version: () => run(bin('workerd'), ['--version']),
    command: (file, dir, port, env) => {
      // The Worker's env as wrangler gives it (vars and a secret: text bindings), an outbound network that reaches
      // the emulator on loopback (workerd's default reaches public addresses only), and none of Node's APIs: a
      // recent date turns them on by default (workerd 2026-11-17: from the date 2026-08-04), the flags turn them off.
      // In front of the snippet, a module that answers which Node globals the Worker sees (GET /runtime-globals).
      const bindings = Object.entries(env)
        .map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`)
        .join(', ');
      writeFileSync(
        join(dir, 'probe.js'),
        `import worker from './worker.js';
export default {
  fetch(request, env, context) {
    if (new URL(request.url).pathname !== '/runtime-globals') return worker.fetch(request, env, context);
    return Response.json(Object.fromEntries(${JSON.stringify(NODE_GLOBALS)}.map((name) => [name, typeof globalThis[name]])));
  },
};
`,
      );
      writeFileSync(
        join(dir, 'config.capnp'),
        `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "probe.js", esModule = embed "probe.js"),
    (name = "worker.js", esModule = embed ${JSON.stringify(basename(file))}),
  ],
  compatibilityDate = "2026-11-01",
  compatibilityFlags = ["no_nodejs_compat", "no_nodejs_compat_v2"],
  bindings = [${bindings}],
  globalOutbound = "internet",
);
`,
      );
      return { args: ['serve', join(dir, 'config.capnp')], env: {} };
    },
  },
];

/** One answer, as far as it must match Node's. */
interface Answer {
  request: string;
  status: number;
  contentType: string | null;
  cacheControl: string | null;
  allow: string | null;
  /** The body's JSON shape (keys, and each value's type), or the body's length when it is no JSON. */
  shape: unknown;
  /** A problem's type, title and detail (its addresses in it as `{server}` and `{platform}`). */
  problem?: { type: unknown; title: unknown; detail: unknown };
}

/** A JSON value's shape: objects by sorted keys, arrays item by item, everything else by its type. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, shape((value as Record<string, unknown>)[key])]),
    );
  return value === null ? 'null' : typeof value;
}

interface Call {
  name: string;
  method?: string;
  path: string;
  signedIn?: boolean;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
  /** The status Node answers (the docs' routes table), so the comparison holds on successes too. */
  expect: number;
}

/** Every route of the handler (docs/server.md, "The routes"), its successes and its refusals; DELETE last. */
const CALLS: Call[] = [
  { name: 'oauth-connect', method: 'POST', path: 'oauth-connect', json: { provider: 'salesforce' }, expect: 200 },
  { name: 'oauth-update', method: 'PATCH', path: 'connections/conn_demo:oauth-update', json: {}, expect: 200 },
  { name: 'get a connection', path: 'connections/conn_demo', expect: 200 },
  { name: 'a provider', path: 'providers/hubspot', expect: 200 },
  { name: 'the integrations', path: 'integrations', expect: 200 },
  { name: 'the list', path: 'connections', expect: 200 },
  { name: "a provider's list", path: 'connections?provider=hubspot', expect: 200 },
  { name: 'the own list', path: 'connections?provider=hubspot&own=true', expect: 200 },
  {
    name: 'a credential for a consent provider',
    method: 'POST',
    path: 'connections',
    json: { provider: 'salesforce', apiKey: 'runtime-secret-1' },
    expect: 400,
  },
  {
    name: "a credential for an OAuth connection's update",
    method: 'PATCH',
    path: 'connections/conn_demo',
    json: { apiKey: 'runtime-secret-2' },
    expect: 400,
  },
  { name: 'signed out', path: 'connections', signedIn: false, expect: 401 },
  { name: 'cross-site', path: 'connections', headers: { 'sec-fetch-site': 'cross-site' }, expect: 403 },
  { name: 'an unknown route', path: 'nothing-here', expect: 404 },
  { name: 'a provider outside the allow-list', path: 'providers/notion', expect: 404 },
  { name: 'a missing connection', path: 'connections/conn_nobody', expect: 404 },
  { name: 'a wrong method', method: 'PUT', path: 'connections/conn_demo', json: {}, expect: 405 },
  {
    name: 'a provider off the allow-list',
    method: 'POST',
    path: 'oauth-connect',
    json: { provider: 'notion' },
    expect: 400,
  },
  { name: 'a provider named ..', method: 'POST', path: 'oauth-connect', json: { provider: '..' }, expect: 400 },
  { name: 'malformed JSON', method: 'POST', path: 'oauth-connect', body: '{"provider":', expect: 400 },
  {
    name: 'no JSON',
    method: 'POST',
    path: 'oauth-connect',
    headers: { 'content-type': 'text/plain' },
    body: 'provider=salesforce',
    expect: 415,
  },
  {
    name: 'a body over the limit',
    method: 'POST',
    path: 'oauth-connect',
    json: { provider: 'salesforce', providerMetadata: { note: 'x'.repeat(20_000) } },
    expect: 413,
  },
  { name: 'disconnect', method: 'DELETE', path: 'connections/conn_demo', expect: 204 },
  { name: 'the connection after it', path: 'connections/conn_demo', expect: 404 },
];

/** Sends every call to a server at `base`, one after another, and reads each answer. */
async function exercise(base: string, platform: string): Promise<Answer[]> {
  const origin = new URL(base).origin;
  const answers: Answer[] = [];
  for (const call of CALLS) {
    const headers: Record<string, string> = { origin, ...call.headers };
    if (call.signedIn !== false) headers.cookie = 'sid=demo-session';
    if ((call.json !== undefined || call.body !== undefined) && !headers['content-type'])
      headers['content-type'] = 'application/json';
    const response = await fetch(`${base}/api/connect/${call.path}`, {
      method: call.method ?? 'GET',
      headers,
      body: call.json !== undefined ? JSON.stringify(call.json) : call.body,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const answer: Answer = {
      request: `${call.name}: ${call.method ?? 'GET'} ${call.path}`,
      status: response.status,
      contentType: response.headers.get('content-type'),
      cacheControl: response.headers.get('cache-control'),
      allow: response.headers.get('allow'),
      shape: json === undefined ? `${text.length} bytes` : shape(json),
    };
    if (answer.contentType === 'application/problem+json') {
      const problem = json as { type?: unknown; title?: unknown; detail?: unknown };
      const detail =
        typeof problem.detail === 'string'
          ? problem.detail.replaceAll(new URL(base).host, '{server}').replaceAll(new URL(platform).host, '{platform}')
          : problem.detail;
      answer.problem = { type: problem.type, title: problem.title, detail };
    }
    answers.push(answer);
  }
  return answers;
}

interface Served {
  runtime: Runtime;
  version?: string;
  answers?: Answer[];
  /** Where it serves. */
  base?: string;
  /** Why it was not served: not installed, did not start, or failed a request. */
  error?: string;
  bundle?: Metafile;
}

const children: ChildProcess[] = [];
const emulators: Emulator[] = [];

/** Bundles the runtime's snippet with connect.ts, as its users' bundler would. */
async function bundleSnippet(runtime: Runtime, dir: string): Promise<{ file: string; metafile: Metafile }> {
  const examples = readmeExamples();
  for (const name of ['connect', runtime.example]) {
    const code = examples.get(name);
    if (code === undefined) throw new Error(`docs/server.md has no block "ts example:${name}"`);
    writeFileSync(join(dir, `${name}.ts`), code);
  }
  const file = join(dir, 'server.mjs');
  const result = await build({
    entryPoints: [join(dir, `${runtime.example}.ts`)],
    outfile: file,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: runtime.platform,
    conditions: runtime.conditions,
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'connect-provider-entries',
        setup(b) {
          b.onResolve({ filter: /^connect-provider\// }, (args) =>
            ENTRIES[args.path] ? { path: ENTRIES[args.path] } : undefined,
          );
        },
      },
    ],
  });
  return { file, metafile: result.metafile };
}

/** Starts the runtime on its snippet, with an emulator of its own; resolves when it answers on its port. */
async function serve(runtime: Runtime): Promise<Served> {
  const served: Served = { runtime };
  if (runtime.bin !== process.execPath && !existsSync(runtime.bin)) {
    served.error = `${runtime.name} is not installed: node_modules/.bin/${runtime.pkg} is missing (npm ci installs the ${runtime.pkg} package from devDependencies)`;
    return served;
  }
  try {
    served.version = runtime.version();
  } catch (error) {
    served.error = `${runtime.name} does not run here (${runtime.bin} --version): ${(error as Error).message}`;
    return served;
  }
  const dir = mkdtempSync(join(work, `${runtime.pkg}-`));
  let file: string;
  try {
    let metafile: Metafile;
    ({ file, metafile } = await bundleSnippet(runtime, dir));
    served.bundle = metafile;
  } catch (error) {
    served.error = `docs/server.md's ${runtime.example} does not bundle for ${runtime.name}: ${(error as Error).message}`;
    return served;
  }
  const emulator = createEmulator({ apiKey: API_KEY, verifyDelay: 0 });
  emulators.push(emulator);
  const { baseUrl } = await emulator.listen();
  const port = await freePort();
  const env = { PLATFORM_API_KEY: API_KEY, PLATFORM_BASE_URL: baseUrl, PLATFORM_PROJECT: 'demo' };
  const { args, env: childEnv } = runtime.command(file, dir, port, env);
  let output = '';
  const child = spawn(runtime.bin, args, {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...childEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      served.error = `${runtime.name} ${served.version} ended (${child.exitCode ?? child.signalCode}) before serving:\n${output}`;
      return served;
    }
    const up = await fetch(`${base}/`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 404,
      () => false,
    );
    if (up) {
      served.base = base;
      break;
    }
    if (Date.now() > deadline) {
      served.error = `${runtime.name} ${served.version} did not serve ${base} within 30 s:\n${output}`;
      return served;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    served.answers = await exercise(base, baseUrl);
  } catch (error) {
    served.error = `${runtime.name} ${served.version} failed a request: ${(error as Error).message}\n${output}`;
  }
  return served;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await ended;
  clearTimeout(timer);
}

describe('the handler on Node, Bun, Deno and workerd (docs/server.md, "On each runtime")', () => {
  const served = new Map<string, Served>();

  before(
    async () => {
      const started = Date.now();
      for (const result of await Promise.all(RUNTIMES.map(serve))) served.set(result.runtime.name, result);
      const versions = [...served.values()].map((s) => s.version ?? `${s.runtime.name} (none)`).join(', ');
      console.log(
        `# runtimes: ${versions}; served and asked ${CALLS.length} requests each in ${Date.now() - started} ms`,
      );
    },
    { timeout: 120_000 },
  );

  after(async () => {
    await Promise.all(children.map(stop));
    await Promise.all(emulators.map((emulator) => emulator.close()));
    rmSync(work, { recursive: true, force: true });
  });

  it('bundles connect-provider/server for Workers with no node: module in it', () => {
    const workers = served.get('workerd')!;
    // esbuild for the browser platform (wrangler's conditions) cannot resolve a node: module: bundleSnippet threw.
    assert.ok(workers.bundle, workers.error ?? 'the Workers snippet was bundled');
    const inputs = Object.keys(workers.bundle.inputs);
    assert.ok(
      inputs.some((input) => input.endsWith('src/server/handler.ts')),
      'the bundle holds the handler',
    );
    const imports = Object.values(workers.bundle.inputs).flatMap((input) => input.imports.map((i) => i.path));
    assert.deepEqual(
      imports.filter((path) => path.startsWith('node:')),
      [],
      'no module of the bundle imports a node: module',
    );
  });

  it('serves the Workers snippet in a Worker without Node globals', async () => {
    const workers = served.get('workerd')!;
    assert.ok(workers.base, workers.error);
    const seen = await (await fetch(`${workers.base}/runtime-globals`)).json();
    assert.deepEqual(seen, Object.fromEntries(NODE_GLOBALS.map((name) => [name, 'undefined'])));
  });

  it("answers every route on Node with the docs' status", () => {
    const node = served.get('Node')!;
    assert.ok(node.answers, node.error);
    assert.deepEqual(
      node.answers.map((answer) => `${answer.request} -> ${answer.status}`),
      CALLS.map((call) => `${call.name}: ${call.method ?? 'GET'} ${call.path} -> ${call.expect}`),
    );
  });

  it('names in docs/server.md the versions of Bun, Deno and workerd it runs', () => {
    const page = readFileSync(join(root, 'docs/server.md'), 'utf8').replace(/\s+/g, ' ');
    for (const runtime of RUNTIMES.filter((r) => r.name !== 'Node')) {
      const { version } = served.get(runtime.name)!;
      assert.ok(version, served.get(runtime.name)!.error);
      // "bun 1.4.5" -> "Bun 1.4.5", "deno 2.9.6 (stable, ...)" -> "Deno 2.9.6", "workerd 2026-11-17" as it is.
      const named = `${runtime.pkg === 'workerd' ? 'workerd' : runtime.name} ${version.split(' ')[1]}`;
      assert.ok(page.includes(named), `docs/server.md names ${named}`);
    }
  });

  for (const runtime of RUNTIMES.filter((r) => r.name !== 'Node')) {
    it(`answers every route on ${runtime.name} as on Node`, () => {
      const node = served.get('Node')!;
      const other = served.get(runtime.name)!;
      assert.ok(node.answers, node.error);
      assert.ok(other.answers, other.error);
      assert.deepEqual(other.answers, node.answers);
    });
  }
});
