// Every operation of openapi.yaml and the function that carries it out, in one
// table (the method and path as the document gives them). The dispatcher
// (dispatch.ts) finds the operation of a request in the document, checks its
// credentials and input, and calls the function here; a missing one is a
// compile error (the keys are the generated `operations`).
import { projectIdOrNameAlias, oauthConnect, oauthUpdate } from './connect.js';
import { deleteConnection, getConnection, listConnections } from './connections.js';
import type { Handler, OperationId } from './context.js';
import { generateConnection, updateConnection } from './credentials.js';
import {
  createNotificationEventTopicRoute,
  deleteDestination,
  deleteIntegration,
  deleteTopic,
  listDestinations,
  listIntegrations,
  listNotificationEventTopicRoutes,
  listProviderApps,
  listTopicDestinationRoutes,
  searchRecords,
} from './project-items.js';
import { createProject, getProject, getProvider, listInvites } from './projects.js';

/** One handler per operation of openapi.yaml. */
export const handlers: { [K in OperationId]: Handler<K> } = {
  oauthConnect, //                      POST   /v1/oauth-connect
  oauthUpdate, //                       PATCH  /v1/projects/{projectIdOrName}/connections/{connectionId}:oauth-update
  listConnections, //                   GET    /v1/projects/{projectIdOrName}/connections
  getConnection, //                     GET    /v1/projects/{projectIdOrName}/connections/{connectionId}
  deleteConnection, //                  DELETE /v1/projects/{projectIdOrName}/connections/{connectionId}
  generateConnection, //                POST   /v1/projects/{projectIdOrName}/connections:generate
  updateConnection, //                  PATCH  /v1/projects/{projectIdOrName}/connections/{connectionId}
  getProvider, //                       GET    /v1/providers/{provider}
  listInvites, //                       GET    /v1/orgs/{orgId}/invites
  createProject, //                     POST   /v1/projects
  getProject, //                        GET    /v1/projects/{projectIdOrName}
  listDestinations, //                  GET    /v1/projects/{projectIdOrName}/destinations
  deleteDestination, //                 DELETE /v1/projects/{projectIdOrName}/destinations/{destination}
  listIntegrations, //                  GET    /v1/projects/{projectIdOrName}/integrations
  deleteIntegration, //                 DELETE /v1/projects/{projectIdOrName}/integrations/{integrationId}
  searchRecords, //                     POST   /search/v1/projects/{projectIdOrName}/integrations/{integrationId}
  listProviderApps, //                  GET    /v1/projects/{projectIdOrName}/provider-apps
  deleteTopic, //                       DELETE /v1/projects/{projectIdOrName}/topics/{topicId}
  listTopicDestinationRoutes, //        GET    /v1/projects/{projectIdOrName}/topic-destination-routes
  createNotificationEventTopicRoute, // POST   /v1/projects/{projectIdOrName}/notification-event-topic-routes
  listNotificationEventTopicRoutes, //  GET    /v1/projects/{projectIdOrName}/notification-event-topic-routes
};

/** What an operation does to its body before it is validated (a field accepted under another name). */
export const beforeValidation: { readonly [K in OperationId]?: (body: unknown) => void } = {
  oauthConnect: projectIdOrNameAlias,
};
