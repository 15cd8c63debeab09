#!/usr/bin/env -S node --import tsx
// The handler's own cost, measured honestly: the emulator, the handler and a
// bare pass-through proxy each run in their own process (the two servers compiled
// to plain JavaScript, as an app ships them); autocannon (in this
// process) drives get-connection through the handler and through the bare
// proxy in interleaved rounds, and the medians of the rounds are compared.
//   node --import tsx scripts/bench-handler.ts [--rounds 5] [--seconds 5] [--connections 10]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const API_KEY = 'bench-api-key';

/**
 * Compiles a bench server to one plain JavaScript file, as an app's build would (no TypeScript loader at run time:
 * tsx wraps every function it compiles, which would count against the side with more closures).
 */
async function compile(entry: string, dir: string): Promise<string> {
  const outfile = join(dir, `${basename(entry, '.ts')}.mjs`);
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  return outfile;
}

/** Starts a module in its own Node process and waits for its "listening on URL" line. */
async function startProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const loader = args[0].endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start: ${out}`)), 30000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${out}`)));
  });
  child.stdout!.resume();
  return { url, child };
}

interface Round {
  rps: number;
  /** CPU time of the measured process per request, µs. */
  cpu: number;
  p50: number;
  p99: number;
  errors: number;
}

async function cpuOf(url: string): Promise<number> {
  return Number(await (await fetch(`${new URL(url).origin}/__bench/cpu`)).text());
}

async function load(url: string, seconds: number, connections: number): Promise<Round> {
  const before = await cpuOf(url);
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  const cpu = (await cpuOf(url)) - before;
  const errors = result.errors + result.timeouts + result.non2xx;
  return {
    rps: result.requests.average,
    cpu: cpu / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export interface HandlerBenchOptions {
  rounds?: number;
  seconds?: number;
  connections?: number;
}

/** Runs the bench; returns the table rows [measure, value, value]. */
export async function benchHandler(options: HandlerBenchOptions = {}): Promise<Array<[string, string, string]>> {
  const rounds = options.rounds ?? 5;
  const seconds = options.seconds ?? 5;
  const connections = options.connections ?? 10;
  const children: ChildProcess[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'bench-handler-'));
  try {
    const emulator = await startProcess([
      'src/emulator/cli.ts',
      '--port',
      '0',
      '--api-key',
      API_KEY,
      '--verify-delay',
      '0',
    ]);
    children.push(emulator.child);
    const env = { PLATFORM_BASE_URL: `${emulator.url}/v1`, PLATFORM_API_KEY: API_KEY };
    const handler = await startProcess([await compile('scripts/bench/handler-server.ts', dir)], env);
    children.push(handler.child);
    const bareJs = await compile('scripts/bench/bare-proxy.ts', dir);
    const bare = await startProcess([bareJs], env);
    children.push(bare.child);
    // The handler's default platform time-out (timeoutMs 8000), as the bare proxy's second form.
    const timed = await startProcess([bareJs], { ...env, BARE_TIMEOUT_MS: '8000' });
    children.push(timed.child);
    const path = '/api/connect/connections/conn_demo';
    const targets = { handler: `${handler.url}${path}`, bare: `${bare.url}${path}`, timed: `${timed.url}${path}` };
    type Name = keyof typeof targets;
    const names = Object.keys(targets) as Name[];
    for (const [name, url] of Object.entries(targets)) {
      const response = await fetch(url);
      if (response.status !== 200) throw new Error(`${name} answered ${response.status}: ${await response.text()}`);
      await load(url, 3, connections); // warm-up: JIT, keep-alive pools
    }
    const results: Record<Name, Round[]> = { handler: [], bare: [], timed: [] };
    const loads: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Interleaved, rotating which goes first, so drifting load on a shared machine hits all alike.
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) results[name].push(await load(targets[name], seconds, connections));
      loads.push(loadavg()[0]);
    }
    const errors = names.reduce((n, name) => n + results[name].reduce((e, r) => e + r.errors, 0), 0);
    if (errors > 0) throw new Error(`${errors} requests failed during the bench`);
    const m = (name: Name, key: keyof Round) => median(results[name].map((r) => r[key]));
    const ratio = (of: Name, key: keyof Round) => (m('handler', key) / m(of, key)).toFixed(2);
    const setup = `${rounds} rounds x ${seconds} s, ${connections} connections, load avg ${median(loads).toFixed(1)} on ${cpus().length} cores`;
    const latency = (name: Name) => `${m(name, 'p50')} / ${m(name, 'p99')}`;
    return [
      [
        `handler: get-connection req/s, separate processes, median of ${setup} (handler, bare proxy; bare proxy with an 8 s time-out)`,
        m('handler', 'rps').toFixed(0),
        `${m('bare', 'rps').toFixed(0)}; ${m('timed', 'rps').toFixed(0)}`,
      ],
      [
        'handler: latency p50 / p99 ms (handler, bare proxy; bare with time-out)',
        latency('handler'),
        `${latency('bare')}; ${latency('timed')}`,
      ],
      [
        'handler: CPU µs per request in its own process (handler, bare proxy; bare with time-out)',
        m('handler', 'cpu').toFixed(0),
        `${m('bare', 'cpu').toFixed(0)}; ${m('timed', 'cpu').toFixed(0)}`,
      ],
      // Reported, not targeted (issue #21): the handler's work is not what a connect flow waits for. CPU per request
      // above 2x the bare proxy's is a regression to explain.
      [
        'handler: handler / bare proxy: CPU per request (over 2.00 is a finding); p99; throughput',
        ratio('bare', 'cpu'),
        `${ratio('bare', 'p99')}; ${ratio('bare', 'rps')}`,
      ],
      [
        'handler: the same against the bare proxy with the time-out',
        ratio('timed', 'cpu'),
        `${ratio('timed', 'p99')}; ${ratio('timed', 'rps')}`,
      ],
      [
        'handler: per round req/s, handler | bare; bare with time-out',
        results.handler.map((r) => r.rps.toFixed(0)).join(' '),
        `${results.bare.map((r) => r.rps.toFixed(0)).join(' ')}; ${results.timed.map((r) => r.rps.toFixed(0)).join(' ')}`,
      ],
    ];
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
    },
  });
  const rows = await benchHandler({
    rounds: Number(values.rounds),
    seconds: Number(values.seconds),
    connections: Number(values.connections),
  });
  for (const [name, a, b] of rows) console.log(`${name} | ${a} | ${b}`);
}
