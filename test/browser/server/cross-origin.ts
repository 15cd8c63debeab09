// Koa middleware for @web/test-runner: starts emulators on their own loopback
// ports, so a test page (served on the runner's origin) calls them
// cross-origin, as the platform's browser SDK calls the real service.
//   GET /__cross__/emulator            an emulator open to any origin
//   GET /__cross__/emulator?restricted  one that allows only http://elsewhere.example
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';

interface KoaContext {
  path: string;
  query: Record<string, string | string[] | undefined>;
  type: string;
  body: unknown;
  status: number;
}
type Next = () => Promise<unknown>;

const started = new Map<string, Promise<{ emulator: Emulator; server: Server; baseUrl: string }>>();

/**
 * Mounted in a plain node:http server (not listen()) so the server can be
 * unref'd and never keeps the runner alive; its URLs come from the address
 * that server accepts connections on.
 */
function start(kind: 'open' | 'restricted') {
  let entry = started.get(kind);
  if (!entry) {
    entry = (async () => {
      const emulator = createEmulator({
        verifyDelay: 150,
        ...(kind === 'restricted' ? { corsOrigins: ['http://elsewhere.example'] } : {}),
      });
      const server = createServer(emulator.listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      server.unref();
      return { emulator, server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
    })();
    started.set(kind, entry);
  }
  return entry;
}

export async function crossOrigin(ctx: KoaContext, next: Next): Promise<unknown> {
  if (ctx.path !== '/__cross__/emulator') return next();
  const { emulator, baseUrl } = await start(ctx.query.restricted !== undefined ? 'restricted' : 'open');
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({ baseUrl, apiKey: emulator.apiKey });
  return undefined;
}
