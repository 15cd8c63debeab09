// One process: the real handler behind node:http, as an app would mount it.
// Env: PLATFORM_BASE_URL, PLATFORM_API_KEY. Prints "listening on URL".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConnectHandler, toNodeListener } from '../../src/server/index.js';

const handler = createConnectHandler({
  apiKey: process.env.PLATFORM_API_KEY!,
  baseUrl: process.env.PLATFORM_BASE_URL!,
  project: 'demo',
  authorize: () => ({ groupRef: 'acme', consumerRef: 'user-ada' }),
});
const listener = toNodeListener(handler);
const server = createServer({ keepAlive: true }, (req, res) => {
  // The bench's own probe: this process's CPU time so far, in microseconds.
  if (req.url === '/__bench/cpu') return res.end(String(process.cpuUsage().user + process.cpuUsage().system));
  listener(req, res);
});
server.listen(0, '127.0.0.1', () =>
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`),
);
