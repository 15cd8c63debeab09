// Every operation of openapi.yaml and the function that carries it out, in one
// table (the method and path as the document gives them). The dispatcher
// (dispatch.ts) finds the operation of a request in the document, checks its
// credentials and input, and calls the function here; a missing one is a
// compile error (the keys are the generated `operations`).
import { projectIdOrNameAlias, serveOauthConnect, serveOauthUpdate } from './connect.js';
import { serveDeleteConnection, serveGetConnection, serveListConnections } from './connections.js';
import type { Handler, OperationId } from './context.js';
import { serveGenerateConnection, serveUpdateConnection } from './credentials.js';
import {
  serveCreateNotificationEventTopicRoute,
  serveDeleteDestination,
  serveDeleteIntegration,
  serveDeleteTopic,
  serveListDestinations,
  serveListIntegrations,
  serveListNotificationEventTopicRoutes,
  serveListProviderApps,
  serveListTopicDestinationRoutes,
  serveSearchRecords,
} from './project-items.js';
import { serveCreateProject, serveGetProject, serveGetProvider, serveListInvites } from './projects.js';

/** One handler per operation of openapi.yaml, each under the method and path that route to it. */
export const handlers: { [K in OperationId]: Handler<K> } = {
  // POST /v1/oauth-connect
  oauthConnect: serveOauthConnect,
  // PATCH /v1/projects/{projectIdOrName}/connections/{connectionId}:oauth-update
  oauthUpdate: serveOauthUpdate,
  // GET /v1/projects/{projectIdOrName}/connections
  listConnections: serveListConnections,
  // GET /v1/projects/{projectIdOrName}/connections/{connectionId}
  getConnection: serveGetConnection,
  // DELETE /v1/projects/{projectIdOrName}/connections/{connectionId}
  deleteConnection: serveDeleteConnection,
  // POST /v1/projects/{projectIdOrName}/connections:generate
  generateConnection: serveGenerateConnection,
  // PATCH /v1/projects/{projectIdOrName}/connections/{connectionId}
  updateConnection: serveUpdateConnection,
  // GET /v1/providers/{provider}
  getProvider: serveGetProvider,
  // GET /v1/orgs/{orgId}/invites
  listInvites: serveListInvites,
  // POST /v1/projects
  createProject: serveCreateProject,
  // GET /v1/projects/{projectIdOrName}
  getProject: serveGetProject,
  // GET /v1/projects/{projectIdOrName}/destinations
  listDestinations: serveListDestinations,
  // DELETE /v1/projects/{projectIdOrName}/destinations/{destination}
  deleteDestination: serveDeleteDestination,
  // GET /v1/projects/{projectIdOrName}/integrations
  listIntegrations: serveListIntegrations,
  // DELETE /v1/projects/{projectIdOrName}/integrations/{integrationId}
  deleteIntegration: serveDeleteIntegration,
  // POST /search/v1/projects/{projectIdOrName}/integrations/{integrationId}
  searchRecords: serveSearchRecords,
  // GET /v1/projects/{projectIdOrName}/provider-apps
  listProviderApps: serveListProviderApps,
  // DELETE /v1/projects/{projectIdOrName}/topics/{topicId}
  deleteTopic: serveDeleteTopic,
  // GET /v1/projects/{projectIdOrName}/topic-destination-routes
  listTopicDestinationRoutes: serveListTopicDestinationRoutes,
  // POST /v1/projects/{projectIdOrName}/notification-event-topic-routes
  createNotificationEventTopicRoute: serveCreateNotificationEventTopicRoute,
  // GET /v1/projects/{projectIdOrName}/notification-event-topic-routes
  listNotificationEventTopicRoutes: serveListNotificationEventTopicRoutes,
};

/** What an operation does to its body before it is validated (a field accepted under another name). */
export const beforeValidation: { readonly [K in OperationId]?: (body: unknown) => void } = {
  oauthConnect: projectIdOrNameAlias,
};
