// Every route the connect handler serves (docs/server.md, "The routes"), in one table.
// A path is matched by its end, so the handler serves under any prefix; the
// first pattern that matches names the resource, and the request's method
// picks its operation among that resource's routes (405 for another method,
// naming the option to set when an option turned that method's route off).
import { HttpProblem, methodNotAllowed } from '../http/http-problem.js';
import {
  createConnection,
  deleteConnection,
  getConnection,
  getProvider,
  listConnections,
  listIntegrations,
  oauthConnect,
  oauthUpdate,
  updateConnection,
  type Operation,
} from './operations.js';
import { HANDLER_PROBLEM_TYPES, notFound } from './handler-problems.js';

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Matches the end of the path; its one group, if any, is the operation's `segment`. */
  path: RegExp;
  operation: Operation;
  /** Served only when this option is on. */
  option?: 'allowDisconnect';
}

const OAUTH_CONNECT = /\/oauth-connect\/?$/;
const OAUTH_UPDATE = /\/connections\/([^/]+):oauth-update\/?$/;
const CONNECTION = /\/connections\/([^/]+)\/?$/;
const CONNECTIONS = /\/connections\/?$/;
const PROVIDER = /\/providers\/([^/]+)\/?$/;
const INTEGRATIONS = /\/integrations\/?$/;

export const ROUTES: readonly Route[] = [
  // POST {endpoint}/oauth-connect: a consent URL for a new connection of the caller
  { method: 'POST', path: OAUTH_CONNECT, operation: oauthConnect },
  // PATCH {endpoint}/connections/{id}:oauth-update: a consent URL to re-authorize a connection of the caller's group
  { method: 'PATCH', path: OAUTH_UPDATE, operation: oauthUpdate },
  // GET {endpoint}/connections/{id}: one of the caller's group's connections
  { method: 'GET', path: CONNECTION, operation: getConnection },
  // PATCH {endpoint}/connections/{id}: new credentials for a connection of the caller's group (form providers)
  { method: 'PATCH', path: CONNECTION, operation: updateConnection },
  // DELETE {endpoint}/connections/{id}: disconnects it (only with allowDisconnect)
  { method: 'DELETE', path: CONNECTION, operation: deleteConnection, option: 'allowDisconnect' },
  // GET {endpoint}/connections?provider=&own=true (both optional): the caller's group's connections, newest first
  { method: 'GET', path: CONNECTIONS, operation: listConnections },
  // POST {endpoint}/connections: a connection made with the credential the user typed (form providers)
  { method: 'POST', path: CONNECTIONS, operation: createConnection },
  // GET {endpoint}/providers/{name}: what the element shows of a provider
  { method: 'GET', path: PROVIDER, operation: getProvider },
  // GET {endpoint}/integrations: the providers of the project's integrations, each with what the element shows of it
  // (after the routes above, so /providers/integrations stays a provider and /connections/integrations a connection)
  { method: 'GET', path: INTEGRATIONS, operation: listIntegrations },
];

/** What the 405 of a route its option turned off says: the option to set, where the developer reads. */
const TURNED_OFF: Record<NonNullable<Route['option']>, { type: string; detail: string }> = {
  allowDisconnect: {
    type: HANDLER_PROBLEM_TYPES.disconnectOff,
    detail: 'disconnecting is off: set allowDisconnect: true in createConnectHandler to serve DELETE',
  },
};

/** The routes a handler serves with these options. */
export function enabledRoutes(options: { allowDisconnect: boolean }): readonly Route[] {
  return ROUTES.filter((route) => route.option === undefined || options[route.option]);
}

/** The route of a request, with the path segment it captured; a 404 or 405 problem when there is none. */
export function findRoute(
  routes: readonly Route[],
  method: string,
  pathname: string,
): { route: Route; segment: string } {
  let resource: RegExp | undefined;
  let segment = '';
  for (const route of routes) {
    const match = route.path.exec(pathname);
    if (match) {
      resource = route.path;
      segment = match[1] ?? '';
      break;
    }
  }
  if (!resource) throw notFound('no such connect route');
  const candidates = routes.filter((route) => route.path === resource);
  const route = candidates.find((candidate) => candidate.method === method);
  if (route) return { route, segment };
  const allow = candidates.map((candidate) => candidate.method).join(', ');
  const off = ROUTES.find((candidate) => candidate.path === resource && candidate.method === method)?.option;
  if (off) throw new HttpProblem({ status: 405, ...TURNED_OFF[off] }, { allow });
  throw methodNotAllowed(method, allow);
}
