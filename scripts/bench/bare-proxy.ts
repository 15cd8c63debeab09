// One process: the least a pass-through proxy does for get-connection, as the
// baseline of the handler's cost: one upstream fetch with the key, the group
// check, the same field filter. No origin checks, no problems, no Request objects.
// With BARE_TIMEOUT_MS, each upstream fetch also gets a time-out as the handler's platform client gives each
// attempt (an AbortController and a timer): the same proxy with the time-out a production proxy needs.
// Env: PLATFORM_BASE_URL, PLATFORM_API_KEY, BARE_TIMEOUT_MS (optional). Prints "listening on URL".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toBrowserConnection } from '../../src/server/connection.js';

const base = process.env.PLATFORM_BASE_URL!;
const headers = { 'x-api-key': process.env.PLATFORM_API_KEY!, accept: 'application/json' };
const timeoutMs = Number(process.env.BARE_TIMEOUT_MS ?? 0);

async function upstreamGet(url: string): Promise<Response> {
  if (!timeoutMs) return fetch(url, { headers });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await fetch(url, { headers, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}
const server = createServer({ keepAlive: true }, async (req, res) => {
  // The bench's own probe: this process's CPU time so far, in microseconds.
  if (req.url === '/__bench/cpu') return res.end(String(process.cpuUsage().user + process.cpuUsage().system));
  const id = /\/connections\/([^/?]+)$/.exec(req.url ?? '')?.[1];
  if (!id) return res.writeHead(404).end();
  try {
    const upstream = await upstreamGet(`${base}/projects/demo/connections/${id}`);
    const connection = await upstream.json();
    if (!upstream.ok || connection?.group?.groupRef !== 'acme') return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify(toBrowserConnection(connection)));
  } catch {
    res.writeHead(502).end();
  }
});
server.listen(0, '127.0.0.1', () =>
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
