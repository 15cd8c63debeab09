// The app's connect routes: createConnectHandler behind a CSRF check. $lib/server: never sent to the browser.
// readme:start
import { env } from '$env/dynamic/private';
import { createConnectHandler } from 'connect-provider/server';
// readme:end

// readme:start
// Your app's own sessions (here a map keyed by a cookie; yours is a database or a JWT).
const sessions = new Map([
  ['demo-session', { teamId: 'acme', teamName: 'Acme Inc.', userId: 'user-ada', userName: 'Ada' }],
]);

/** A cookie of the request, or undefined. */
function cookie(request: Request, name: string): string | undefined {
  return new RegExp(`(?:^|;\\s*)${name}=([^;]+)`).exec(request.headers.get('cookie') ?? '')?.[1];
}

export const handler = createConnectHandler({
  apiKey: env.PLATFORM_API_KEY ?? 'dev-api-key', // stays on the server
  baseUrl: env.PLATFORM_BASE_URL ?? 'http://127.0.0.1:4010/v1',
  project: env.PLATFORM_PROJECT ?? 'demo',
  allowDisconnect: true,
  async authorize(request) {
    const sid = cookie(request, 'sid');
    const user = sid ? sessions.get(sid) : undefined;
    if (!user) return null; // 401
    return { groupRef: user.teamId, groupName: user.teamName, consumerRef: user.userId, consumerName: user.userName };
  },
});
// readme:end

/** The routes, behind a double-submit CSRF check: a request that changes something echoes the csrf cookie. */
export async function connect(request: Request): Promise<Response> {
  const csrf = cookie(request, 'csrf');
  if (request.method !== 'GET' && (!csrf || request.headers.get('x-csrf-token') !== csrf)) {
    return Response.json(
      { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'missing or wrong x-csrf-token header' },
      { status: 403, headers: { 'content-type': 'application/problem+json' } },
    );
  }
  return handler(request);
}
