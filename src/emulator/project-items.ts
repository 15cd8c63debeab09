// A project's other resources: destinations, integrations and their records,
// provider apps, topics and the routes between them.
import type { SearchResultEntry } from '../shared/types.js';
import { invalidRequest } from '../http/http-problem.js';
import type { Handler } from './context.js';
import { byCreateTime, conflict, DELETED, filtered, findProject, resourceNotFound } from './lookup.js';
import { newId } from './ids.js';
import { type EmulatorState, type StoredIntegration } from './state.js';

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

function destinationsOf(state: EmulatorState, projectId: string) {
  return state.destinations.filter((d) => d.projectId === projectId).sort(byCreateTime);
}

export const serveListDestinations: Handler<'listDestinations'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  return {
    status: 200,
    body: destinationsOf(ctx.state, project.id).map(({ projectId: _projectId, ...destination }) => destination),
  };
};

export const serveDeleteDestination: Handler<'deleteDestination'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const id = ctx.path.destination;
  const list = destinationsOf(ctx.state, project.id);
  if (!list.some((d) => d.id === id)) throw resourceNotFound(`no destination ${id} in project ${project.name}`);
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
};

export const serveListIntegrations: Handler<'listIntegrations'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  return {
    status: 200,
    body: ctx.state.integrations
      .filter((i) => i.projectId === project.id)
      .sort(byCreateTime)
      .map(publicIntegration),
  };
};

export const serveDeleteIntegration: Handler<'deleteIntegration'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const id = ctx.path.integrationId;
  if (!ctx.state.integrations.some((i) => i.id === id && i.projectId === project.id)) {
    throw resourceNotFound(`no integration ${id} in project ${project.name}`);
  }
  ctx.state.integrations = ctx.state.integrations.filter((i) => i.id !== id);
  ctx.state.records = ctx.state.records.filter((r) => r.integrationId !== id);
  ctx.changed();
  return DELETED;
};

export const serveSearchRecords: Handler<'searchRecords'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const id = ctx.path.integrationId;
  const integration = ctx.state.integrations.find((i) => i.id === id && i.projectId === project.id);
  if (!integration) throw resourceNotFound(`no integration ${id} in project ${project.name}`);
  const body = ctx.body;
  const mapping = Object.hasOwn(integration.fieldMappings, body.objectName)
    ? integration.fieldMappings[body.objectName]
    : undefined;
  if (!mapping) {
    throw invalidRequest(
      `integration ${id} reads no object ${body.objectName}; it reads ${Object.keys(integration.fieldMappings).join(', ')}`,
      [{ detail: 'unknown object', in: 'body', name: 'objectName', value: body.objectName }],
    );
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
};

export const serveListProviderApps: Handler<'listProviderApps'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  return { status: 200, body: ctx.state.providerApps.filter((a) => a.projectId === project.id).sort(byCreateTime) };
};

export const serveDeleteTopic: Handler<'deleteTopic'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const id = ctx.path.topicId;
  if (!ctx.state.topics.some((t) => t.id === id && t.projectId === project.id)) {
    throw resourceNotFound(`no topic ${id} in project ${project.name}`);
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
};

export const serveListTopicDestinationRoutes: Handler<'listTopicDestinationRoutes'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  return { status: 200, body: filtered(ctx.state.topicDestinationRoutes, project.id, ctx.query) };
};

export const serveCreateNotificationEventTopicRoute: Handler<'createNotificationEventTopicRoute'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const body = ctx.body;
  if (!ctx.state.topics.some((t) => t.id === body.topicId && t.projectId === project.id)) {
    throw resourceNotFound(`no topic ${body.topicId} in project ${project.name}`);
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
};

export const serveListNotificationEventTopicRoutes: Handler<'listNotificationEventTopicRoutes'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  return { status: 200, body: filtered(ctx.state.notificationEventTopicRoutes, project.id, ctx.query) };
};
