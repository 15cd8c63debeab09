// Koa middleware for @web/test-runner: serves the real emulator (and, later,
// the real connect handler) on the test page's own origin, plus a few
// fixture routes under /__test__/.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPlatformClient } from '../../../src/api/index.js';
import { createEmulator, ownsPath } from '../../../src/emulator/index.js';

interface KoaContext {
  path: string;
  query: Record<string, string | string[] | undefined>;
  req: IncomingMessage;
  res: ServerResponse;
  respond?: boolean;
  origin: string;
  type: string;
  body: unknown;
  status: number;
}
type Next = () => Promise<unknown>;

export const emulator = createEmulator({ verifyDelay: 300 });

/** Hands a request to a Node listener and keeps Koa out of the answer. */
function viaNode(ctx: KoaContext, listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<void> {
  ctx.respond = false;
  return new Promise((resolve) => {
    ctx.res.once('close', resolve);
    ctx.res.once('finish', resolve);
    listener(ctx.req, ctx.res);
  });
}

export async function testMiddleware(ctx: KoaContext, next: Next): Promise<unknown> {
  if (ctx.path === '/__test__/ping') {
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ ok: true });
    return;
  }
  if (ctx.path === '/__test__/consent-url') {
    // Server-side, as a host backend would: the API key never reaches the page.
    const client = createPlatformClient({ baseUrl: `${ctx.origin}/v1`, apiKey: emulator.apiKey });
    const connectionId = typeof ctx.query.connectionId === 'string' ? ctx.query.connectionId : undefined;
    const url = connectionId
      ? await client.oauthUpdate({ projectIdOrName: 'demo', connectionId })
      : await client.oauthConnect({
          projectId: 'proj_demo',
          provider: String(ctx.query.provider ?? 'salesforce'),
          groupRef: 'acme',
          consumerRef: 'browser-test',
        });
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ url });
    return;
  }
  if (ownsPath(ctx.path)) return viaNode(ctx, emulator.listener);
  return next();
}
