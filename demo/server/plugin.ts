// The demo's backend, inside Vite's dev server: the platform emulator on its
// own port (so the popup is cross-origin, as with the real service), the
// connect handler at /api/connect (with disconnect allowed: the settings
// pages offer it), and a pretend sign-in at /api/session. At start the
// emulator gets a working Slack connection for Ada (group acme), made through
// its own API and consent page, beside the seed's HubSpot conn_demo in
// bad_credentials. With PLATFORM_API_KEY set, the handler targets the real
// platform instead, and nothing is seeded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin, ViteDevServer } from 'vite';
import { createPlatformClient } from '../../src/api/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { createConnectHandler, toNodeListener, type ConnectUser } from '../../src/server/index.js';

/** The two signed-in users the demo switches between. */
export const USERS: Record<string, ConnectUser & { label: string }> = {
  ada: {
    label: 'Ada Lovelace (Acme Inc.)',
    groupRef: 'acme',
    groupName: 'Acme Inc.',
    consumerRef: 'user-ada',
    consumerName: 'Ada Lovelace',
  },
  otto: {
    label: 'Otto Other (Other Corp)',
    groupRef: 'other',
    groupName: 'Other Corp',
    consumerRef: 'user-otto',
    consumerName: 'Otto Other',
  },
};

/**
 * Connects `provider` for `user` the way a person would, through the emulator's own API: oauth-connect gives the
 * consent link, and the consent page's form answers Allow. The connection reads `working` after the verify delay.
 */
async function connectThroughConsent(baseUrl: string, apiKey: string, user: ConnectUser, provider: string) {
  const platform = createPlatformClient({ baseUrl, apiKey });
  const consent = await platform.oauthConnect({
    projectId: 'demo',
    provider,
    groupRef: user.groupRef,
    groupName: user.groupName,
    consumerRef: user.consumerRef,
    consumerName: user.consumerName,
  });
  const answer = await fetch(consent, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=allow',
    redirect: 'manual',
  });
  if (answer.status !== 303) throw new Error(`the emulator's consent page answered ${answer.status}`);
}

/** Chosen in the switch: nobody is signed in, and the connect routes answer 401 (the list shows its signed-out state). */
const SIGNED_OUT = 'out';

function userOf(cookie: string | null | undefined): string {
  const id = /(?:^|;\s*)demo_user=(\w+)/.exec(cookie ?? '')?.[1];
  return id && (id in USERS || id === SIGNED_OUT) ? id : 'ada';
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

export interface DemoOptions {
  /** Port of the embedded emulator (default 4010; 0 picks a free one; taken means a free one). */
  emulatorPort?: number;
  /** Verify delay of the embedded emulator in ms (default 1500). */
  verifyDelay?: number;
}

export function connectDemo(options: DemoOptions = {}): Plugin {
  let emulator: Emulator | undefined;
  return {
    name: 'connect-provider-demo',
    async configureServer(server: ViteDevServer) {
      const real = process.env.PLATFORM_API_KEY;
      let baseUrl: string;
      let project: string;
      let apiKey: string;
      if (real) {
        baseUrl = process.env.PLATFORM_BASE_URL ?? '';
        project = process.env.PLATFORM_PROJECT ?? '';
        if (!baseUrl || !project)
          throw new Error('with PLATFORM_API_KEY, set PLATFORM_BASE_URL (ending in /v1) and PLATFORM_PROJECT too');
        apiKey = real;
      } else {
        emulator = createEmulator({ verifyDelay: options.verifyDelay ?? 1500 });
        const port = options.emulatorPort ?? 4010;
        const info = await emulator.listen(port).catch(() => emulator!.listen(0));
        baseUrl = info.baseUrl;
        project = 'demo';
        apiKey = emulator.apiKey;
        await connectThroughConsent(baseUrl, apiKey, USERS.ada, 'slack');
        server.httpServer?.once('close', () => void emulator?.close());
      }
      const platform = real
        ? `the real platform at ${new URL(baseUrl).origin}`
        : `the embedded emulator at ${new URL(baseUrl).origin}`;
      const handler = createConnectHandler({
        apiKey,
        baseUrl,
        project,
        allowDisconnect: true,
        authorize: (request) => USERS[userOf(request.headers.get('cookie'))] ?? null,
      });
      const connect = toNodeListener(handler);

      server.middlewares.use('/api/connect', (req, res, next) => connect(req, res, next));
      server.middlewares.use('/api/session', (req: IncomingMessage, res: ServerResponse) => {
        if (req.method === 'POST') {
          const user = new URL(req.url ?? '/', 'http://x').searchParams.get('user') ?? '';
          if (!(user in USERS) && user !== SIGNED_OUT)
            return sendJson(res, 400, {
              type: 'about:blank',
              title: 'Bad Request',
              status: 400,
              detail: 'unknown user',
            });
          return sendJson(res, 200, { user }, { 'set-cookie': `demo_user=${user}; Path=/; SameSite=Lax; HttpOnly` });
        }
        const user = userOf(req.headers.cookie);
        sendJson(res, 200, {
          user,
          users: {
            ...Object.fromEntries(Object.entries(USERS).map(([id, u]) => [id, u.label])),
            [SIGNED_OUT]: 'Nobody (signed out)',
          },
          platform,
        });
      });
      server.httpServer?.once('listening', () => {
        setTimeout(
          () =>
            server.config.logger.info(
              `  platform: ${platform}${real ? '' : ` (API key ${apiKey}, seed project "demo"; Ada's Slack connected)`}`,
            ),
          50,
        );
      });
    },
  };
}
