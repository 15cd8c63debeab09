// The app's connect routes: createConnectHandler behind a CSRF check (as in examples/next and examples/sveltekit).
// readme:start
import { PLATFORM_API_KEY, PLATFORM_BASE_URL, PLATFORM_PROJECT } from 'astro:env/server';
import { createConnectHandler } from 'connect-provider/server';

export const handler = createConnectHandler({
  apiKey: PLATFORM_API_KEY ?? 'dev-api-key', // stays on the server
  baseUrl: PLATFORM_BASE_URL ?? 'http://127.0.0.1:4010/v1',
  project: PLATFORM_PROJECT ?? 'demo',
  // readme:end
  allowDisconnect: true,
  async authorize(request) {
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
    if (sid !== 'demo-session') return null; // 401
    return { groupRef: 'acme', groupName: 'Acme Inc.', consumerRef: 'user-ada', consumerName: 'Ada' };
  },
});

/** The routes, behind a double-submit CSRF check: a request that changes something echoes the csrf cookie. */
export async function connect(request: Request): Promise<Response> {
  const csrf = /(?:^|;\s*)csrf=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  if (request.method !== 'GET' && (!csrf || request.headers.get('x-csrf-token') !== csrf)) {
    return Response.json(
      { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'missing or wrong x-csrf-token header' },
      { status: 403, headers: { 'content-type': 'application/problem+json' } },
    );
  }
  return handler(request);
}
