// createEmulator: a local implementation of the platform, as a Web-standard
// handler, a Node listener (node:http, Connect, Vite) and a server it can
// start itself. This module wires the pieces: the state and its file, the
// request pipeline (CORS, the route table of routes.ts, the one error handler
// of error-handler.ts) and the server; each concern lives in its own module.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpProblem, pathnameOf } from '../http/http-problem.js';
import { toNodeListener, type NodeListener } from '../http/node.js';
import { createAuth, type TokenRequest } from './auth.js';
import type { Env } from './context.js';
import { addCorsHeaders, describeCors, emulatorPreflight } from './cors.js';
import { createDispatch } from './dispatch.js';
import { loadContract } from './openapi.js';
import { isMediaPath } from './media.js';
import { resolveEmulatorOptions, type EmulatorOptions } from './options.js';
import { errorResponse, problemOf } from './error-handler.js';
import { findEmulatorRoute } from './routes.js';
import { checkHostPolicy } from './hosts.js';
import { openDurableState, type Reservation } from './durable.js';
import { LIMITS } from './limits.js';
import type { EmulatorState } from './state.js';

export interface ListenInfo {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** e.g. http://127.0.0.1:4010/v1 */
  baseUrl: string;
  /** e.g. http://127.0.0.1:4010/search/v1 */
  searchUrl: string;
}

export interface Emulator {
  /** Answers one request (Web-standard). */
  handle(request: Request): Promise<Response>;
  /** The same as a Node listener / Connect middleware: requests it does not serve go to next(). */
  listener: NodeListener;
  /** Starts an HTTP server (default 127.0.0.1 and a free port). */
  listen(port?: number, host?: string): Promise<ListenInfo>;
  /** Stops the server started by listen(), if any, and waits for the data file's last write. */
  close(): Promise<void>;
  /** The API key X-Api-Key must carry. */
  readonly apiKey: string;
  /**
   * The origins CORS answers, as the start banner says them: '*' (any), the listed origins joined by ', ', or, by
   * default with the default key, a text starting 'loopback only'.
   */
  readonly corsOrigins: string;
  /** A Bearer token for org_demo, valid for 30 days. */
  readonly bearerToken: string;
  /** Issues a Bearer JWT (HS256) that the emulator accepts. */
  issueToken(claims?: TokenRequest): string;
  /** The live state (read it in tests; change it only through the API). */
  readonly state: EmulatorState;
  /** Where listen() serves, once started. */
  readonly info: ListenInfo | undefined;
  /** Resolves once every change so far is in the data file (at once without one). */
  flush(): Promise<void>;
}

/** Path prefixes the emulator serves; the Node listener passes anything else to next(). */
const OWN_PATHS = ['/v1/', '/search/v1/', '/consent/'];

export function ownsPath(pathname: string): boolean {
  return (
    OWN_PATHS.some((p) => pathname.startsWith(p)) ||
    pathname === '/v1' ||
    pathname === '/search/v1' ||
    pathname === '/oauth/callback' ||
    isMediaPath(pathname)
  );
}

function originOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const { apiKey, verifyDelayMs, urlFormat, bodyLimit, bodyDeadlineMs, now, publicUrl, cors, hosts } =
    resolveEmulatorOptions(options);
  const contract = loadContract();
  const durable = openDurableState(options.dataFile);
  const { state } = durable;
  const auth = createAuth({ apiKey, secret: options.jwtSecret ?? state.tokenSecret, now });
  const dispatch = createDispatch({ contract, auth, bodyLimit, bodyDeadlineMs, urlFormat });

  let server: Server | undefined;
  let info: ListenInfo | undefined;
  let unspecifiedHost = false;

  /** The origin to hand out in URLs; `arrived` is the one the Node listener's socket reached, when there is one. */
  function publicOrigin(request: Request, arrived: string | undefined): string {
    // Listening on every address (0.0.0.0, ::), the address this connection reached is the one to hand out.
    // Last, for handle() called directly with a Request its caller built: that Request's origin.
    const listening = info && !unspecifiedHost ? info.url : undefined;
    return publicUrl ?? listening ?? arrived ?? new URL(request.url).origin;
  }

  async function routeRequest(request: Request, env: () => Env): Promise<Response> {
    checkHostPolicy(request, hosts);
    const preflightAnswer = emulatorPreflight(request, cors);
    if (preflightAnswer) return preflightAnswer;
    const path = pathnameOf(request);
    // Only a Request-like object that is no Request has a URL that does not parse.
    if (path === undefined) throw new HttpProblem({ status: 400, detail: 'the request URL is not an absolute URL' });
    const { route, match } = findEmulatorRoute(request.method, path);
    return route.serve(request, match, { dispatch, env });
  }

  /** Answers one request; `arrived` as for publicOrigin. */
  async function serveRequest(request: Request, arrived?: string): Promise<Response> {
    const requestId = randomUUID();
    const origin = () => publicOrigin(request, arrived);
    // A change this request made is saved before it is answered.
    let changed = false;
    // Room this request took in the data file, given back when it made no change after all.
    const reservations: Reservation[] = [];
    const releaseUnused = () => {
      if (!changed) for (const r of reservations.splice(0)) r.release();
    };
    const room = (bytes: number) => {
      const reservation = durable.reserve(bytes);
      if (reservation) {
        reservations.push(reservation);
        return;
      }
      // Expired consent links take room in vain: forgotten now (saved with this answer), so a retry may fit.
      const nowMs = now().getTime();
      const live = state.consents.filter((s) => Date.parse(s.expiresAt) > nowMs);
      const forgot = live.length < state.consents.length;
      if (forgot) {
        state.consents = live;
        changed = true;
      }
      throw new HttpProblem(
        {
          status: 429,
          detail: `the data file holds ${durable.size} bytes, and this change might take it past its most (${LIMITS.dataFileBytes} bytes); delete some connections first`,
          ...(forgot ? { retryable: true } : {}),
        },
        forgot ? { 'retry-after': '1' } : {},
      );
    };
    const saveChange = async () => {
      if (!changed) return;
      changed = false;
      await durable.save();
    };
    const env = (): Env => ({
      state,
      now: now(),
      clock: now,
      publicOrigin: origin(),
      verifyDelayMs,
      bodyDeadlineMs,
      changed: () => void (changed = true),
      room,
    });
    let response: Response;
    try {
      response = await routeRequest(request, env);
      releaseUnused();
      await saveChange();
    } catch (error) {
      releaseUnused();
      // A change made before a refusal is saved too, though its answer claims none.
      await saveChange().catch(() => {});
      response = errorResponse(problemOf(error, request), request, pathnameOf(request), {
        publicOrigin: origin,
        now,
        requestId,
      });
    }
    response.headers.set('x-request-id', requestId);
    // No browser guesses another type than the one declared, whatever the answer (JSON, problem, page, redirect).
    response.headers.set('x-content-type-options', 'nosniff');
    return addCorsHeaders(request, response, cors);
  }

  // Mounted in another server, the emulator's address is the one that server accepted the connection on.
  const listener: NodeListener = toNodeListener(
    (request, incoming) => {
      const { localAddress, localPort } = incoming?.socket ?? {};
      const arrived = localAddress && localPort ? originOf(localAddress.replace(/^::ffff:/, ''), localPort) : undefined;
      return serveRequest(request, arrived);
    },
    { serves: ownsPath },
  );

  return {
    handle: (request) => serveRequest(request),
    listener,
    get state() {
      return state;
    },
    get info() {
      return info;
    },
    apiKey,
    corsOrigins: describeCors(cors),
    bearerToken: auth.issueToken(),
    issueToken: auth.issueToken,
    flush: durable.flush,
    async listen(port = 0, host = '127.0.0.1') {
      if (server) throw new Error('connect-provider emulator: already listening');
      server = createServer(listener);
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, host, () => resolve());
      });
      const address = server.address() as AddressInfo;
      unspecifiedHost = address.address === '0.0.0.0' || address.address === '::';
      const url = originOf(address.address, address.port);
      info = { url, baseUrl: `${url}/v1`, searchUrl: `${url}/search/v1` };
      return info;
    },
    async close() {
      const s = server;
      server = undefined;
      info = undefined;
      if (s) {
        await new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        });
      }
      await durable.close();
    },
  };
}
