// Koa middleware for @web/test-runner: serves the real emulator and the real
// connect handler on the test page's own origin, plus fixture routes under
// /__test__/, a fault-injecting front of the handler under /faulty/{seed}/,
// and an observing front under /observe/{tag}/{mode}/ that logs what the
// element sends (by the server's clock) and sees aborts where they happen.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createPlatformClient } from '../../../src/api/index.js';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { ownsPath } from '../../../src/emulator/emulator.js';
import { createConnectHandler, toNodeListener } from '../../../src/server/index.js';
import { sampleConnection } from '../../shared/fixtures.js';
import { seeded } from '../../shared/seeded.js';

interface KoaContext {
  path: string;
  url: string;
  method: string;
  query: Record<string, string | string[] | undefined>;
  req: IncomingMessage;
  res: ServerResponse;
  respond?: boolean;
  origin: string;
  type: string;
  body: unknown;
  status: number;
  set(name: string, value: string): void;
}
type Next = () => Promise<unknown>;

// Created on the first request: the URLs it hands out use the test page's origin (it never reads a Host header itself).
export let emulator: Emulator;

/** The test page's session: its sid cookie. */
const sidOf = (cookie: string | null | undefined) => /(?:^|;\s*)sid=([^;]+)/.exec(cookie ?? '')?.[1];

/**
 * Each test signs in as its own group (cookie sid=<group>), so tests share one
 * emulator without sharing connections. sid "mallory" is a user of group "other".
 */
function authorize(request: Request) {
  const sid = sidOf(request.headers.get('cookie'));
  if (!sid) return null;
  if (sid === 'mallory') return { groupRef: 'other', consumerRef: 'mallory' };
  // sid=<group>~<user>: a coworker, another user of the same group.
  const [group, user = group] = sid.split('~');
  return { groupRef: group, consumerRef: `user-${user}`, consumerName: `User ${user}` };
}

let handler: ReturnType<typeof createConnectHandler> | undefined;
function connectHandler(origin: string) {
  handler ??= createConnectHandler({
    apiKey: emulator.apiKey,
    baseUrl: `${origin}/v1`,
    project: 'demo',
    authorize,
    allowDisconnect: true,
  });
  return handler;
}

/** Hands a request to a Node listener and keeps Koa out of the answer. */
function viaNode(ctx: KoaContext, listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<void> {
  ctx.respond = false;
  return new Promise((resolve) => {
    ctx.res.once('close', resolve);
    ctx.res.once('finish', resolve);
    listener(ctx.req, ctx.res);
  });
}

function json(ctx: KoaContext, body: unknown, status = 200) {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}

/** A request as the server saw it, for tests that observe the element from the other side. */
interface Observed {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: string;
  at: number;
  /** When the client gave up the request before an answer (ms, server clock). */
  abortedAt?: number;
  /** The handler's answer, as the browser got it. */
  answer?: string;
  /** The fault answered in its place: a status, or a dropped socket. */
  fault?: number | 'drop';
}
const observed = new Map<string, Observed[]>();

interface Fault {
  match: RegExp;
  skip: number;
  count: number;
  status: number;
  html: boolean;
  drop: boolean;
  detail?: string;
  type?: string;
  /** Ms to hold a matching request before it goes through (no fault answered). */
  delay: number;
  /** The problem's `retryable`, when given. */
  retryable?: boolean;
}
/** The stale-list front's reads at rest, by tag, each held until the test releases it (/__test__/release-reads). */
const heldReads = new Map<string, Array<() => void>>();
/** Until when (ms) each fault-injection seed's page is offline. */
const faultyOffline = new Map<string, number>();
/** Faults set by /__test__/fault, by tag. */
const faults = new Map<string, Fault[]>();

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Calls the real handler with a fetch Request built from the Koa context (body already read). */
async function callHandler(ctx: KoaContext, body: string, path = ctx.path): Promise<Response> {
  const query = ctx.url.includes('?') ? ctx.url.slice(ctx.url.indexOf('?')) : '';
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) if (typeof value === 'string') headers.set(name, value);
  const method = ctx.method;
  return connectHandler(ctx.origin)(
    new Request(`${ctx.origin}${path}${query}`, { method, headers, body: method === 'GET' ? null : body }),
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixtures rewrite any JSON answer
async function relay(ctx: KoaContext, response: Response, rewrite?: (json: any) => unknown): Promise<void> {
  ctx.status = response.status;
  const type = response.headers.get('content-type') ?? 'application/json';
  let text = await response.text();
  if (rewrite && response.ok) text = JSON.stringify(rewrite(JSON.parse(text)));
  ctx.set('content-type', type);
  ctx.body = text;
}

/** The newest consent session of a group not yet decided: what its popup shows. */
function openConsent(group: string) {
  return emulator.state.consents.filter((s) => s.groupRef === group && !s.decision).at(-1);
}

const faultRandom = new Map<string, () => number>();
/**
 * The times of the requests to /fixture/pending, by the asking page's session (its sid cookie): the browsers run at
 * once against this one server, so each test counts its own page's requests only.
 */
const pendingPolls = new Map<string, number[]>();
const sessionOf = (ctx: KoaContext) => sidOf(ctx.req.headers.cookie) ?? '';
const PENDING_CONNECTION = sampleConnection({ id: 'conn_pending', provider: 'slack', status: 'created' });

/** Drives the emulator's consent page as a user would, server-side, to seed a connection. */
async function seedConnection(
  origin: string,
  group: string,
  provider: string,
  decision: string,
  consumer = group,
  workspace?: string,
): Promise<string> {
  const client = createPlatformClient({ baseUrl: `${origin}/v1`, apiKey: emulator.apiKey });
  const url = await client.oauthConnect({
    projectId: 'demo',
    provider,
    groupRef: group,
    consumerRef: `user-${consumer}`,
    ...(workspace ? { providerWorkspaceRef: workspace } : {}),
  });
  const id = /\/consent\/([^/?]+)/.exec(url)![1];
  const post = await emulator.handle(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `decision=${decision}`,
    }),
  );
  if (post.status !== 303) throw new Error(`consent failed: ${post.status}`);
  const session = emulator.state.consents.find((s) => s.id === id)!;
  // Wait for the verification to settle, as the platform would.
  for (;;) {
    const connection = await client.getConnection({
      projectIdOrName: 'demo',
      connectionId: session.resultConnectionId!,
    });
    if (connection.status !== 'created') return connection.id;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function testMiddleware(ctx: KoaContext, next: Next): Promise<unknown> {
  emulator ??= createEmulator({ verifyDelay: 150, publicUrl: ctx.origin });
  const path = ctx.path;
  if (path === '/__test__/ping') return json(ctx, { ok: true });
  if (path === '/__test__/config') {
    return json(ctx, {
      faultSeed: process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : null,
      faultRuns: process.env.FAULT_RUNS ? Number(process.env.FAULT_RUNS) : null,
    });
  }
  if (path === '/__test__/consent-url') {
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
    return json(ctx, { url });
  }
  if (path === '/__test__/seed-connection') {
    const id = await seedConnection(
      ctx.origin,
      String(ctx.query.group),
      String(ctx.query.provider ?? 'hubspot'),
      String(ctx.query.decision ?? 'allow_bad_credentials'),
      typeof ctx.query.consumer === 'string' ? ctx.query.consumer : undefined,
      typeof ctx.query.workspace === 'string' ? ctx.query.workspace : undefined,
    );
    return json(ctx, { connectionId: id });
  }
  if (path === '/__test__/callback') {
    const message = JSON.stringify({
      eventType: 'AUTHORIZATION_SUCCEEDED',
      data: { connection: String(ctx.query.connection) },
    });
    ctx.type = 'text/html';
    ctx.body = `<!doctype html><p>done</p><script>window.opener && window.opener.postMessage(${message.replace(/</g, '\\u003c')}, '*'); window.close();</script>`;
    return;
  }
  if (path === '/__test__/silent-consent') {
    const client = createPlatformClient({ baseUrl: `${ctx.origin}/v1`, apiKey: emulator.apiKey });
    const url = await client.oauthUpdate({ projectIdOrName: 'demo', connectionId: String(ctx.query.id) });
    const answer = await emulator.handle(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=allow',
      }),
    );
    ctx.type = 'text/html';
    ctx.body = `<!doctype html><p>consent ${answer.status}</p><script>setTimeout(() => window.close(), 100)</script>`;
    return;
  }
  if (path === '/__test__/decide') {
    // Answers the consent a (severed) popup shows, as the user would there, from the server side.
    const session = openConsent(String(ctx.query.group));
    if (!session) return json(ctx, { title: 'no open consent' }, 404);
    const answer = await emulator.handle(
      new Request(`${ctx.origin}/consent/${session.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `decision=${String(ctx.query.decision ?? 'allow')}`,
      }),
    );
    return json(ctx, { status: answer.status, connectionId: session.resultConnectionId ?? null });
  }
  if (path === '/__test__/open-consent') {
    const session = openConsent(String(ctx.query.group));
    return json(ctx, { open: !!session });
  }
  if (path === '/__test__/faulty-offline') {
    // The page of a fault-injection seed goes offline for `ms`: its requests are dropped meanwhile.
    faultyOffline.set(String(ctx.query.seed), Date.now() + Number(ctx.query.ms));
    return json(ctx, { ok: true });
  }
  if (path === '/__test__/log') return json(ctx, observed.get(String(ctx.query.tag)) ?? []);
  if (path === '/__test__/fault') {
    // A fault for the observed front of one tag: the requests matching `match` (a regular expression over
    // "METHOD /api/connect/path?query"), after `skip` of them pass, get `status` (as a proxy's HTML page with
    // html=1, else a JSON problem with `detail`, `type`) `count` times, a dropped socket with drop=1, or are
    // answered `delay` ms late.
    // Without `match`, the tag's faults are cleared.
    const q = ctx.query as Record<string, string | undefined>;
    const tag = String(q.tag);
    if (!q.match) faults.delete(tag);
    else
      faults.set(tag, [
        ...(faults.get(tag) ?? []),
        {
          match: new RegExp(q.match),
          skip: Number(q.skip ?? 0),
          count: Number(q.count ?? 1),
          status: Number(q.status ?? 502),
          html: q.html === '1',
          drop: q.drop === '1',
          detail: q.detail,
          type: q.type,
          delay: Number(q.delay ?? 0),
          retryable: q.retryable === undefined ? undefined : q.retryable === '1',
        },
      ]);
    return json(ctx, { ok: true });
  }
  if (path === '/__test__/post-failure') {
    // A callback page that reports a failure in the older form (data.message).
    ctx.type = 'text/html';
    ctx.body = `<!doctype html><script>setTimeout(() => window.opener.postMessage({ eventType: 'AUTHORIZATION_FAILED', data: { message: 'old form' } }, '*'), 1000)</script>`;
    return;
  }
  if (path === '/__test__/close-soon') {
    ctx.type = 'text/html';
    ctx.body = '<!doctype html><p>signing in</p><script>setTimeout(() => window.close(), 100)</script>';
    return;
  }
  if (path === '/__test__/pending-polls') {
    const session = sessionOf(ctx);
    const polls = pendingPolls.get(session) ?? [];
    pendingPolls.delete(session);
    return json(ctx, polls);
  }
  if (path === '/__test__/release-reads') {
    // Lets the stale-list front's held reads of a tag answer: how many there were.
    const tag = String(ctx.query.tag);
    const held = heldReads.get(tag) ?? [];
    heldReads.delete(tag);
    for (const release of held) release();
    return json(ctx, held.length);
  }
  if (path === '/__test__/platform-holds') {
    // How many of the platform's connections hold this text anywhere (their credentials included).
    const text = String(ctx.query.text);
    return json(ctx, emulator.state.connections.filter((c) => JSON.stringify(c).includes(text)).length);
  }
  if (path === '/__test__/connection') {
    const connection = emulator.state.connections.find((c) => c.id === ctx.query.id);
    return json(
      ctx,
      connection ? { status: connection.status, pending: connection.pending ?? null } : null,
      connection ? 200 : 404,
    );
  }

  // Fixed answers from a "backend" that misbehaves in one precise way.
  const fixture = /^\/fixture\/([\w-]+)\/(.*)$/.exec(path);
  if (fixture) {
    const [, kind] = fixture;
    if (kind === 'http-url')
      return json(ctx, { url: 'http://evil.example/consent', messageOrigin: 'http://evil.example' });
    if (kind === 'no-url') return json(ctx, { messageOrigin: 'https://x.example' });
    if (kind === 'bare-url') return json(ctx, 'https://127.0.0.1:1/never');
    if (kind === 'loopback-url') return json(ctx, { url: 'http://localhost:1/consent' });
    if (kind === 'old-failure')
      return json(ctx, { url: `${ctx.origin}/__test__/post-failure`, messageOrigin: 'https://platform.example' });
    if (kind === 'coop') {
      // The real handler, whose consent pages answer with Cross-Origin-Opener-Policy: same-origin, like
      // many providers' sign-in pages: the popup is severed from the page (popup.closed reads true, no message).
      const body = ctx.method === 'GET' ? '' : await readBody(ctx.req);
      const response = await callHandler(ctx, body, path.replace(/^\/fixture\/coop/, '/api/connect'));
      const asksUrl = /\/oauth-connect$|:oauth-update$/.test(path);
      return relay(ctx, response, asksUrl ? (answer) => ({ ...answer, url: `${answer.url}?coop=1` }) : undefined);
    }
    if (kind === 'down')
      return json(ctx, { type: 'about:blank', title: 'Service Unavailable', status: 503, retryable: true }, 503);
    if (kind === 'refused') {
      ctx.set('content-type', 'application/problem+json');
      return json(ctx, { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'not for you' }, 403);
    }
    if (kind === 'silent') {
      // Like a provider page with Cross-Origin-Opener-Policy: the consent happens, but the
      // popup never posts its message. oauth-update sends the popup to a page that answers
      // the emulator's consent server-side and closes; reading the connection is the real handler's.
      const update = /\/connections\/([^/]+):oauth-update$/.exec(path);
      if (update)
        return json(ctx, { url: `${ctx.origin}/__test__/silent-consent?id=${update[1]}`, messageOrigin: ctx.origin });
      return viaNode(ctx, toNodeListener(connectHandler(ctx.origin)));
    }
    if (kind === 'pending') {
      // A platform whose connection stays `created`: the callback page posts success, polling never ends.
      if (path.endsWith('/oauth-connect'))
        return json(ctx, { url: `${ctx.origin}/__test__/callback?connection=conn_pending`, messageOrigin: ctx.origin });
      const session = sessionOf(ctx);
      pendingPolls.set(session, [...(pendingPolls.get(session) ?? []), Date.now()]);
      return json(ctx, { ...PENDING_CONNECTION, updateTime: new Date().toISOString() });
    }
    if (kind === 'pending-severed') {
      // A popup that closes without a message (severed), and a backend whose list then shows a connection
      // that stays `created`: the element finds it, and verifies it for as long as it takes.
      if (path.endsWith('/oauth-connect'))
        return json(ctx, { url: `${ctx.origin}/__test__/close-soon`, messageOrigin: ctx.origin });
      const connection = { ...PENDING_CONNECTION, updateTime: new Date().toISOString() };
      // At rest (the list without provider) the caller has none yet.
      if (/\/connections\/?$/.test(path)) return json(ctx, ctx.query.provider ? [connection] : []);
      return json(ctx, connection);
    }
    if (kind === 'icons') {
      // A backend whose provider info carries the icon URL the test names in the endpoint
      // (/fixture/icons/{encoded icon URL}), for the element's URL rule.
      const named = /^\/fixture\/icons\/([^/]+)\/providers\/([\w-]+)$/.exec(path);
      if (named) {
        const icon = decodeURIComponent(named[1]);
        return json(ctx, {
          name: named[2],
          displayName: 'Icon Test',
          media: { regular: { iconURL: icon }, darkMode: { iconURL: icon } },
        });
      }
      return json(ctx, []);
    }
    if (kind === 'hang') {
      await new Promise((r) => setTimeout(r, 30000));
      return json(ctx, {});
    }
    return json(ctx, { title: 'unknown fixture' }, 404);
  }

  // A front of the real handler that fails at random, from a seed.
  const faulty = /^\/faulty\/(\d+)(\/api\/connect\/.*)$/.exec(path);
  if (faulty) {
    const seed = faulty[1];
    if (!faultRandom.has(seed)) faultRandom.set(seed, seeded(Number(seed)));
    const random = faultRandom.get(seed)!;
    const roll = random();
    const delay = Math.floor(random() * 120);
    await new Promise((r) => setTimeout(r, delay));
    // An offline period of the page (/__test__/faulty-offline): nothing reaches the backend.
    if (roll < 0.08 || Date.now() < (faultyOffline.get(seed) ?? 0)) {
      ctx.req.socket.destroy();
      ctx.respond = false;
      return;
    }
    if (roll < 0.16) return json(ctx, { type: 'about:blank', title: 'Internal Server Error', status: 500 }, 500);
    if (roll < 0.24)
      return json(ctx, { type: 'about:blank', title: 'Service Unavailable', status: 503, retryable: true }, 503);
    if (roll < 0.3) {
      const retryAfter = new Date(Date.now() + 40).toISOString();
      return json(ctx, { type: 'about:blank', title: 'Too Many Requests', status: 429, retryAfter }, 429);
    }
    if (roll < 0.35) {
      // A proxy in front of the backend answers its own HTML error page.
      ctx.status = 502;
      ctx.type = 'text/html';
      ctx.body = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';
      return;
    }
    // The handler matches the end of the path, so it serves under this prefix as it is.
    return viaNode(ctx, toNodeListener(connectHandler(ctx.origin)));
  }

  // A front of the real handler that logs every request; {mode} makes it misbehave in one way.
  const observe = /^\/observe\/([\w-]+)\/([\w-]+)(\/api\/connect\/.*)$/.exec(path);
  if (observe) {
    const [, tag, mode, rest] = observe;
    const body = ctx.method === 'GET' ? '' : await readBody(ctx.req);
    const log = observed.get(tag) ?? [];
    observed.set(tag, log);
    const h = ctx.req.headers;
    const entry: Observed = {
      method: ctx.method,
      path: rest + (ctx.url.includes('?') ? ctx.url.slice(ctx.url.indexOf('?')) : ''),
      headers: { 'x-csrf-token': h['x-csrf-token'] as string | undefined, 'content-type': h['content-type'] },
      body,
      at: Date.now(),
    };
    log.push(entry);
    const fault = (faults.get(tag) ?? []).find((f) => f.match.test(`${ctx.method} ${entry.path}`) && f.count > 0);
    if (fault && fault.skip-- <= 0 && fault.delay) {
      // A slow answer: the request waits, then goes through.
      fault.count--;
      await new Promise((resolve) => setTimeout(resolve, fault.delay));
    } else if (fault && fault.skip < 0) {
      fault.count--;
      entry.fault = fault.drop ? 'drop' : fault.status;
      if (fault.drop) {
        ctx.respond = false;
        ctx.req.socket.destroy();
        return;
      }
      ctx.status = fault.status;
      if (fault.html) {
        // nginx's own error page, as a proxy in front of the backend answers it.
        ctx.type = 'text/html';
        ctx.body = `<html>\r\n<head><title>${fault.status} Bad Gateway</title></head>\r\n<body>\r\n<center><h1>${fault.status} Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
      } else {
        ctx.type = 'application/problem+json';
        ctx.body = JSON.stringify({
          type: fault.type ?? 'about:blank',
          title: 'Fault',
          status: fault.status,
          detail: fault.detail,
          retryable: fault.retryable,
        });
      }
      return;
    }
    // The misbehaving modes answer oauth-connect (the first request that matters) and let the rest through.
    const posts = log.filter((r) => r.method === 'POST').length;
    const post = ctx.method === 'POST';
    if (mode === 'hang') {
      ctx.respond = false;
      ctx.res.on('close', () => {
        if (!ctx.res.writableFinished) entry.abortedAt = Date.now();
      });
      // Never answers in time; ends after 20 s so nothing is left behind.
      setTimeout(() => ctx.res.writableEnded || ctx.res.end(), 20000).unref();
      return;
    }
    if (mode === 'retry429' && post && posts <= 2) {
      ctx.set('retry-after', '1');
      return json(ctx, { type: 'about:blank', title: 'Too Many Requests', status: 429 }, 429);
    }
    if (mode === 'nolist' && /\/connections\/?$/.test(rest))
      return json(ctx, { type: 'about:blank', title: 'Not Found', status: 404 }, 404);
    if (mode === 'retry503' && post && posts <= 3)
      return json(ctx, { type: 'about:blank', title: 'Service Unavailable', status: 503 }, 503);
    if (mode === 'slow-provider' && /\/providers\//.test(rest)) {
      // The provider's name and icon arrive a second after the element showed its button.
      await new Promise((r) => setTimeout(r, 1000));
      return relay(ctx, await callHandler(ctx, body, rest));
    }
    if (mode === 'stale-list' && ctx.method === 'GET' && /\/connections\/?$/.test(rest) && !ctx.query.provider) {
      // The read at rest is answered as the platform stood when it was asked, once the test releases it: a flow or a
      // disconnect ends in between, and the answer arrives stale. (Released after 20 s at most: nothing left behind.)
      const answer = await callHandler(ctx, body, rest);
      await new Promise<void>((release) => {
        heldReads.set(tag, [...(heldReads.get(tag) ?? []), release]);
        setTimeout(release, 20000).unref();
      });
      return relay(ctx, answer);
    }
    if (mode === 'select' && /\/providers\/clariCopilot$/.test(rest)) {
      // Clari Copilot's API key as a choice of two (no catalog provider has a select input yet).
      return relay(ctx, await callHandler(ctx, body, rest), (info) => {
        info.customOpts.inputs[0] = {
          ...info.customOpts.inputs[0],
          fieldType: 'fieldTypeSelect',
          options: [
            { value: 'key-eu', label: 'Europe' },
            { value: 'key-us', label: 'United States' },
          ],
        };
        return info;
      });
    }
    if (mode === 'jwt' && /\/providers\/slack$/.test(rest))
      // Slack as a provider that signs in with jwt (the catalog has none), a scheme the element cannot sign in with.
      return relay(ctx, await callHandler(ctx, body, rest), (info) => ({
        ...info,
        authType: 'jwt',
        oauth2Opts: undefined,
      }));
    const sendsCredential = /\/connections(\/[^/]+)?$/.test(rest) && (post || ctx.method === 'PATCH');
    if (mode === 'refuse-secret' && sendsCredential)
      // The handler's refusal of one credential field, named as it names it: a rule the element cannot check first.
      return json(
        ctx,
        {
          type: 'about:blank',
          title: 'Invalid request',
          status: 400,
          detail: 'oauth2ClientCredentials.clientSecret is required: a non-blank string',
          issues: [
            { detail: 'is required: a non-blank string', in: 'body', name: 'oauth2ClientCredentials.clientSecret' },
          ],
        },
        400,
      );
    if (mode === 'too-large' && sendsCredential)
      return json(ctx, { type: 'about:blank', title: 'Content Too Large', status: 413 }, 413);
    if (mode === 'slow-form' && sendsCredential) {
      // The credential reaches the platform 1.5 s after it was sent, whether the browser still waits or not.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return relay(ctx, await callHandler(ctx, body, rest));
    }
    if (mode === 'html') {
      ctx.type = 'text/html';
      ctx.body = '<!doctype html><title>app</title>';
      return;
    }
    if (mode === 'nointegrations' && /\/integrations$/.test(rest)) {
      // A hand-written backend without the integrations route.
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not Found';
      return;
    }
    const integrationReads = log.filter((r) => /\/integrations$/.test(r.path)).length;
    if (mode === 'nointegrations-json' && /\/integrations$/.test(rest))
      // A connect backend of an older version: its unknown route is a JSON problem.
      return json(ctx, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such connect route' }, 404);
    if (mode === 'integrations-503-once' && /\/integrations$/.test(rest) && integrationReads === 1)
      // A failure that passes, once.
      return json(ctx, { type: 'about:blank', title: 'Service Unavailable', status: 503 }, 503);
    if (mode === 'integrations-fail-later' && /\/integrations$/.test(rest) && integrationReads > 1)
      // The first read passes; every later one fails for good.
      return json(ctx, { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'not now' }, 400);
    if (
      mode === 'integrations-fail-once' &&
      /\/integrations$/.test(rest) &&
      log.filter((r) => /\/integrations$/.test(r.path)).length === 1
    )
      // The first read of the list fails for good (a non-retryable problem); the next one passes.
      return json(ctx, { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'not now' }, 400);
    if (mode === 'missing') {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not Found';
      return;
    }
    const answer = await callHandler(ctx, body, rest);
    entry.answer = await answer.clone().text();
    return relay(ctx, answer);
  }

  if (path.startsWith('/api/connect/')) return viaNode(ctx, toNodeListener(connectHandler(ctx.origin)));
  if (ownsPath(path)) {
    if (path.startsWith('/consent/') && ctx.query.coop) ctx.res.setHeader('cross-origin-opener-policy', 'same-origin');
    return viaNode(ctx, emulator.listener);
  }
  return next();
}
