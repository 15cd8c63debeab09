// What each connect route does, once routes.ts has matched it and the caller
// is identified: read the browser's input, ask the platform, shape the answer.
import { readJsonBody } from '../http/body-reader.js';
import { clientClosed, HttpProblem } from '../http/http-problem.js';
import { jsonParts } from '../http/json-response.js';
import type { ResponseParts } from '../http/response-parts.js';
import { isClientGone } from '../http/client-gone.js';
import { isRecord } from '../shared/json.js';
import type { Connection } from '../shared/types.js';
import type { BrowserIntegration, BrowserProvider } from '../shared/provider.js';
import { SIGN_IN_SCHEMES } from '../shared/sign-in.js';
import { consumerRefOf, groupRefOf, toBrowserConnection } from './connection.js';
import { checkCredentialKind, parseCredential } from './credential-input.js';
import {
  decodeConnectionId,
  decodeProviderName,
  invalidField,
  parseConnectBody,
  parseOwnQuery,
  parseProviderQuery,
} from './input.js';
import type { ConnectUser } from './options.js';
import { ProviderTooLarge, type Platform } from './platform.js';
import { isUsableUrl } from './platform-url.js';
import { integrationProviders } from './integrations.js';
import { jsonBytes, PROVIDER_BYTES } from './provider.js';
import { notFound, ServerFault, unusableUrlProblem } from './handler-problems.js';

/** How long the browser may take to send its whole body (408 after). */
export const BODY_DEADLINE_MS = 10_000;

/** What POST oauth-connect and PATCH oauth-update answer. */
export interface ConnectUrlAnswer {
  url: string;
  messageOrigin: string;
}

/** What every operation of one handler shares. */
export interface HandlerContext {
  platform: Platform;
  /** The allow-listed providers, when the options name them. */
  providers: ReadonlySet<string> | undefined;
  messageOrigin: string;
  platformIsLoopback: boolean;
  bodyLimit: number;
}

/** One request, as an operation gets it. */
export interface RouteCall {
  request: Request;
  /** The path segment the route captured, as sent (a connection ID or a provider name), or '' for none. */
  segment: string;
  user: ConnectUser;
  /** Whether the browser went away. */
  aborted: () => boolean;
  /** Tells onError of a fault the answer goes on without (what was left out of it). */
  tell: (fault: ServerFault) => void;
}

export type Operation = (context: HandlerContext, call: RouteCall) => Promise<ResponseParts>;

/** The URL answer, if the platform's URL may reach the browser. */
function urlAnswer(context: HandlerContext, raw: string, operation: string): ResponseParts {
  const url = isUsableUrl(raw, context.platformIsLoopback);
  if (!url) {
    const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase() ?? 'none';
    throw new ServerFault(
      unusableUrlProblem(),
      'platform',
      `platform ${operation} answered an unusable URL (scheme ${scheme}:)`,
      undefined,
    );
  }
  return jsonParts({ url: url.href, messageOrigin: context.messageOrigin } satisfies ConnectUrlAnswer);
}

/**
 * The browser's JSON body. A body stream that fails (Node's `Error: aborted`, ECONNRESET: the browser went away
 * mid-body) is the browser's doing: 499, never reported as a server failure.
 */
async function readBody(context: HandlerContext, { request, aborted }: RouteCall): Promise<unknown> {
  try {
    return await readJsonBody(request, context.bodyLimit, { deadlineMs: BODY_DEADLINE_MS });
  } catch (error) {
    if (error instanceof HttpProblem || !(aborted() || isClientGone(error))) throw error;
    throw clientClosed('the request body was cut off');
  }
}

export const oauthConnect: Operation = async (context, call) => {
  const fields = parseConnectBody(await readBody(context, call), context.providers);
  return urlAnswer(context, await context.platform.oauthConnect(call.user, fields), 'oauth-connect');
};

export const oauthUpdate: Operation = async (context, { segment, user, aborted }) => {
  const connectionId = decodeConnectionId(segment);
  await context.platform.ownConnection(user, connectionId, aborted);
  return urlAnswer(context, await context.platform.oauthUpdate(connectionId), 'oauth-update');
};

export const getConnection: Operation = async (context, { segment, user, aborted }) => {
  const connection = await context.platform.ownConnection(user, decodeConnectionId(segment), aborted);
  return jsonParts(toBrowserConnection(connection));
};

export const deleteConnection: Operation = async (context, { segment, user, aborted }) => {
  const connectionId = decodeConnectionId(segment);
  await context.platform.ownConnection(user, connectionId, aborted);
  await context.platform.deleteConnection(connectionId);
  return { status: 204, headers: { 'cache-control': 'no-store' }, body: null };
};

export const listConnections: Operation = async (context, { request, user }) => {
  const { providers } = context;
  const query = new URL(request.url).searchParams;
  const provider = parseProviderQuery(query.get('provider'), providers);
  const own = parseOwnQuery(query.getAll('own'));
  const answer = await context.platform.listConnections(user, { own, ...(provider ? { provider } : {}) });
  // The platform filtered by group (and consumer) already; checked again so a platform that ignores the filter
  // leaks nothing. Without a provider asked, only the allow-listed providers' connections are listed.
  const listed = answer
    .filter(
      (c) =>
        groupRefOf(c) === user.groupRef &&
        (!own || consumerRefOf(c) === user.consumerRef) &&
        (provider ? (c as Connection).provider === provider : !providers || providers.has((c as Connection).provider)),
    )
    .map(toBrowserConnection);
  listed.sort((a, b) => String(b.createTime ?? '').localeCompare(String(a.createTime ?? '')));
  return jsonParts(listed);
};

/**
 * POST {endpoint}/connections: a connection made with the credential the user typed, of the kind the provider's
 * scheme takes, for the caller's group and consumer.
 */
export const createConnection: Operation = async (context, call) => {
  const body = await readBody(context, call);
  const fields = parseConnectBody(body, context.providers);
  const parsed = parseCredential(body as Record<string, unknown>);
  checkCredentialKind(await context.platform.providerInfo(fields.provider), parsed?.kind);
  const connection = await context.platform.generateConnection(call.user, fields, parsed?.credential ?? {});
  return { ...jsonParts(toBrowserConnection(connection)), status: 201 };
};

/**
 * PATCH {endpoint}/connections/{id}: new credentials for a connection of the caller's group (another group's is a
 * 404, and the platform is never asked to change it).
 */
export const updateConnection: Operation = async (context, call) => {
  const connectionId = decodeConnectionId(call.segment);
  const body = await readBody(context, call);
  if (!isRecord(body)) throw invalidField('(root)', 'must be a JSON object');
  const parsed = parseCredential(body);
  const connection = await context.platform.ownConnection(call.user, connectionId, call.aborted);
  // The kind the connection takes is its own scheme's: no provider read between the two calls (timeoutMs twice at
  // most). A connection that names no scheme of the table (the spec requires one) is checked against its provider.
  const scheme = (connection as { authScheme?: unknown }).authScheme;
  const info =
    typeof scheme === 'string' && Object.hasOwn(SIGN_IN_SCHEMES, scheme)
      ? schemeInfo(connection.provider, scheme)
      : await context.platform.providerInfo(connection.provider);
  checkCredentialKind(info, parsed?.kind);
  if (!parsed) throw invalidField('(root)', 'must hold the new credential');
  return jsonParts(
    toBrowserConnection(
      await context.platform.updateCredential(call.user, connectionId, parsed.kind, parsed.credential),
    ),
  );
};

/** What a provider signing in with `scheme` (a connection's authScheme, `oauth2/<grant>` or the authType) shows. */
function schemeInfo(provider: string, scheme: string): BrowserProvider {
  const [authType, grantType] = scheme.split('/');
  return { name: provider, authType, ...(grantType ? { oauth2Opts: { grantType } } : {}) };
}

export const getProvider: Operation = async (context, { segment }) => {
  const name = decodeProviderName(segment);
  // Outside the allow-list is answered like an unknown provider, and the platform is not asked.
  if (context.providers && !context.providers.has(name)) throw notFound('no such provider');
  return jsonParts(await context.platform.providerInfo(name));
};

/**
 * GET {endpoint}/integrations: one entry per provider of the project's integrations (each once, in the platform's
 * order, only the allow-listed, INTEGRATIONS_LIMIT.providers at most), each with its info from the provider cache
 * (asked of the platform all at once, each at most once per PROVIDER_CACHE.ttlMs). A provider the platform does not
 * know (its 404) is left out; any other failure of a provider's info fails the route with that failure's problem, so
 * the browser never takes a short list for the whole one (the providers read before it stay in the cache).
 */
export const listIntegrations: Operation = async (context, { aborted, tell }) => {
  const names = integrationProviders(await context.platform.listIntegrations(aborted), context.providers);
  const entries = await Promise.all(
    names.map(async (provider): Promise<BrowserIntegration | undefined> => {
      try {
        return { provider, ...(await context.platform.providerInfo(provider)) };
      } catch (error) {
        if (error instanceof HttpProblem && error.init.status === 404) return undefined;
        // A provider whose view is over its byte cap is left out, and told.
        if (error instanceof ProviderTooLarge) {
          tell(error);
          return undefined;
        }
        throw error;
      }
    }),
  );
  // The answer within PROVIDER_BYTES.integrations: the entries that would pass it are left out, in one report.
  const kept: BrowserIntegration[] = [];
  let bytes = 2; // []
  const left: string[] = [];
  for (const entry of entries) {
    if (!entry) continue;
    const size = jsonBytes(entry) + (kept.length ? 1 : 0);
    if (bytes + size > PROVIDER_BYTES.integrations) {
      left.push(entry.provider);
      continue;
    }
    bytes += size;
    kept.push(entry);
  }
  if (left.length) {
    tell(
      new ServerFault(
        new HttpProblem({ status: 200 }),
        'platform',
        `the integrations answer would pass ${PROVIDER_BYTES.integrations} bytes: ${left.length} provider(s) left out (${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''})`,
        undefined,
      ),
    );
  }
  return jsonParts(kept);
};
