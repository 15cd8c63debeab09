// createConnectHandler: the host backend's connect routes, between the
// browser's <connect-provider> and the platform.
import { createPlatformClient, type PlatformClient } from '../api/client.js';
import { PlatformRequestError, ProblemError } from '../api/errors.js';
import type { Connection } from '../shared/types.js';
import { answerResponse, type Answer } from '../http/answer.js';
import { HttpProblem, instanceOf, jsonAnswer, pathnameOf, problemAnswer, readJsonBody } from '../http/problem.js';
import { isClientGone } from '../http/client-gone.js';
import { toBrowserConnection } from './connection.js';
import { checkOrigin, corsHeaders, hostProblem, preflight } from './guard.js';
import {
  decodeConnectionId,
  decodeProviderName,
  MAX_FIELD_LENGTH,
  parseConnectBody,
  parseOwnQuery,
  parseProviderQuery,
} from './input.js';
import {
  resolveOptions,
  type ConnectHandlerErrorInfo,
  type ConnectHandlerOptions,
  type ConnectUser,
} from './options.js';
import { toBrowserProvider } from './provider.js';
import { createRedactor } from './redact.js';
import { createScrubber } from './scrub.js';
import type { BrowserProvider } from '../shared/provider.js';
import {
  HANDLER_PROBLEM_TYPES,
  isUsableUrl,
  misconfiguredProblem,
  unusableUrlProblem,
  upstreamProblem,
} from './upstream.js';

export type { ConnectHandlerErrorInfo, ConnectHandlerOptions, ConnectUser } from './options.js';

export type ConnectHandler = (request: Request) => Promise<Response>;

/** What POST oauth-connect and PATCH oauth-update answer. */
export interface ConnectUrlAnswer {
  url: string;
  messageOrigin: string;
}

interface RouteMatch {
  /** `connection` is `/connections/{id}`: get, and delete when allowDisconnect is on. */
  route: 'connect' | 'update' | 'connection' | 'list' | 'provider';
  /** The raw path segment: a connection ID or a provider name. */
  segment?: string;
}

/** Matches the end of the path, so the handler serves under any prefix. */
function matchRoute(pathname: string): RouteMatch | null {
  if (/\/oauth-connect\/?$/.test(pathname)) return { route: 'connect' };
  const update = /\/connections\/([^/]+):oauth-update\/?$/.exec(pathname);
  if (update) return { route: 'update', segment: update[1] };
  const get = /\/connections\/([^/]+)\/?$/.exec(pathname);
  if (get) return { route: 'connection', segment: get[1] };
  if (/\/connections\/?$/.test(pathname)) return { route: 'list' };
  const provider = /\/providers\/([^/]+)\/?$/.exec(pathname);
  if (provider) return { route: 'provider', segment: provider[1] };
  return null;
}

/** How long the browser may take to send its whole body (408 after). */
export const BODY_DEADLINE_MS = 10_000;

/** How long a provider's info is served from the handler's memory, and how many providers it holds at most. */
export const PROVIDER_CACHE = { ttlMs: 10 * 60 * 1000, maxEntries: 500 } as const;

/** A failure that is the server's: the browser gets `problem`, onError gets the rest. */
class ServerFault extends HttpProblem {
  constructor(
    problem: HttpProblem,
    readonly kind: ConnectHandlerErrorInfo['kind'],
    readonly logMessage: string,
    readonly error: unknown,
  ) {
    super(problem.init, problem.headers);
  }
}

/** A connection's groupRef when it is a string; undefined for anything else (no group, null, another type). */
function groupRefOf(connection: unknown): string | undefined {
  const group =
    typeof connection === 'object' && connection !== null ? (connection as { group?: unknown }).group : undefined;
  const groupRef = typeof group === 'object' && group !== null ? (group as { groupRef?: unknown }).groupRef : undefined;
  return typeof groupRef === 'string' ? groupRef : undefined;
}

/** A connection's consumerRef when it is a string; undefined for anything else. */
function consumerRefOf(connection: unknown): string | undefined {
  const consumer =
    typeof connection === 'object' && connection !== null ? (connection as { consumer?: unknown }).consumer : undefined;
  const ref =
    typeof consumer === 'object' && consumer !== null ? (consumer as { consumerRef?: unknown }).consumerRef : undefined;
  return typeof ref === 'string' ? ref : undefined;
}

function firstLine(text: string, max = 240): string {
  const line = text.split('\n')[0].trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Creates the handler of the connect routes. Throws a TypeError for unusable options. */
export function createConnectHandler(options: ConnectHandlerOptions): ConnectHandler {
  const config = resolveOptions(options);
  for (const warning of config.warnings) console.warn(`[connect-provider] ${warning}`);
  const client: PlatformClient = createPlatformClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    retry: config.retry,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const scrub = createScrubber(config.apiKey, config.baseUrl);
  const { project, messageOrigin, providers, allowedOrigins, bodyLimit, allowDisconnect } = config;
  const methods: Record<RouteMatch['route'], readonly string[]> = {
    connect: ['POST'],
    update: ['PATCH'],
    connection: allowDisconnect ? ['GET', 'DELETE'] : ['GET'],
    list: ['GET'],
    provider: ['GET'],
  };
  const redact = createRedactor(config.apiKey);
  const onError =
    options.onError ?? ((info: ConnectHandlerErrorInfo) => console.error(`[connect-provider] ${info.message}`));

  /** Describes a platform failure for the server's log (never the browser's). */
  function platformFault(
    error: unknown,
    operation: string,
    input?: Record<string, unknown>,
  ): ServerFault | HttpProblem {
    // (A browser that went away never shows here: the client is not handed its signal; see stillWanted.)
    const problem = upstreamProblem(error, { scrub, ...(input ? { input } : {}) });
    if (problem.init.status < 500) return problem;
    let cause = 'failed';
    if (error instanceof ProblemError) {
      cause = `answered ${error.status} ${scrub(error.title)}${error.detail ? `: ${firstLine(scrub(error.detail), 160)}` : ''}`;
    } else if (error instanceof PlatformRequestError) {
      cause = firstLine(error.message);
    } else if (error instanceof Error) {
      cause = `threw ${error.name}: ${firstLine(error.message)}`;
    }
    return new ServerFault(
      problem,
      error instanceof ProblemError || error instanceof PlatformRequestError ? 'platform' : 'internal',
      `platform ${operation} ${cause}`,
      error,
    );
  }

  function misconfigured(operation: string, error: unknown): ServerFault {
    return new ServerFault(
      misconfiguredProblem(),
      'misconfigured',
      `the platform answered 404 to ${operation} for project ${JSON.stringify(project)} at ${config.baseUrl}: check baseUrl and project`,
      error,
    );
  }

  /** The URL answer, if the platform's URL may reach the browser. */
  function urlAnswer(raw: string, operation: string): Answer {
    const url = isUsableUrl(raw, config.platformIsLoopback);
    if (!url) {
      const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase() ?? 'none';
      throw new ServerFault(
        unusableUrlProblem(),
        'platform',
        `platform ${operation} answered an unusable URL (scheme ${scheme}:)`,
        undefined,
      );
    }
    return jsonAnswer({ url: url.href, messageOrigin } satisfies ConnectUrlAnswer);
  }

  let projectSeenAt = -Infinity;
  /**
   * After a 404 for a connection: whether the platform knows the project (checked with a list of the caller's own
   * connections, remembered for 5 minutes). Only a 404 to that list says no; any other failure is not a verdict.
   */
  async function projectKnown(user: ConnectUser): Promise<boolean> {
    if (Date.now() - projectSeenAt < 5 * 60 * 1000) return true;
    try {
      await client.listConnections({
        projectIdOrName: project,
        groupRef: user.groupRef,
        consumerRef: user.consumerRef,
      });
    } catch (error) {
      return !(error instanceof ProblemError && error.status === 404);
    }
    projectSeenAt = Date.now();
    return true;
  }

  // Internal: the request's signal is not handed to the platform client. Node 20's AbortSignal.any, which the client
  // would combine it with its time-out through, costs more per request than the rest of the handler (npm run bench);
  // a browser that goes away lets the platform call finish (timeoutMs at most), and nothing after it runs.
  function stillWanted(aborted: () => boolean): void {
    if (aborted()) throw new DOMException('the browser went away', 'AbortError');
  }

  async function ownConnection(user: ConnectUser, connectionId: string, aborted: () => boolean): Promise<Connection> {
    let connection: Connection;
    try {
      connection = await client.getConnection({ projectIdOrName: project, connectionId });
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404 && !(await projectKnown(user)))
        throw misconfigured('get-connection', error);
      throw platformFault(error, 'get-connection');
    }
    stillWanted(aborted);
    // Another group's connection, or one with no group at all, is answered exactly like a missing one.
    if (groupRefOf(connection) !== user.groupRef) throw new HttpProblem({ status: 404, detail: 'no such connection' });
    return connection;
  }

  // Provider info, per handler: successful answers for PROVIDER_CACHE.ttlMs; a request while the platform is asked
  // waits for that same call. Failures (a 404 for an unknown provider too) are not kept.
  const providerCache = new Map<string, { at: number; info: BrowserProvider }>();
  const providerCalls = new Map<string, Promise<BrowserProvider>>();

  async function fetchProvider(name: string): Promise<BrowserProvider> {
    let info: unknown;
    try {
      info = await client.getProvider({ provider: name });
    } catch (error) {
      if (error instanceof ProblemError && error.status === 404)
        throw new HttpProblem({ status: 404, detail: 'no such provider' });
      throw platformFault(error, 'get-provider');
    }
    if (typeof info !== 'object' || info === null || Array.isArray(info)) {
      throw new ServerFault(
        upstreamProblem(new PlatformRequestError('invalid_response', 'not an object'), { scrub }),
        'platform',
        'platform get-provider answered something other than an object',
        undefined,
      );
    }
    const browser = toBrowserProvider(info, name, config.platformIsLoopback);
    if (providerCache.size >= PROVIDER_CACHE.maxEntries) {
      // The oldest entry goes (a Map iterates in insertion order).
      providerCache.delete(providerCache.keys().next().value!);
    }
    providerCache.set(name, { at: Date.now(), info: browser });
    return browser;
  }

  function providerInfo(name: string): Promise<BrowserProvider> {
    const cached = providerCache.get(name);
    if (cached && Date.now() - cached.at < PROVIDER_CACHE.ttlMs) return Promise.resolve(cached.info);
    if (cached) providerCache.delete(name);
    let pending = providerCalls.get(name);
    if (!pending) {
      pending = fetchProvider(name).finally(() => providerCalls.delete(name));
      providerCalls.set(name, pending);
    }
    return pending;
  }

  /**
   * The browser's JSON body. A body stream that fails (Node's `Error: aborted`, ECONNRESET: the browser went away
   * mid-body) is the browser's doing: 499, never reported as a server failure.
   */
  async function readBody(request: Request, aborted: () => boolean): Promise<unknown> {
    try {
      return await readJsonBody(request, bodyLimit, { deadlineMs: BODY_DEADLINE_MS });
    } catch (error) {
      if (error instanceof HttpProblem || !(aborted() || isClientGone(error))) throw error;
      throw new HttpProblem({ status: 499, title: 'Client Closed Request', detail: 'the request body was cut off' });
    }
  }

  async function serve(
    request: Request,
    match: RouteMatch,
    user: ConnectUser,
    aborted: () => boolean,
  ): Promise<Answer> {
    if (match.route === 'connection' && request.method === 'DELETE') {
      const connectionId = decodeConnectionId(match.segment!);
      await ownConnection(user, connectionId, aborted);
      try {
        await client.deleteConnection({ projectIdOrName: project, connectionId });
      } catch (error) {
        throw platformFault(error, 'delete-connection');
      }
      return { status: 204, headers: { 'cache-control': 'no-store' }, body: null };
    }
    if (match.route === 'connection') {
      const connection = await ownConnection(user, decodeConnectionId(match.segment!), aborted);
      return jsonAnswer(toBrowserConnection(connection));
    }
    if (match.route === 'provider') {
      const name = decodeProviderName(match.segment!);
      // Outside the allow-list is answered like an unknown provider, and the platform is not asked.
      if (providers && !providers.has(name)) throw new HttpProblem({ status: 404, detail: 'no such provider' });
      return jsonAnswer(await providerInfo(name));
    }
    if (match.route === 'list') {
      const query = new URL(request.url).searchParams;
      const provider = parseProviderQuery(query.get('provider'), providers);
      const own = parseOwnQuery(query.getAll('own'));
      let answer: unknown;
      try {
        answer = await client.listConnections({
          projectIdOrName: project,
          groupRef: user.groupRef,
          ...(own ? { consumerRef: user.consumerRef } : {}),
          ...(provider ? { provider } : {}),
        });
      } catch (error) {
        // The list names no connection: its 404 can only mean a wrong baseUrl or project.
        if (error instanceof ProblemError && error.status === 404) throw misconfigured('list-connections', error);
        throw platformFault(error, 'list-connections');
      }
      if (!Array.isArray(answer)) {
        throw new ServerFault(
          upstreamProblem(new PlatformRequestError('invalid_response', 'not an array'), { scrub }),
          'platform',
          'platform list-connections answered something other than an array',
          undefined,
        );
      }
      // The platform filtered by group (and consumer) already; checked again so a platform that ignores the filter
      // leaks nothing. Without a provider asked, only the allow-listed providers' connections are listed.
      const listed = answer
        .filter(
          (c) =>
            groupRefOf(c) === user.groupRef &&
            (!own || consumerRefOf(c) === user.consumerRef) &&
            (provider
              ? (c as Connection).provider === provider
              : !providers || providers.has((c as Connection).provider)),
        )
        .map(toBrowserConnection);
      listed.sort((a, b) => String(b.createTime ?? '').localeCompare(String(a.createTime ?? '')));
      return jsonAnswer(listed);
    }
    if (match.route === 'update') {
      const connectionId = decodeConnectionId(match.segment!);
      await ownConnection(user, connectionId, aborted);
      let url: string;
      try {
        url = await client.oauthUpdate({ projectIdOrName: project, connectionId });
      } catch (error) {
        throw platformFault(error, 'oauth-update');
      }
      return urlAnswer(url, 'oauth-update');
    }
    const fields = parseConnectBody(await readBody(request, aborted), providers);
    let url: string;
    try {
      url = await client.oauthConnect({
        projectId: project,
        ...fields,
        groupRef: user.groupRef,
        consumerRef: user.consumerRef,
        ...(user.groupName ? { groupName: user.groupName } : {}),
        ...(user.consumerName ? { consumerName: user.consumerName } : {}),
      });
    } catch (error) {
      // oauth-connect names no connection: its 404 can only mean a wrong baseUrl or project.
      if (error instanceof ProblemError && error.status === 404) throw misconfigured('oauth-connect', error);
      throw platformFault(error, 'oauth-connect', fields as unknown as Record<string, unknown>);
    }
    return urlAnswer(url, 'oauth-connect');
  }

  async function identify(request: Request): Promise<ConnectUser> {
    let user: ConnectUser | null;
    try {
      user = await options.authorize(request);
    } catch (error) {
      const what = error instanceof Error ? `${error.name}: ${firstLine(error.message)}` : typeof error;
      throw new ServerFault(
        new HttpProblem({ status: 500, detail: 'the app could not check who you are' }),
        'authorize',
        `authorize() threw ${what}`,
        error,
      );
    }
    if (user === null || user === undefined)
      throw new HttpProblem({ status: 401, detail: 'sign in to connect an account' });
    const valid = (value: unknown) => typeof value === 'string' && value !== '' && value.length <= MAX_FIELD_LENGTH;
    const optional = (value: unknown) =>
      value === undefined || value === null || (typeof value === 'string' && value.length <= MAX_FIELD_LENGTH);
    if (
      typeof user !== 'object' ||
      !valid(user.groupRef) ||
      !valid(user.consumerRef) ||
      !optional(user.groupName) ||
      !optional(user.consumerName)
    ) {
      throw new ServerFault(
        new HttpProblem({ status: 500, detail: 'the app could not check who you are' }),
        'authorize',
        'authorize() must return null or { groupRef, consumerRef } as non-empty strings (names optional), each at most 512 characters',
        undefined,
      );
    }
    return user;
  }

  function report(fault: ServerFault, request: Request, status: number): void {
    const method = request.method;
    const path = pathnameOf(request) ?? '';
    const message = redact(`${method} ${path.slice(0, 200)} answered ${status}: ${fault.logMessage}`).replace(
      /[\r\n]+/g,
      ' ',
    );
    try {
      // The error as thrown may hold the key where the platform echoed it: onError gets a redacted copy.
      const result: unknown = onError({
        kind: fault.kind,
        message,
        status,
        method: redact(method),
        path: redact(path),
        error: redact(fault.error),
      });
      // An async logger's rejection is swallowed too: never an unhandled rejection.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
        Promise.resolve(result).catch(() => {});
    } catch {
      // Internal: a failing logger must not change the answer.
    }
  }

  /** Every answer, whatever its status: no browser reads it as anything but its content type. */
  async function answer(request: Request, aborted: () => boolean): Promise<Answer> {
    const answered = await route(request, aborted);
    answered.headers['x-content-type-options'] = 'nosniff';
    return answered;
  }

  async function route(request: Request, aborted: () => boolean): Promise<Answer> {
    let cors: Record<string, string> = {};
    try {
      const badHost = hostProblem(request);
      if (badHost)
        throw new HttpProblem({
          status: 400,
          type: HANDLER_PROBLEM_TYPES.badHost,
          title: 'Bad Request',
          detail: badHost,
        });
      const verdict = checkOrigin(request, { allowedOrigins });
      if (!verdict.ok) {
        throw new HttpProblem({
          status: 403,
          type: HANDLER_PROBLEM_TYPES.forbiddenOrigin,
          title: 'Forbidden',
          detail: verdict.reason,
        });
      }
      if (verdict.corsOrigin) {
        cors = corsHeaders(verdict.corsOrigin);
        if (request.method === 'OPTIONS')
          return preflight(
            verdict.corsOrigin,
            request,
            allowDisconnect ? ['GET', 'POST', 'PATCH', 'DELETE'] : undefined,
          );
      }
      const match = matchRoute(new URL(request.url).pathname);
      if (!match) throw new HttpProblem({ status: 404, detail: 'no such connect route' });
      const allowed = methods[match.route];
      if (!allowed.includes(request.method)) {
        const allow = allowed.join(', ');
        throw new HttpProblem(
          { status: 405, detail: `${request.method.slice(0, 20)} is not allowed here; allowed: ${allow}` },
          { allow },
        );
      }
      const user = await identify(request);
      const answer = await serve(request, match, user, aborted);
      Object.assign(answer.headers, cors);
      return answer;
    } catch (error) {
      let problem: HttpProblem;
      if (error instanceof HttpProblem) {
        problem = error;
      } else if (error instanceof Error && error.name === 'AbortError' && aborted()) {
        problem = new HttpProblem({ status: 499, title: 'Client Closed Request', detail: 'the request was aborted' });
      } else {
        const what = error instanceof Error ? `${error.name}: ${firstLine(error.message)}` : typeof error;
        problem = new ServerFault(
          new HttpProblem({ status: 500, detail: 'the connect handler failed' }),
          'internal',
          `unexpected ${what}`,
          error,
        );
      }
      if (problem instanceof ServerFault) report(problem, request, problem.init.status);
      // Absolute, on the app's own origin: never the platform's address.
      const instance = instanceOf(request);
      return problemAnswer(
        { ...problem.init, ...(instance === undefined ? {} : { instance }), time: new Date().toISOString() },
        { ...problem.headers, ...cors },
      );
    }
  }

  return async (request) => answerResponse(await answer(request, () => request.signal.aborted));
}
