// Starting an authorization: oauth-connect for a new connection, oauth-update
// for an existing one. Both answer the consent link (consent.ts).
import type { ProblemIssue } from '../shared/types.js';
import { HttpProblem, invalidRequest } from '../http/http-problem.js';
import { startConsent } from './consent.js';
import { PROBLEM_TYPES, refusal, type Handler } from './context.js';
import { catalogProvider, findConnection, findProject } from './lookup.js';
import { findProvider, PROVIDERS, signsInByConsent, type CatalogEntry } from './providers.js';

/**
 * oauth-connect's body may name the project by the real service's newer field, projectIdOrName: it stands in for
 * projectId, before the body is validated. (A body that is no object has no such field, and fails validation.)
 */
export function projectIdOrNameAlias(body: unknown): void {
  const b = body as Record<string, unknown> | null;
  if (b?.projectId === undefined && b?.projectIdOrName !== undefined) b.projectId = b.projectIdOrName;
}

/**
 * What oauth-connect lacks for the provider, as issues: the workspace when
 * oauth2Opts.explicitWorkspaceRequired, and a non-empty string `value` for each
 * metadata.input item (the platform's `{ [name]: { value, source: 'input' } }`).
 */
export function missingInputs(
  provider: CatalogEntry,
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

/** The catalog's provider of this name; a 400 whose issue names `provider` when there is none. */
export function requestedProvider(name: string): CatalogEntry {
  const provider = findProvider(name);
  if (provider) return provider;
  throw new HttpProblem({
    status: 400,
    type: PROBLEM_TYPES.unknownProvider,
    title: 'Unknown provider',
    detail: `unknown provider ${name}; known providers: ${PROVIDERS.map((p) => p.name).join(', ')}`,
    issues: [
      { type: PROBLEM_TYPES.unknownProvider, detail: 'unknown provider', in: 'body', name: 'provider', value: name },
    ],
  });
}

/** A 400 for a consent flow with a provider that signs in with credentials (generate connection is its way). */
function refuseCredentialProvider(provider: CatalogEntry): void {
  if (signsInByConsent(provider)) return;
  const detail = `${provider.displayName} signs in with credentials, not on a consent page: use generate connection (POST /projects/{projectIdOrName}/connections:generate)`;
  throw invalidRequest(detail, [{ detail, in: 'body', name: 'provider', value: provider.name }]);
}

export const serveOauthConnect: Handler<'oauthConnect'> = (ctx) => {
  const body = ctx.body;
  const project = findProject(ctx, body.projectId);
  const provider = requestedProvider(body.provider);
  refuseCredentialProvider(provider);
  const missing = missingInputs(provider, body);
  if (missing.length > 0) throw refusal(missing, `${provider.displayName}: `);
  if (body.providerAppId !== undefined) {
    const app = ctx.state.providerApps.find((a) => a.id === body.providerAppId && a.projectId === project.id);
    if (!app || app.provider !== provider.name) {
      throw invalidRequest(`no ${provider.name} provider app ${body.providerAppId} in project ${project.name}`, [
        {
          detail: 'no such provider app for this provider',
          in: 'body',
          name: 'providerAppId',
          value: body.providerAppId,
        },
      ]);
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
};

export const serveOauthUpdate: Handler<'oauthUpdate'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const connection = findConnection(ctx, project, ctx.path.connectionId);
  refuseCredentialProvider(catalogProvider(connection.provider));
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
};
