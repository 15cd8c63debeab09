// Consent sessions and pages: the links oauth-connect and oauth-update hand
// out, the consent page standing in for the provider's, and the callback page
// that posts the completion message to window.opener.
import { readTextBody } from '../http/body-reader.js';
import { HttpProblem, invalidRequest, methodNotAllowed } from '../http/http-problem.js';
import type { Env } from './context.js';
import { LIMITS, storedBytesBound } from './limits.js';
import { callbackPage, consentPage, type CompletionMessage } from './pages.js';
import { catalogProvider } from './lookup.js';
import type { CatalogEntry } from './providers.js';
import { issueTokens, newId } from './ids.js';
import { type ConsentSession } from './state.js';

export const CONSENT_LIFETIME_MS = 10 * 60 * 1000;

export type NewConsent = Omit<ConsentSession, 'id' | 'createTime' | 'expiresAt'>;

/**
 * Opens a consent session and answers its link. Each project and group keeps
 * at most LIMITS.consentsPerGroup pending links (a new one forgets that group's
 * oldest, never another group's); past LIMITS.consents in all, 429.
 */
export function startConsent(env: Env, session: NewConsent): string {
  const nowMs = env.now.getTime();
  const live = env.state.consents.filter((s) => Date.parse(s.expiresAt) > nowMs);
  const sameGroup = (s: ConsentSession) => s.projectId === session.projectId && s.groupRef === session.groupRef;
  const ofGroup = live.filter(sameGroup);
  const forgotten = new Set(ofGroup.slice(0, Math.max(0, ofGroup.length - LIMITS.consentsPerGroup + 1)));
  const kept = live.filter((s) => !forgotten.has(s));
  if (kept.length >= LIMITS.consents) {
    const retryAfter = kept.map((s) => s.expiresAt).sort()[0];
    throw new HttpProblem(
      { status: 429, detail: 'too many pending authorizations; try again later', retryable: true, retryAfter },
      { 'retry-after': String(Math.max(1, Math.ceil((Date.parse(retryAfter) - nowMs) / 1000))) },
    );
  }
  const full: ConsentSession = {
    ...session,
    id: newId('consent') + newId('x').slice(2),
    createTime: env.now.toISOString(),
    expiresAt: new Date(nowMs + CONSENT_LIFETIME_MS).toISOString(),
  };
  kept.push(full);
  env.state.consents = kept;
  env.changed();
  return `${env.publicOrigin}/consent/${full.id}`;
}

// Not Response.redirect(): its headers are immutable, and every answer gets an x-request-id.
function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

function findSession(env: Env, id: string): ConsentSession {
  const session = env.state.consents.find((s) => s.id === id);
  if (!session)
    throw new HttpProblem({
      status: 404,
      title: 'Unknown authorization',
      detail: 'this authorization link is not known; start again from the app',
    });
  if (Date.parse(session.expiresAt) <= env.now.getTime()) {
    throw new HttpProblem({
      status: 410,
      title: 'Authorization expired',
      detail: 'this authorization link has expired; start again from the app',
    });
  }
  return session;
}

/**
 * The workspace and metadata a consent was given, as [label, text] rows: "Workspace", then each
 * metadata item under its input's displayName (its key when the provider asks for no such input),
 * showing its `value` when that is a string, else its JSON.
 */
export function givenDetails(
  provider: CatalogEntry,
  workspace: string | undefined,
  metadata: Record<string, unknown> | undefined,
): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  if (workspace !== undefined && workspace !== '') rows.push(['Workspace', workspace]);
  for (const [key, item] of Object.entries(metadata ?? {})) {
    const input = provider.inputs?.find((i) => i.name === key);
    // A primitive has no own `value` (5?.value is undefined); null is the one item it cannot be read from.
    const value = (item as { value?: unknown } | null)?.value;
    rows.push([input?.displayName ?? key, typeof value === 'string' ? value : JSON.stringify(item)]);
  }
  return rows;
}

/** GET shows the consent page; POST (the page's form) carries out the decision. */
export async function handleConsent(env: Env, request: Request, id: string): Promise<Response> {
  const session = findSession(env, id);
  if (request.method === 'GET') {
    if (session.decision) return seeOther(`/oauth/callback?session=${encodeURIComponent(id)}`);
    const project = env.state.projects.find((p) => p.id === session.projectId);
    const provider = catalogProvider(session.provider);
    // An update keeps the connection's workspace and metadata: the page shows those (a create names no connection).
    const connection = env.state.connections.find((c) => c.id === session.connectionId);
    return consentPage({
      sessionId: session.id,
      mode: session.mode,
      appName: project?.appName ?? 'An application',
      providerName: provider.displayName,
      groupName: session.groupName,
      groupRef: session.groupRef,
      consumerName: session.consumerName,
      consumerRef: session.consumerRef,
      scopes: provider.scopes,
      details: givenDetails(
        provider,
        session.providerWorkspaceRef ?? connection?.providerWorkspaceRef,
        session.providerMetadata ?? connection?.providerMetadata,
      ),
    });
  }
  if (request.method !== 'POST') throw methodNotAllowed(request.method, 'GET, POST');
  const type = request.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new HttpProblem({ status: 415, detail: 'the consent form posts application/x-www-form-urlencoded' });
  }
  const text = await readTextBody(request, LIMITS.formBytes, { deadlineMs: env.bodyDeadlineMs });
  // The body may have taken a while: the consent may have expired, or been forgotten for a newer one of its group,
  // meanwhile. It is judged as it stands now that the body is here.
  const later: Env = { ...env, now: env.clock() };
  const current = findSession(later, id);
  const decision = new URLSearchParams(text).get('decision');
  if (decision !== 'allow' && decision !== 'allow_bad_credentials' && decision !== 'deny') {
    throw invalidRequest('decision must be allow, allow_bad_credentials or deny', [
      { detail: 'must be allow, allow_bad_credentials or deny', in: 'body', name: 'decision', value: decision },
    ]);
  }
  if (current.decision)
    throw new HttpProblem({ status: 409, title: 'Already decided', detail: 'this authorization was already answered' });
  applyConsent(later, current, decision);
  return seeOther(`/oauth/callback?session=${encodeURIComponent(id)}`);
}

/** The page the popup lands on once decided: it posts the completion message to window.opener and closes. */
export function handleCallback(env: Env, request: Request): Response {
  if (request.method !== 'GET') throw methodNotAllowed(request.method, 'GET');
  const id = new URL(request.url).searchParams.get('session') ?? '';
  const session = findSession(env, id);
  if (!session.decision)
    throw new HttpProblem({
      status: 409,
      title: 'Not decided',
      detail: 'this authorization has not been answered yet',
    });
  const provider = catalogProvider(session.provider);
  const message: CompletionMessage =
    session.decision === 'deny'
      ? { eventType: 'AUTHORIZATION_FAILED', data: { error: `The user denied access to ${provider.displayName}.` } }
      : { eventType: 'AUTHORIZATION_SUCCEEDED', data: { connection: session.resultConnectionId! } };
  return callbackPage(message);
}

/** Carries out the user's choice on the consent page. Returns the connection ID for an allow. */
export function applyConsent(
  env: Pick<Env, 'state' | 'now' | 'verifyDelayMs' | 'changed' | 'room'>,
  session: ConsentSession,
  decision: 'allow' | 'allow_bad_credentials' | 'deny',
): string | undefined {
  // Before anything changes: a link whose provider has left the catalog is refused, not half carried out.
  const provider = catalogProvider(session.provider);
  if (
    decision !== 'deny' &&
    session.mode === 'update' &&
    !env.state.connections.some((c) => c.id === session.connectionId)
  ) {
    throw new HttpProblem({ status: 404, detail: `connection ${session.connectionId} no longer exists` });
  }
  const creates =
    session.mode === 'create' &&
    !env.state.connections.some(
      (c) =>
        c.projectId === session.projectId && c.provider === session.provider && c.group.groupRef === session.groupRef,
    );
  if (decision !== 'deny' && creates && env.state.connections.length >= LIMITS.connections) {
    throw new HttpProblem({
      status: 429,
      detail: `the emulator holds ${LIMITS.connections} connections, its most; delete some first`,
    });
  }
  // The connection keeps what the session holds: room for it in the data file first (429 past its most).
  if (decision !== 'deny') env.room(storedBytesBound(session));
  session.decision = decision;
  env.changed();
  if (decision === 'deny') return undefined;
  const now = env.now.toISOString();
  const app =
    env.state.providerApps.find((a) => a.id === session.providerAppId) ??
    env.state.providerApps.find((a) => a.projectId === session.projectId && a.provider === session.provider);
  let connection =
    session.mode === 'update'
      ? env.state.connections.find((c) => c.id === session.connectionId)
      : env.state.connections.find(
          (c) =>
            c.projectId === session.projectId &&
            c.provider === session.provider &&
            c.group.groupRef === session.groupRef,
        );
  if (!connection) {
    connection = {
      id: newId('conn'),
      projectId: session.projectId,
      provider: session.provider,
      group: {
        groupRef: session.groupRef,
        groupName: session.groupName,
        projectId: session.projectId,
        createTime: now,
      },
      consumer: {
        consumerRef: session.consumerRef,
        consumerName: session.consumerName,
        projectId: session.projectId,
        createTime: now,
      },
      createTime: now,
      authScheme: 'oauth2/authorizationCode',
      status: 'created',
      tokens: issueTokens(provider.scopes, env.now),
    };
    env.state.connections.push(connection);
  }
  connection.consumer = {
    ...connection.consumer,
    consumerRef: session.consumerRef,
    consumerName: session.consumerName,
    updateTime: now,
  };
  connection.group = { ...connection.group, groupName: session.groupName };
  connection.tokens = issueTokens(provider.scopes, env.now);
  connection.status = 'created';
  connection.updateTime = now;
  if (app) connection.providerApp = app;
  if (session.providerWorkspaceRef !== undefined) connection.providerWorkspaceRef = session.providerWorkspaceRef;
  if (session.providerMetadata !== undefined) connection.providerMetadata = session.providerMetadata;
  connection.providerConsumerRef ??= `${session.provider}-user-${session.consumerRef}`;
  connection.pending = {
    status: decision === 'allow' ? 'working' : 'bad_credentials',
    at: new Date(env.now.getTime() + env.verifyDelayMs).toISOString(),
  };
  session.resultConnectionId = connection.id;
  return connection.id;
}
