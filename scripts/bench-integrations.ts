// The list's page loads, measured for npm run bench: a page of one <connect-integrations> of 5, 10 and 20 rows, and
// the same page built from as many <connect-provider> elements placed by hand (one per provider, as a host lays out
// its own page), in Chromium against the emulator through the real handler. Rows: the backend requests each page
// makes at load (the list: its integrations and the caller's connections, no provider request; the elements: the
// connections once and one provider read per provider), its round trips (how many times the page waited for an
// answer before asking again: a request that starts after every earlier one answered begins a new trip; the list
// asks for both at once, one trip), and ms from navigation to connect-integrations-loaded (the list) or to the
// page's last backend answer (the elements: each is at rest once its reads answered).
//
// The emulator's project `demo` has 10 integrations; the 20-row page needs 20. The emulator has no operation that
// creates an integration, so the bench gives it a data file (its public `dataFile` option): the emulator seeds the
// file, the bench adds integrations for the 10 other providers of its catalog, and a second emulator starts on it.
// Each row count has its own handler, whose `providers` allow-list is the first N providers of the project's
// integrations, at /n/<N>/api/connect. Each count's handler is warmed by one load that is not measured (the
// handler asks the platform for a provider's info once per 10 minutes), then each page is loaded LOADS times, each
// in a new browser context as a new user's first visit. A page whose rows or elements are not the ones asked for
// fails the bench.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { createEmulator, type EmulatorState } from '../src/emulator/index.js';
import { createConnectHandler, toNodeListener } from '../src/server/index.js';
import { chromiumLaunchOptions } from './browsers.mjs';

export type Row = [string, string, string];

/** The row counts measured. */
const COUNTS = [5, 10, 20];
/** Measured loads of each page (after one load that warms the handler). */
const LOADS = 3;
/** After a page is at rest, how long the bench still listens for a late backend request before counting. */
const SETTLE_MS = 200;
/** The providers of the emulator's catalog that project `demo` has no integration for (docs/emulator.md, Seed data). */
const MORE_PROVIDERS = [
  'notion',
  'google',
  'microsoft',
  'linear',
  'asana',
  'atlassian',
  'pipedrive',
  'intercom',
  'gong',
  'zoho',
];

type Kind = 'integrations' | 'connections' | 'providers' | 'other';
interface Load {
  requests: Record<Kind, number>;
  /** Round trips at load (see roundTrips). */
  trips: number;
  ms: number;
}

/** When the page asked a backend request and when its answer ended (ms, the page's clock). */
interface Timed {
  start: number;
  end: number;
}

/** How many times the page waited for an answer before asking again: a request after every earlier one answered. */
export function roundTrips(requests: Timed[]): number {
  let trips = 0;
  let answeredBy = -Infinity;
  for (const { start, end } of [...requests].sort((a, b) => a.start - b.start)) {
    if (start >= answeredBy) trips++;
    answeredBy = Math.max(answeredBy, end);
  }
  return trips;
}

/** An emulator whose project `demo` has an integration for every provider of the catalog, on a data file of its own. */
async function emulatorWithMoreIntegrations(dir: string) {
  const file = join(dir, 'state.json');
  // The first start writes the seed data to the file.
  await createEmulator({ dataFile: file }).close();
  const state = JSON.parse(readFileSync(file, 'utf8')) as EmulatorState;
  const project = state.projects.find((p) => p.name === 'demo');
  if (!project) throw new Error('bench: the emulator seeded no project demo');
  const last = Math.max(...state.integrations.map((i) => Date.parse(i.createTime)));
  for (const [i, provider] of MORE_PROVIDERS.entries()) {
    if (state.integrations.some((existing) => existing.projectId === project.id && existing.provider === provider))
      continue;
    state.integrations.push({
      id: `int_bench_${provider}`,
      projectId: project.id,
      name: `bench-${provider}`,
      provider,
      createTime: new Date(last + (i + 1) * 60_000).toISOString(),
      fieldMappings: {},
    });
  }
  writeFileSync(file, JSON.stringify(state, null, 2));
  return createEmulator({ dataFile: file });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** Runs the page loads with the self-contained bundle `element`, and returns the table's rows. */
export async function benchIntegrations(element: Uint8Array): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-integrations-'));
  const emulator = await emulatorWithMoreIntegrations(dir);
  const { baseUrl } = await emulator.listen();
  let browser: Browser | undefined;
  let app: ReturnType<typeof createServer> | undefined;
  try {
    // The project's providers as the platform lists them (its order is the list's).
    const answer = await fetch(`${baseUrl}/projects/demo/integrations`, { headers: { 'X-Api-Key': emulator.apiKey } });
    if (!answer.ok) throw new Error(`bench: the emulator's list integrations answered ${answer.status}`);
    const order = [...new Set(((await answer.json()) as Array<{ provider: string }>).map((i) => i.provider))];
    const most = Math.max(...COUNTS);
    if (order.length < most)
      throw new Error(`bench: project demo has integrations of ${order.length} providers, ${most} needed`);

    const connects = new Map(
      COUNTS.map((count) => [
        count,
        toNodeListener(
          createConnectHandler({
            apiKey: emulator.apiKey,
            baseUrl,
            project: 'demo',
            providers: order.slice(0, count),
            authorize: (request) => {
              const group = /(?:^|;\s*)g=([\w-]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? 'bench';
              return { groupRef: group, consumerRef: `${group}-user` };
            },
          }),
        ),
      ]),
    );
    let requests: Record<Kind, number> = { integrations: 0, connections: 0, providers: 0, other: 0 };
    // Records when the list tells it loaded (the pages of elements are timed by their last backend answer).
    const head = `<!doctype html><script>
      document.addEventListener('connect-integrations-loaded', () => { window.benchLoadedAt = performance.now(); });
    </script><script type="module" src="/connect-provider.js"></script>`;
    const listPage = (count: number) =>
      `${head}<connect-integrations endpoint="/n/${count}/api/connect"></connect-integrations>`;
    const handPage = (count: number) =>
      `${head}${order
        .slice(0, count)
        .map(
          (provider) =>
            `<connect-provider endpoint="/n/${count}/api/connect" provider="${provider}"></connect-provider>`,
        )
        .join('')}`;
    app = createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = req.url ?? '';
      const api = /^\/n\/(\d+)\/api\/connect\//.exec(url);
      if (api && connects.has(Number(api[1]))) {
        const path = url.split('?')[0];
        const kind: Kind = path.endsWith('/integrations')
          ? 'integrations'
          : path.endsWith('/connections')
            ? 'connections'
            : path.includes('/providers/')
              ? 'providers'
              : 'other';
        requests[kind]++;
        connects.get(Number(api[1]))!(req, res);
      } else if (url === '/connect-provider.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(element);
      } else {
        const page = /^\/(list|hand)\/(\d+)$/.exec(url);
        if (!page) res.writeHead(404).end();
        else
          res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(page[1] === 'list' ? listPage(Number(page[2])) : handPage(Number(page[2])));
      }
    });
    await new Promise<void>((r) => app!.listen(0, '127.0.0.1', r));
    const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    browser = await chromium.launch(chromiumLaunchOptions);

    let visit = 0;
    /** One page load as a new user's first visit: its backend requests and its ms, once the page is at rest. */
    const load = async (kind: 'list' | 'hand', count: number): Promise<Load> => {
      const context = await browser!.newContext();
      try {
        await context.addCookies([{ name: 'g', value: `${kind}-${count}-${visit++}`, url: appUrl }]);
        const tab = await context.newPage();
        requests = { integrations: 0, connections: 0, providers: 0, other: 0 };
        // Not waiting for the load event (the icons): the page is at rest when its elements are.
        await tab.goto(`${appUrl}/${kind}/${count}`, { waitUntil: 'commit' });
        const expected = order.slice(0, count);
        if (kind === 'list') {
          // At rest: the list told it loaded, and each row's element shows its connection.
          await tab.waitForFunction(
            () => {
              const root = document.querySelector('connect-integrations')?.shadowRoot;
              const w = window as unknown as { benchLoadedAt?: number };
              return (
                w.benchLoadedAt !== undefined &&
                !!root &&
                [...root.querySelectorAll('connect-provider')].every((e) => e.hasAttribute('connection-status'))
              );
            },
            undefined,
            { timeout: 20_000 },
          );
          const shown = await tab.evaluate(() =>
            [...document.querySelector('connect-integrations')!.shadowRoot!.querySelectorAll('li[part~=row]')].map(
              (row) => row.querySelector<HTMLElement & { provider?: string }>('connect-provider')?.provider ?? null,
            ),
          );
          if (shown.length !== count || shown.some((provider, i) => provider !== expected[i]))
            throw new Error(
              `bench: <connect-integrations> of ${count} rows rendered ${shown.length} rows (${shown.join(', ')}), not ${expected.join(', ')}`,
            );
        } else {
          await tab.waitForFunction(
            (n) => document.querySelectorAll('connect-provider[connection-status]').length === n,
            count,
            { timeout: 20_000 },
          );
          const placed = await tab.evaluate(() =>
            [...document.querySelectorAll('connect-provider')].map((e) => e.getAttribute('provider')),
          );
          if (placed.length !== count || new Set(placed).size !== count)
            throw new Error(`bench: the page of ${count} elements has ${placed.length} (${placed.join(', ')})`);
        }
        await tab.waitForTimeout(SETTLE_MS);
        const ms = await tab.evaluate((list) => {
          if (list) return (window as unknown as { benchLoadedAt: number }).benchLoadedAt;
          // Each element is at rest once its reads answered: the last backend answer of the page.
          const answers = performance
            .getEntriesByType('resource')
            .filter((e) => new URL(e.name).pathname.includes('/api/connect/'))
            .map((e) => (e as PerformanceResourceTiming).responseEnd);
          return Math.max(...answers);
        }, kind === 'list');
        // The page's own clock: when it asked each backend request (whatever the browser's connection limit made it
        // wait) and when the answer ended.
        const timed: Timed[] = await tab.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .filter((e) => new URL(e.name).pathname.includes('/api/connect/'))
            .map((e) => ({ start: e.startTime, end: (e as PerformanceResourceTiming).responseEnd })),
        );
        return { requests: { ...requests }, trips: roundTrips(timed), ms };
      } finally {
        await context.close();
      }
    };

    const rows: Row[] = [];
    for (const count of COUNTS) {
      await load('list', count);
      const lists: Load[] = [];
      const hands: Load[] = [];
      // Interleaved, so a passing load on the machine falls on both alike.
      for (let i = 0; i < LOADS; i++) {
        lists.push(await load('list', count));
        hands.push(await load('hand', count));
      }
      /** The requests of the loads: one count when every load made the same, else the range. */
      const counted = (loads: Load[], kind: Kind | 'total') => {
        const each = loads.map((l) =>
          kind === 'total' ? Object.values(l.requests).reduce((a, b) => a + b, 0) : l.requests[kind],
        );
        const [low, high] = [Math.min(...each), Math.max(...each)];
        return low === high ? String(low) : `${low}-${high}`;
      };
      const extra = (loads: Load[]) =>
        loads.some((l) => l.requests.other) ? `, other ${counted(loads, 'other')}` : '';
      rows.push([
        `page load: <connect-integrations> of ${count} rows, backend requests (integrations, connections, providers)`,
        counted(lists, 'total'),
        `${counted(lists, 'integrations')}, ${counted(lists, 'connections')}, ${counted(lists, 'providers')}${extra(lists)}`,
      ]);
      rows.push([
        `page load: ${count} <connect-provider> placed by hand, ${count} providers, backend requests (connections, providers)`,
        counted(hands, 'total'),
        `${counted(hands, 'connections')}, ${counted(hands, 'providers')}${extra(hands)}${
          hands.some((l) => l.requests.integrations) ? `, integrations ${counted(hands, 'integrations')}` : ''
        }`,
      ]);
      rows.push([
        `page load: <connect-integrations> of ${count} rows, round trips (median, max of ${LOADS})`,
        String(median(lists.map((l) => l.trips))),
        String(Math.max(...lists.map((l) => l.trips))),
      ]);
      rows.push([
        `page load: ${count} <connect-provider> placed by hand, round trips (median, max of ${LOADS})`,
        String(median(hands.map((l) => l.trips))),
        String(Math.max(...hands.map((l) => l.trips))),
      ]);
      rows.push([
        `page load: <connect-integrations> of ${count} rows, ms to connect-integrations-loaded (median, max of ${LOADS})`,
        String(Math.round(median(lists.map((l) => l.ms)))),
        String(Math.round(Math.max(...lists.map((l) => l.ms)))),
      ]);
      rows.push([
        `page load: ${count} <connect-provider> placed by hand, ms to the last backend answer (median, max of ${LOADS})`,
        String(Math.round(median(hands.map((l) => l.ms)))),
        String(Math.round(Math.max(...hands.map((l) => l.ms)))),
      ]);
    }
    return rows;
  } finally {
    await browser?.close();
    app?.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Runnable alone: node --import tsx scripts/bench-integrations.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  // @ts-expect-error plain ES module without types
  const { bundle } = await import('./bundle.mjs');
  const started = Date.now();
  const rows = await benchIntegrations(await bundle({ write: false }));
  console.error(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  for (const [name, a, b] of rows) console.log(`${name} | ${a} | ${b}`);
}
