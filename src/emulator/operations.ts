// The 13 operations' behaviour. Requests reach these already routed,
// authenticated and validated against the OpenAPI document.
import type {
  Connection,
  CreateNotificationEventTopicRouteRequest,
  CreateProjectRequest,
  NotificationEventTopicRoute,
  OAuthConnectRequest,
  Project,
  SearchRequest,
  SearchResultEntry,
} from '../api/types.js';
import { HttpProblem, jsonResponse } from '../http/problem.js';
import type { TokenClaims } from './jwt.js';
import { findProvider, PROVIDERS } from './providers.js';
import { issueTokens, newId, type ConsentSession, type EmulatorState, type StoredConnection } from './store.js';

export const PROBLEM_TYPES = {
  validation: 'urn:connect-provider:problem:validation',
  conflict: 'urn:connect-provider:problem:conflict',
  unknownProvider: 'urn:connect-provider:problem:unknown-provider',
} as const;

export type Principal = { kind: 'apiKey' } | { kind: 'bearer'; claims: TokenClaims };

export interface OperationContext {
  state: EmulatorState;
  principal: Principal;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  now: Date;
  /** The origin the browser reaches the emulator at (for consent URLs). */
  publicOrigin: string;
  verifyDelayMs: number;
  urlFormat: 'json' | 'text';
  /** Marks the state changed, so it is saved. */
  changed(): void;
}

type Handler = (ctx: OperationContext) => Response;

const CONSENT_LIFETIME_MS = 10 * 60 * 1000;
const MAX_CONSENTS = 1000;

function notFound(detail: string): HttpProblem {
  return new HttpProblem({ status: 404, detail });
}

function conflict(detail: string, context?: Record<string, unknown>): HttpProblem {
  return new HttpProblem({ status: 409, type: PROBLEM_TYPES.conflict, title: 'Conflict', detail, ...(context ? { context } : {}) });
}

function forbidIfOtherOrg(ctx: OperationContext, orgId: string): void {
  if (ctx.principal.kind === 'bearer' && ctx.principal.claims.org !== orgId) {
    throw new HttpProblem({ status: 403, detail: `the Bearer token may act for org ${ctx.principal.claims.org} only` });
  }
}

/** Finds a project by ID or (case-insensitive) name; 404 when none, 403 for another org's Bearer token. */
export function findProject(ctx: OperationContext, idOrName: string): Project {
  const lower = idOrName.toLowerCase();
  const project = ctx.state.projects.find((p) => p.id === idOrName || p.name === lower);
  if (!project) throw notFound(`no project ${idOrName}`);
  forbidIfOtherOrg(ctx, project.orgId);
  return project;
}

function findConnection(ctx: OperationContext, project: Project, id: string): StoredConnection {
  const connection = ctx.state.connections.find((c) => c.id === id && c.projectId === project.id);
  if (!connection) throw notFound(`no connection ${id} in project ${project.name}`);
  return connection;
}

/** Applies a verification whose time has come (lazily: no timers to outlive the emulator). */
export function settleConnection(ctx: Pick<OperationContext, 'now' | 'changed'>, connection: StoredConnection): void {
  if (connection.pending && Date.parse(connection.pending.at) <= ctx.now.getTime()) {
    connection.status = connection.pending.status;
    connection.updateTime = connection.pending.at;
    delete connection.pending;
    ctx.changed();
  }
}

function publicConnection(connection: StoredConnection, creds: 'none' | 'access' | 'refresh'): Connection {
  const { tokens, pending: _pending, ...rest } = connection;
  const out: Connection = { ...rest };
  if (creds === 'access') out.oauth2AuthorizationCode = { accessToken: tokens.accessToken, scopes: tokens.scopes };
  if (creds === 'refresh') {
    out.oauth2AuthorizationCode = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, scopes: tokens.scopes };
  }
  return out;
}

function byCreateTime<T extends { createTime: string; id: string }>(a: T, b: T): number {
  return a.createTime.localeCompare(b.createTime) || a.id.localeCompare(b.id);
}

function urlAnswer(ctx: OperationContext, url: string): Response {
  if (ctx.urlFormat === 'text') {
    return new Response(url, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
  }
  return jsonResponse(url);
}

function startConsent(ctx: OperationContext, session: Omit<ConsentSession, 'id' | 'createTime' | 'expiresAt'>): Response {
  const nowMs = ctx.now.getTime();
  // Forget sessions long expired, and never keep more than MAX_CONSENTS.
  ctx.state.consents = ctx.state.consents.filter((s) => Date.parse(s.expiresAt) > nowMs - 24 * 3600 * 1000).slice(-MAX_CONSENTS + 1);
  const full: ConsentSession = {
    ...session,
    id: newId('consent') + newId('x').slice(2),
    createTime: ctx.now.toISOString(),
    expiresAt: new Date(nowMs + CONSENT_LIFETIME_MS).toISOString(),
  };
  ctx.state.consents.push(full);
  ctx.changed();
  return urlAnswer(ctx, `${ctx.publicOrigin}/consent/${full.id}`);
}

export const operations: Record<string, Handler> = {
  listInvites(ctx) {
    const orgId = ctx.path.orgId as string;
    forbidIfOtherOrg(ctx, orgId);
    if (!ctx.state.orgs.some((o) => o.id === orgId)) throw notFound(`no org ${orgId}`);
    return jsonResponse(ctx.state.invites.filter((i) => i.parentId === orgId).sort(byCreateTime));
  },

  oauthConnect(ctx) {
    const body = ctx.body as OAuthConnectRequest;
    const project = findProject(ctx, body.projectId);
    const provider = findProvider(body.provider);
    if (!provider) {
      throw new HttpProblem({
        status: 400,
        type: PROBLEM_TYPES.unknownProvider,
        title: 'Unknown provider',
        detail: `unknown provider ${body.provider}; known providers: ${PROVIDERS.map((p) => p.name).join(', ')}`,
        issues: [{ type: PROBLEM_TYPES.unknownProvider, detail: 'unknown provider', in: 'body', name: 'provider', value: body.provider }],
      });
    }
    if (body.providerAppId !== undefined) {
      const app = ctx.state.providerApps.find((a) => a.id === body.providerAppId && a.projectId === project.id);
      if (!app || app.provider !== provider.name) {
        throw new HttpProblem({
          status: 400,
          type: PROBLEM_TYPES.validation,
          title: 'Invalid request',
          detail: `no ${provider.name} provider app ${body.providerAppId} in project ${project.name}`,
          issues: [{ detail: 'no such provider app for this provider', in: 'body', name: 'providerAppId', value: body.providerAppId }],
        });
      }
    }
    return startConsent(ctx, {
      mode: 'create',
      projectId: project.id,
      provider: provider.name,
      groupRef: body.groupRef,
      groupName: body.groupName || body.groupRef,
      consumerRef: body.consumerRef,
      consumerName: body.consumerName || body.consumerRef,
      ...(body.providerWorkspaceRef !== undefined ? { providerWorkspaceRef: body.providerWorkspaceRef } : {}),
      ...(body.providerMetadata !== undefined ? { providerMetadata: body.providerMetadata } : {}),
      ...(body.providerAppId !== undefined ? { providerAppId: body.providerAppId } : {}),
    });
  },

  oauthUpdate(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    const connection = findConnection(ctx, project, ctx.path.connectionId as string);
    return startConsent(ctx, {
      mode: 'update',
      projectId: project.id,
      provider: connection.provider,
      groupRef: connection.group.groupRef,
      groupName: connection.group.groupName,
      consumerRef: connection.consumer.consumerRef,
      consumerName: connection.consumer.consumerName,
      connectionId: connection.id,
    });
  },

  createProject(ctx) {
    const body = ctx.body as CreateProjectRequest;
    forbidIfOtherOrg(ctx, body.orgId);
    if (!ctx.state.orgs.some((o) => o.id === body.orgId)) throw notFound(`no org ${body.orgId}`);
    const name = body.name.toLowerCase();
    if (ctx.state.projects.some((p) => p.name === name)) throw conflict(`a project named ${name} exists already`, { name });
    const project: Project = {
      id: newId('proj'),
      name,
      appName: body.appName,
      orgId: body.orgId,
      createTime: ctx.now.toISOString(),
      updateTime: ctx.now.toISOString(),
      entitlements: { brandingRemoval: { value: false } },
    };
    ctx.state.projects.push(project);
    ctx.changed();
    return jsonResponse(project, 201, { location: `/v1/projects/${project.id}` });
  },

  listConnections(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    const { provider, groupRef, consumerRef } = ctx.query;
    const connections = ctx.state.connections
      .filter(
        (c) =>
          c.projectId === project.id &&
          (provider === undefined || c.provider === provider) &&
          (groupRef === undefined || c.group.groupRef === groupRef) &&
          (consumerRef === undefined || c.consumer.consumerRef === consumerRef),
      )
      .sort(byCreateTime);
    for (const connection of connections) settleConnection(ctx, connection);
    return jsonResponse(connections.map((c) => publicConnection(c, 'none')));
  },

  getConnection(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    const connection = findConnection(ctx, project, ctx.path.connectionId as string);
    settleConnection(ctx, connection);
    const refresh = ctx.query.refresh as 'force' | 'ifExpired' | undefined;
    if (refresh) {
      const expired = Date.parse(connection.tokens.accessToken.expiresAt ?? '') <= ctx.now.getTime();
      // A connection whose credentials are bad cannot refresh: it stays bad_credentials.
      if ((refresh === 'force' || expired) && connection.status !== 'bad_credentials') {
        connection.tokens = { ...issueTokens(connection.tokens.scopes, ctx.now), refreshToken: connection.tokens.refreshToken };
        connection.status = 'created';
        connection.updateTime = ctx.now.toISOString();
        connection.pending = { status: 'working', at: new Date(ctx.now.getTime() + ctx.verifyDelayMs).toISOString() };
        ctx.changed();
      }
    }
    const creds = ctx.query.includeRefreshToken === true ? 'refresh' : ctx.query.includeCreds === true ? 'access' : 'none';
    return jsonResponse(publicConnection(connection, creds));
  },

  listDestinations(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    return jsonResponse(destinationsOf(ctx, project.id).map(({ projectId: _projectId, ...destination }) => destination));
  },

  deleteDestination(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    const id = ctx.path.destination as string;
    const list = destinationsOf(ctx, project.id);
    if (!list.some((d) => d.id === id)) throw notFound(`no destination ${id} in project ${project.name}`);
    const routes = ctx.state.topicDestinationRoutes.filter((r) => r.destinationId === id);
    if (routes.length > 0) {
      throw conflict(`destination ${id} is still used by ${routes.length} topic destination route(s); delete them first`, {
        routeIds: routes.map((r) => r.id),
      });
    }
    ctx.state.destinations = ctx.state.destinations.filter((d) => d.id !== id);
    ctx.changed();
    return new Response(null, { status: 204 });
  },

  deleteIntegration(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    const id = ctx.path.integrationId as string;
    if (!ctx.state.integrations.some((i) => i.id === id && i.projectId === project.id)) {
      throw notFound(`no integration ${id} in project ${project.name}`);
    }
    ctx.state.integrations = ctx.state.integrations.filter((i) => i.id !== id);
    ctx.state.records = ctx.state.records.filter((r) => r.integrationId !== id);
    ctx.changed();
    return new Response(null, { status: 204 });
  },

  deleteTopic(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    const id = ctx.path.topicId as string;
    if (!ctx.state.topics.some((t) => t.id === id && t.projectId === project.id)) {
      throw notFound(`no topic ${id} in project ${project.name}`);
    }
    const destinationRoutes = ctx.state.topicDestinationRoutes.filter((r) => r.topicId === id);
    const eventRoutes = ctx.state.notificationEventTopicRoutes.filter((r) => r.topicId === id);
    if (destinationRoutes.length + eventRoutes.length > 0) {
      throw conflict(`topic ${id} is still used by ${destinationRoutes.length + eventRoutes.length} route(s); delete them first`, {
        routeIds: [...destinationRoutes, ...eventRoutes].map((r) => r.id),
      });
    }
    ctx.state.topics = ctx.state.topics.filter((t) => t.id !== id);
    ctx.changed();
    return new Response(null, { status: 204 });
  },

  searchRecords(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    const id = ctx.path.integrationId as string;
    const integration = ctx.state.integrations.find((i) => i.id === id && i.projectId === project.id);
    if (!integration) throw notFound(`no integration ${id} in project ${project.name}`);
    const body = ctx.body as SearchRequest;
    const mapping = integration.fieldMappings[body.objectName];
    if (!mapping) {
      throw new HttpProblem({
        status: 400,
        type: PROBLEM_TYPES.validation,
        title: 'Invalid request',
        detail: `integration ${id} reads no object ${body.objectName}; it reads ${Object.keys(integration.fieldMappings).join(', ')}`,
        issues: [{ detail: 'unknown object', in: 'body', name: 'objectName', value: body.objectName }],
      });
    }
    const result: SearchResultEntry[] = ctx.state.records
      .filter((r) => r.integrationId === id && r.groupRef === ctx.query.groupRef && r.objectName === body.objectName)
      .filter((r) => body.fieldFilters.every((f) => String(r.raw[f.fieldName] ?? '') === f.value))
      .map((r) => {
        const fields: Record<string, unknown> = {};
        const mappedFields: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(r.raw)) {
          fields[key.toLowerCase()] = value;
          if (mapping[key]) mappedFields[mapping[key]] = value;
        }
        return { fields, mappedFields, raw: r.raw };
      });
    return jsonResponse({ result });
  },

  listTopicDestinationRoutes(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    return jsonResponse(filtered(ctx.state.topicDestinationRoutes, project.id, ctx.query));
  },

  createNotificationEventTopicRoute(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    const body = ctx.body as CreateNotificationEventTopicRouteRequest;
    if (!ctx.state.topics.some((t) => t.id === body.topicId && t.projectId === project.id)) {
      throw notFound(`no topic ${body.topicId} in project ${project.name}`);
    }
    const existing = ctx.state.notificationEventTopicRoutes.find(
      (r) => r.projectId === project.id && r.topicId === body.topicId && r.eventType === body.eventType,
    );
    if (existing) {
      throw conflict(`event type ${body.eventType} is already routed to topic ${body.topicId}`, { routeId: existing.id });
    }
    const route: NotificationEventTopicRoute = {
      id: newId('ner'),
      eventType: body.eventType,
      topicId: body.topicId,
      projectId: project.id,
      createTime: ctx.now.toISOString(),
      updateTime: ctx.now.toISOString(),
    };
    ctx.state.notificationEventTopicRoutes.push(route);
    ctx.changed();
    return jsonResponse(route, 201);
  },

  listNotificationEventTopicRoutes(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName as string);
    return jsonResponse(filtered(ctx.state.notificationEventTopicRoutes, project.id, ctx.query));
  },
};

/** A project's items whose fields equal every given filter (the validated query), oldest first. */
function filtered<T extends { projectId: string; createTime: string; id: string }>(
  items: T[],
  projectId: string,
  filters: Record<string, unknown>,
): T[] {
  return items
    .filter((item) => item.projectId === projectId)
    .filter((item) => Object.entries(filters).every(([key, value]) => (item as Record<string, unknown>)[key] === value))
    .sort(byCreateTime);
}

function destinationsOf(ctx: OperationContext, projectId: string) {
  return ctx.state.destinations.filter((d) => d.projectId === projectId).sort(byCreateTime);
}

/** Carries out the user's choice on the consent page. Returns the connection ID for an allow. */
export function applyConsent(
  ctx: Pick<OperationContext, 'state' | 'now' | 'verifyDelayMs' | 'changed'>,
  session: ConsentSession,
  decision: 'allow' | 'allow_bad_credentials' | 'deny',
): string | undefined {
  session.decision = decision;
  ctx.changed();
  if (decision === 'deny') return undefined;
  const now = ctx.now.toISOString();
  const provider = findProvider(session.provider)!;
  const app =
    ctx.state.providerApps.find((a) => a.id === session.providerAppId) ??
    ctx.state.providerApps.find((a) => a.projectId === session.projectId && a.provider === session.provider);
  let connection =
    session.mode === 'update'
      ? ctx.state.connections.find((c) => c.id === session.connectionId)
      : ctx.state.connections.find(
          (c) => c.projectId === session.projectId && c.provider === session.provider && c.group.groupRef === session.groupRef,
        );
  if (!connection) {
    if (session.mode === 'update') throw new HttpProblem({ status: 404, detail: `connection ${session.connectionId} no longer exists` });
    connection = {
      id: newId('conn'),
      projectId: session.projectId,
      provider: session.provider,
      group: { groupRef: session.groupRef, groupName: session.groupName, projectId: session.projectId, createTime: now },
      consumer: { consumerRef: session.consumerRef, consumerName: session.consumerName, projectId: session.projectId, createTime: now },
      createTime: now,
      authScheme: 'oauth2/authorizationCode',
      status: 'created',
      tokens: issueTokens(provider.scopes, ctx.now),
    };
    ctx.state.connections.push(connection);
  }
  connection.consumer = { ...connection.consumer, consumerRef: session.consumerRef, consumerName: session.consumerName, updateTime: now };
  connection.group = { ...connection.group, groupName: session.groupName };
  connection.tokens = issueTokens(provider.scopes, ctx.now);
  connection.status = 'created';
  connection.updateTime = now;
  if (app) connection.providerApp = app;
  if (session.providerWorkspaceRef !== undefined) connection.providerWorkspaceRef = session.providerWorkspaceRef;
  if (session.providerMetadata !== undefined) connection.providerMetadata = session.providerMetadata;
  connection.providerConsumerRef ??= `${session.provider}-user-${session.consumerRef}`;
  connection.pending = {
    status: decision === 'allow' ? 'working' : 'bad_credentials',
    at: new Date(ctx.now.getTime() + ctx.verifyDelayMs).toISOString(),
  };
  session.resultConnectionId = connection.id;
  return connection.id;
}
