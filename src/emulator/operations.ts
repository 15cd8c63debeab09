// The operations' behaviour, one handler per operationId of openapi.yaml,
// typed from the generated `operations`: a missing handler, a parameter read
// under a wrong name or an answer of an undocumented status is a compile error.
// Requests reach these already routed, authenticated and validated.
import type { operations as Spec } from '../shared/schema.js';
import type { Connection, ProblemIssue, Project, SearchResultEntry } from '../shared/types.js';
import { HttpProblem } from '../http/problem.js';
import type { Principal } from './auth.js';
import { PROBLEM_TYPES, startConsent, type Env } from './consent.js';
import { catalogInfo, findProvider, PROVIDERS, type ProviderInfo } from './providers.js';
import { issueTokens, newId, type EmulatorState, type StoredConnection, type StoredIntegration } from './store.js';

export type OperationId = keyof Spec;
type Params<K extends OperationId> = Spec[K]['parameters'];
type Content<R> = R extends { content: infer C } ? C[keyof C] : never;
type SuccessStatus<K extends OperationId> = Extract<keyof Spec[K]['responses'], 200 | 201 | 204>;

/** What a handler of operation K answers: one of its documented success statuses, with that status's body. */
export type Answer<K extends OperationId> = {
  [S in SuccessStatus<K>]: Spec[K]['responses'][S] extends { content: object }
    ? { status: S; body: Content<Spec[K]['responses'][S]>; headers?: Record<string, string> }
    : { status: S; body?: undefined; headers?: Record<string, string> };
}[SuccessStatus<K>];

export interface OperationContext<K extends OperationId> extends Env {
  principal: Principal;
  path: NonNullable<Params<K>['path']>;
  query: NonNullable<Params<K>['query']>;
  body: Spec[K]['requestBody'] extends { content: { 'application/json': infer B } } ? B : undefined;
}

export type Handler<K extends OperationId> = (ctx: OperationContext<K>) => Answer<K>;

function notFound(detail: string): HttpProblem {
  return new HttpProblem({ status: 404, detail });
}

function conflict(detail: string, context?: Record<string, unknown>): HttpProblem {
  return new HttpProblem({
    status: 409,
    type: PROBLEM_TYPES.conflict,
    title: 'Conflict',
    detail,
    ...(context ? { context } : {}),
  });
}

function forbidIfOtherOrg(ctx: { principal: Principal }, orgId: string): void {
  if (ctx.principal.kind === 'bearer' && ctx.principal.claims.org !== orgId) {
    throw new HttpProblem({ status: 403, detail: `the Bearer token may act for org ${ctx.principal.claims.org} only` });
  }
}

/** Finds a project by ID or (case-insensitive) name; 404 when none, 403 for another org's Bearer token. */
export function findProject(ctx: { state: EmulatorState; principal: Principal }, idOrName: string): Project {
  const lower = idOrName.toLowerCase();
  const project = ctx.state.projects.find((p) => p.id === idOrName || p.name === lower);
  if (!project) throw notFound(`no project ${idOrName}`);
  forbidIfOtherOrg(ctx, project.orgId);
  return project;
}

function findConnection(ctx: { state: EmulatorState }, project: Project, id: string): StoredConnection {
  const connection = ctx.state.connections.find((c) => c.id === id && c.projectId === project.id);
  if (!connection) throw notFound(`no connection ${id} in project ${project.name}`);
  return connection;
}

/** Applies a verification whose time has come (lazily: no timers to outlive the emulator). */
export function settleConnection(ctx: Pick<Env, 'now' | 'changed'>, connection: StoredConnection): void {
  if (connection.pending && Date.parse(connection.pending.at) <= ctx.now.getTime()) {
    connection.status = connection.pending.status;
    connection.updateTime = connection.pending.at;
    delete connection.pending;
    ctx.changed();
  }
}

/** A connection as the API answers it: without credentials unless asked for (`access`, or `refresh` for both tokens). */
function publicConnection(connection: StoredConnection, creds?: 'access' | 'refresh'): Connection {
  const { tokens, pending: _pending, ...rest } = connection;
  const out: Connection = { ...rest };
  if (creds === 'access') out.oauth2AuthorizationCode = { accessToken: tokens.accessToken, scopes: tokens.scopes };
  if (creds === 'refresh') {
    out.oauth2AuthorizationCode = {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      scopes: tokens.scopes,
    };
  }
  return out;
}

function publicIntegration(integration: StoredIntegration) {
  const { fieldMappings, ...rest } = integration;
  return {
    ...rest,
    latestRevision: {
      id: `rev_${integration.id}_1`,
      specVersion: '1.0.0',
      createTime: integration.createTime,
      content: {
        read: {
          objects: Object.keys(fieldMappings).map((objectName) => ({ objectName, fields: fieldMappings[objectName] })),
        },
      },
    },
  };
}

/**
 * What oauth-connect lacks for the provider, as issues: the workspace when
 * oauth2Opts.explicitWorkspaceRequired, and a non-empty string `value` for each
 * metadata.input item (the platform's `{ [name]: { value, source: 'input' } }`).
 */
function missingInputs(
  provider: ProviderInfo,
  body: { providerWorkspaceRef?: string; providerMetadata?: Record<string, unknown> },
): ProblemIssue[] {
  const issues: ProblemIssue[] = [];
  if (provider.explicitWorkspaceRequired && !body.providerWorkspaceRef?.trim()) {
    issues.push({
      detail: 'providerWorkspaceRef is required: this provider needs its workspace before the OAuth flow',
      in: 'body',
      name: 'providerWorkspaceRef',
    });
  }
  for (const input of provider.inputs ?? []) {
    const metadata = body.providerMetadata;
    const item = metadata && Object.hasOwn(metadata, input.name) ? metadata[input.name] : undefined;
    const value = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).value : undefined;
    if (typeof value !== 'string' || value.trim() === '') {
      issues.push({
        detail: `providerMetadata.${input.name}.value is required: ${input.displayName ?? input.name}, a non-empty string`,
        in: 'body',
        name: `providerMetadata.${input.name}`,
      });
    }
  }
  return issues;
}

function byCreateTime<T extends { createTime: string; id: string }>(a: T, b: T): number {
  return a.createTime.localeCompare(b.createTime) || a.id.localeCompare(b.id);
}

const DELETED = { status: 204 } as const;

/** One handler per operation of openapi.yaml. */
export const handlers: { [K in OperationId]: Handler<K> } = {
  listInvites(ctx) {
    const { orgId } = ctx.path;
    forbidIfOtherOrg(ctx, orgId);
    if (!ctx.state.orgs.some((o) => o.id === orgId)) throw notFound(`no org ${orgId}`);
    return { status: 200, body: ctx.state.invites.filter((i) => i.parentId === orgId).sort(byCreateTime) };
  },

  oauthConnect(ctx) {
    const body = ctx.body;
    const project = findProject(ctx, body.projectId);
    const provider = findProvider(body.provider);
    if (!provider) {
      throw new HttpProblem({
        status: 400,
        type: PROBLEM_TYPES.unknownProvider,
        title: 'Unknown provider',
        detail: `unknown provider ${body.provider}; known providers: ${PROVIDERS.map((p) => p.name).join(', ')}`,
        issues: [
          {
            type: PROBLEM_TYPES.unknownProvider,
            detail: 'unknown provider',
            in: 'body',
            name: 'provider',
            value: body.provider,
          },
        ],
      });
    }
    const missing = missingInputs(provider, body);
    if (missing.length > 0) {
      throw new HttpProblem({
        status: 400,
        type: PROBLEM_TYPES.validation,
        title: 'Invalid request',
        detail:
          missing.length === 1
            ? `${provider.displayName}: ${missing[0].detail}`
            : `${provider.displayName}: ${missing.length} problems: ${missing.map((i) => i.detail).join('; ')}`,
        issues: missing,
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
          issues: [
            {
              detail: 'no such provider app for this provider',
              in: 'body',
              name: 'providerAppId',
              value: body.providerAppId,
            },
          ],
        });
      }
    }
    const url = startConsent(ctx, {
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
    return { status: 200, body: url };
  },

  oauthUpdate(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    const connection = findConnection(ctx, project, ctx.path.connectionId);
    const url = startConsent(ctx, {
      mode: 'update',
      projectId: project.id,
      provider: connection.provider,
      groupRef: connection.group.groupRef,
      groupName: connection.group.groupName,
      consumerRef: connection.consumer.consumerRef,
      consumerName: connection.consumer.consumerName,
      connectionId: connection.id,
    });
    return { status: 200, body: url };
  },

  createProject(ctx) {
    const body = ctx.body;
    forbidIfOtherOrg(ctx, body.orgId);
    if (!ctx.state.orgs.some((o) => o.id === body.orgId)) throw notFound(`no org ${body.orgId}`);
    const name = body.name.toLowerCase();
    if (ctx.state.projects.some((p) => p.name === name))
      throw conflict(`a project named ${name} exists already`, { name });
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
    return { status: 201, body: project, headers: { location: `${ctx.publicOrigin}/v1/projects/${project.id}` } };
  },

  getProject(ctx) {
    const { entitlements, ...project } = findProject(ctx, ctx.path.projectIdOrName);
    return {
      status: 200,
      body: ctx.query.includeEntitlements === true && entitlements ? { ...project, entitlements } : project,
    };
  },

  getProvider(ctx) {
    const provider = findProvider(ctx.path.provider);
    if (!provider) throw notFound(`no provider ${ctx.path.provider} in the catalog`);
    return { status: 200, body: catalogInfo(provider, ctx.publicOrigin) };
  },

  listConnections(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
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
    return { status: 200, body: connections.map((c) => publicConnection(c)) };
  },

  getConnection(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    const connection = findConnection(ctx, project, ctx.path.connectionId);
    settleConnection(ctx, connection);
    const refresh = ctx.query.refresh;
    if (refresh) {
      const expired = Date.parse(connection.tokens.accessToken.expiresAt ?? '') <= ctx.now.getTime();
      // A connection whose credentials are bad cannot refresh: it stays bad_credentials.
      if ((refresh === 'force' || expired) && connection.status !== 'bad_credentials') {
        connection.tokens = {
          ...issueTokens(connection.tokens.scopes, ctx.now),
          refreshToken: connection.tokens.refreshToken,
        };
        connection.status = 'created';
        connection.updateTime = ctx.now.toISOString();
        connection.pending = { status: 'working', at: new Date(ctx.now.getTime() + ctx.verifyDelayMs).toISOString() };
        ctx.changed();
      }
    }
    const creds =
      ctx.query.includeRefreshToken === true ? 'refresh' : ctx.query.includeCreds === true ? 'access' : undefined;
    return { status: 200, body: publicConnection(connection, creds) };
  },

  deleteConnection(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    const connection = findConnection(ctx, project, ctx.path.connectionId);
    ctx.state.connections = ctx.state.connections.filter((c) => c !== connection);
    ctx.changed();
    return DELETED;
  },

  listDestinations(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    return {
      status: 200,
      body: destinationsOf(ctx.state, project.id).map(({ projectId: _projectId, ...destination }) => destination),
    };
  },

  deleteDestination(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    const id = ctx.path.destination;
    const list = destinationsOf(ctx.state, project.id);
    if (!list.some((d) => d.id === id)) throw notFound(`no destination ${id} in project ${project.name}`);
    const routes = ctx.state.topicDestinationRoutes.filter((r) => r.destinationId === id);
    if (routes.length > 0) {
      throw conflict(
        `destination ${id} is still used by ${routes.length} topic destination route(s); delete them first`,
        {
          routeIds: routes.map((r) => r.id),
        },
      );
    }
    ctx.state.destinations = ctx.state.destinations.filter((d) => d.id !== id);
    ctx.changed();
    return DELETED;
  },

  listIntegrations(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    return {
      status: 200,
      body: ctx.state.integrations
        .filter((i) => i.projectId === project.id)
        .sort(byCreateTime)
        .map(publicIntegration),
    };
  },

  deleteIntegration(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    const id = ctx.path.integrationId;
    if (!ctx.state.integrations.some((i) => i.id === id && i.projectId === project.id)) {
      throw notFound(`no integration ${id} in project ${project.name}`);
    }
    ctx.state.integrations = ctx.state.integrations.filter((i) => i.id !== id);
    ctx.state.records = ctx.state.records.filter((r) => r.integrationId !== id);
    ctx.changed();
    return DELETED;
  },

  listProviderApps(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    return { status: 200, body: ctx.state.providerApps.filter((a) => a.projectId === project.id).sort(byCreateTime) };
  },

  deleteTopic(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    const id = ctx.path.topicId;
    if (!ctx.state.topics.some((t) => t.id === id && t.projectId === project.id)) {
      throw notFound(`no topic ${id} in project ${project.name}`);
    }
    const destinationRoutes = ctx.state.topicDestinationRoutes.filter((r) => r.topicId === id);
    const eventRoutes = ctx.state.notificationEventTopicRoutes.filter((r) => r.topicId === id);
    if (destinationRoutes.length + eventRoutes.length > 0) {
      throw conflict(
        `topic ${id} is still used by ${destinationRoutes.length + eventRoutes.length} route(s); delete them first`,
        {
          routeIds: [...destinationRoutes, ...eventRoutes].map((r) => r.id),
        },
      );
    }
    ctx.state.topics = ctx.state.topics.filter((t) => t.id !== id);
    ctx.changed();
    return DELETED;
  },

  searchRecords(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    const id = ctx.path.integrationId;
    const integration = ctx.state.integrations.find((i) => i.id === id && i.projectId === project.id);
    if (!integration) throw notFound(`no integration ${id} in project ${project.name}`);
    const body = ctx.body;
    const mapping = Object.hasOwn(integration.fieldMappings, body.objectName)
      ? integration.fieldMappings[body.objectName]
      : undefined;
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
          if (Object.hasOwn(mapping, key)) mappedFields[mapping[key]] = value;
        }
        return { fields, mappedFields, raw: r.raw };
      });
    return { status: 200, body: { result } };
  },

  listTopicDestinationRoutes(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    return { status: 200, body: filtered(ctx.state.topicDestinationRoutes, project.id, ctx.query) };
  },

  createNotificationEventTopicRoute(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    const body = ctx.body;
    if (!ctx.state.topics.some((t) => t.id === body.topicId && t.projectId === project.id)) {
      throw notFound(`no topic ${body.topicId} in project ${project.name}`);
    }
    const existing = ctx.state.notificationEventTopicRoutes.find(
      (r) => r.projectId === project.id && r.topicId === body.topicId && r.eventType === body.eventType,
    );
    if (existing) {
      throw conflict(`event type ${body.eventType} is already routed to topic ${body.topicId}`, {
        routeId: existing.id,
      });
    }
    const route = {
      id: newId('ner'),
      eventType: body.eventType,
      topicId: body.topicId,
      projectId: project.id,
      createTime: ctx.now.toISOString(),
      updateTime: ctx.now.toISOString(),
    };
    ctx.state.notificationEventTopicRoutes.push(route);
    ctx.changed();
    return { status: 201, body: route };
  },

  listNotificationEventTopicRoutes(ctx) {
    const project = findProject(ctx, ctx.path.projectIdOrName);
    return { status: 200, body: filtered(ctx.state.notificationEventTopicRoutes, project.id, ctx.query) };
  },
};

/** A project's items whose fields equal every given filter (the validated query), oldest first. */
function filtered<T extends { projectId: string; createTime: string; id: string }>(
  items: T[],
  projectId: string,
  filters: object,
): T[] {
  return items
    .filter((item) => item.projectId === projectId)
    .filter((item) => Object.entries(filters).every(([key, value]) => (item as Record<string, unknown>)[key] === value))
    .sort(byCreateTime);
}

function destinationsOf(state: EmulatorState, projectId: string) {
  return state.destinations.filter((d) => d.projectId === projectId).sort(byCreateTime);
}
