// One process: the least a pass-through proxy does for get-connection, as the
// baseline of the handler's cost: one upstream fetch with the key, the group
// check, the same field filter. No origin checks, no problems, no Request objects.
// Env: PLATFORM_BASE_URL, PLATFORM_API_KEY. Prints "listening on URL".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toBrowserConnection } from '../../src/server/connection.js';

const base = process.env.PLATFORM_BASE_URL!;
const headers = { 'x-api-key': process.env.PLATFORM_API_KEY!, accept: 'application/json' };
const server = createServer({ keepAlive: true }, async (req, res) => {
  // The bench's own probe: this process's CPU time so far, in microseconds.
  if (req.url === '/__bench/cpu') return res.end(String(process.cpuUsage().user + process.cpuUsage().system));
  const id = /\/connections\/([^/?]+)$/.exec(req.url ?? '')?.[1];
  if (!id) return res.writeHead(404).end();
  try {
    const upstream = await fetch(`${base}/projects/demo/connections/${id}`, { headers });
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
