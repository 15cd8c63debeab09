// A project's connections: listed, read (refreshed when asked), deleted. A
// connection's verification after consent is settled lazily, when it is read.
import type { Connection } from '../shared/types.js';
import type { Env, Handler } from './context.js';
import { byCreateTime, DELETED, findConnection, findProject } from './lookup.js';
import { issueTokens } from './ids.js';
import { type StoredConnection } from './state.js';

/** Applies a verification whose time has come (lazily: no timers to outlive the emulator). */
export function settleConnection(ctx: Pick<Env, 'now' | 'changed'>, connection: StoredConnection): void {
  if (connection.pending && Date.parse(connection.pending.at) <= ctx.now.getTime()) {
    connection.status = connection.pending.status;
    connection.updateTime = connection.pending.at;
    delete connection.pending;
    ctx.changed();
  }
}

/**
 * A connection as the API answers it: without credentials unless asked for (`access`, or `refresh` for both tokens).
 * Of the credentials generate connection was given, the Connection schema has a field for an API key only: the
 * others are never answered.
 */
function publicConnection(connection: StoredConnection, creds?: 'access' | 'refresh'): Connection {
  const { tokens, pending: _pending, credentials, ...rest } = connection;
  const out: Connection = { ...rest };
  if (creds && credentials?.apiKey !== undefined) out.apiKey = credentials.apiKey;
  if (!tokens) return out;
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

export const serveListConnections: Handler<'listConnections'> = (ctx) => {
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
};

export const serveGetConnection: Handler<'getConnection'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const connection = findConnection(ctx, project, ctx.path.connectionId);
  settleConnection(ctx, connection);
  const refresh = ctx.query.refresh;
  const tokens = connection.tokens;
  // Only a connection with OAuth tokens refreshes; one made with credentials has no token to refresh.
  if (refresh && tokens) {
    const expired = Date.parse(tokens.accessToken.expiresAt ?? '') <= ctx.now.getTime();
    // A connection whose credentials are bad cannot refresh: it stays bad_credentials.
    if ((refresh === 'force' || expired) && connection.status !== 'bad_credentials') {
      connection.tokens = {
        ...issueTokens(tokens.scopes, ctx.now),
        refreshToken: tokens.refreshToken,
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
};

export const serveDeleteConnection: Handler<'deleteConnection'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const connection = findConnection(ctx, project, ctx.path.connectionId);
  ctx.state.connections = ctx.state.connections.filter((c) => c !== connection);
  ctx.changed();
  return DELETED;
};
