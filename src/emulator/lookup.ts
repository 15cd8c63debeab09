// What the operations look up in the state, and the problems they answer
// when it is not there (404), not theirs (403), in the way (409) or names a
// provider that has left the catalog (400).
import type { Project } from '../shared/types.js';
import { HttpProblem, invalidRequest } from '../http/http-problem.js';
import type { TokenClaims } from './jwt.js';
import { PROBLEM_TYPES } from './context.js';
import { findProvider, type CatalogEntry } from './providers.js';
import type { EmulatorState, StoredConnection } from './state.js';

export function resourceNotFound(detail: string): HttpProblem {
  return new HttpProblem({ status: 404, detail });
}

export function conflict(detail: string, context?: Record<string, unknown>): HttpProblem {
  return new HttpProblem({
    status: 409,
    type: PROBLEM_TYPES.conflict,
    title: 'Conflict',
    detail,
    ...(context ? { context } : {}),
  });
}

export function forbidIfOtherOrg(ctx: { bearer: TokenClaims | undefined }, orgId: string): void {
  if (ctx.bearer && ctx.bearer.org !== orgId) {
    throw new HttpProblem({ status: 403, detail: `the Bearer token may act for org ${ctx.bearer.org} only` });
  }
}

/** Finds a project by ID or (case-insensitive) name; 404 when none, 403 for another org's Bearer token. */
export function findProject(ctx: { state: EmulatorState; bearer: TokenClaims | undefined }, idOrName: string): Project {
  const lower = idOrName.toLowerCase();
  const project = ctx.state.projects.find((p) => p.id === idOrName || p.name === lower);
  if (!project) throw resourceNotFound(`no project ${idOrName}`);
  forbidIfOtherOrg(ctx, project.orgId);
  return project;
}

export function findConnection(ctx: { state: EmulatorState }, project: Project, id: string): StoredConnection {
  const connection = ctx.state.connections.find((c) => c.id === id && c.projectId === project.id);
  if (!connection) throw resourceNotFound(`no connection ${id} in project ${project.name}`);
  return connection;
}

/**
 * The catalog's provider a stored connection or consent link names: a 400 saying so when it is no longer there (a
 * data file written by an emulator whose catalog had it), so the connection can be read and deleted, not changed.
 */
export function catalogProvider(name: string): CatalogEntry {
  const provider = findProvider(name);
  if (!provider) throw invalidRequest(`the provider ${name} is not in the catalog`);
  return provider;
}

export function byCreateTime<T extends { createTime: string; id: string }>(a: T, b: T): number {
  return a.createTime.localeCompare(b.createTime) || a.id.localeCompare(b.id);
}

/** A project's items whose fields equal every given filter (the validated query), oldest first. */
export function filtered<T extends { projectId: string; createTime: string; id: string }>(
  items: T[],
  projectId: string,
  filters: object,
): T[] {
  return items
    .filter((item) => item.projectId === projectId)
    .filter((item) => Object.entries(filters).every(([key, value]) => (item as Record<string, unknown>)[key] === value))
    .sort(byCreateTime);
}

/** What a delete answers. */
export const DELETED = { status: 204 } as const;
