// A Web-standard handler or a node:http server listening on loopback for the Node edge's tests, and what they read
// of a raw HTTP answer (helpers/raw-http.ts): its status, headers and body, a chunked body decoded.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener, type FetchHandler } from '../../../src/http/node.js';

/** Serves `handler` through toNodeListener on loopback; returns the port and a close that ends every connection. */
export async function listen(handler: FetchHandler): Promise<{ port: number; close: () => Promise<void> }> {
  return listenOn(createServer(toNodeListener(handler)));
}

/** Listens on loopback; returns the port and a close that ends every connection. */
export async function listenOn(server: Server): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const statusOf = (answer: string) => Number(answer.slice(9, 12));
export const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4);

/** The head's headers, lower-cased and sorted, without Date (it differs between two answers). */
export const headersOf = (answer: string) =>
  answer
    .slice(0, answer.indexOf('\r\n\r\n'))
    .split('\r\n')
    .slice(1)
    .map((line) => line.toLowerCase())
    .filter((line) => !line.startsWith('date:'))
    .sort();

/** The payload of a complete chunked body; throws when its last chunk is missing. */
export function dechunk(body: string): string {
  let out = '';
  for (let rest = body; ;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (lineEnd < 0 || Number.isNaN(size)) throw new Error(`not a complete chunked body: ${JSON.stringify(body)}`);
    if (size === 0) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 4 + size);
  }
}

/** The payload of a complete chunked body, as bytes; throws when its last chunk is missing. */
export function dechunkBytes(body: Buffer): Buffer {
  const out: Buffer[] = [];
  for (let at = 0; ;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (lineEnd < 0 || Number.isNaN(size)) throw new Error(`not a complete chunked body (at byte ${at})`);
    if (size === 0) return Buffer.concat(out);
    out.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 4 + size;
  }
}
