// Orgs, projects and the provider catalog.
import type { Project } from '../shared/types.js';
import type { Handler } from './context.js';
import { conflict, byCreateTime, findProject, forbidIfOtherOrg, resourceNotFound } from './lookup.js';
import { catalogInfo, findProvider } from './providers.js';
import { newId } from './ids.js';

export const serveListInvites: Handler<'listInvites'> = (ctx) => {
  const { orgId } = ctx.path;
  forbidIfOtherOrg(ctx, orgId);
  if (!ctx.state.orgs.some((o) => o.id === orgId)) throw resourceNotFound(`no org ${orgId}`);
  return { status: 200, body: ctx.state.invites.filter((i) => i.parentId === orgId).sort(byCreateTime) };
};

export const serveCreateProject: Handler<'createProject'> = (ctx) => {
  const body = ctx.body;
  forbidIfOtherOrg(ctx, body.orgId);
  if (!ctx.state.orgs.some((o) => o.id === body.orgId)) throw resourceNotFound(`no org ${body.orgId}`);
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
};

export const serveGetProject: Handler<'getProject'> = (ctx) => {
  const { entitlements, ...project } = findProject(ctx, ctx.path.projectIdOrName);
  return {
    status: 200,
    body: ctx.query.includeEntitlements === true && entitlements ? { ...project, entitlements } : project,
  };
};

export const serveGetProvider: Handler<'getProvider'> = (ctx) => {
  const provider = findProvider(ctx.path.provider);
  if (!provider) throw resourceNotFound(`no provider ${ctx.path.provider} in the catalog`);
  return { status: 200, body: catalogInfo(provider, ctx.publicOrigin) };
};
