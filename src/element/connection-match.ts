// Internal: which connection a flow may take as its own. A connection found
// by polling a severed popup, or claimed by a message from a trusted origin,
// counts only if it is the one the flow asked for and changed since the flow
// began (docs/choices.md).
import type { Connection } from '../shared/types.js';

/**
 * What the flow asked for: its connection (update), or a provider, workspace and app (create). `stampAtStart`: the
 * connection's stamp when an update by form began, whose status counts only once the platform changed it.
 */
export type ConnectionRequest =
  | { mode: 'update'; connectionId: string; stampAtStart?: string }
  | { mode: 'create'; provider: string; workspace?: string; appId?: string };

/**
 * What "changed since the flow began" is judged by: the caller's own connections the backend listed then (ID ->
 * stamp), or, when the backend could not list them, the backend's own clock at its first answer (never the
 * browser's clock; undefined until it answered).
 */
export type Baseline = { listed: Map<string, string> } | { clock: number | undefined };

/** The platform's own time of a connection's last change. */
export const stampOf = (c: Connection): string => c.updateTime ?? c.createTime;

export const listedBaseline = (connections: Connection[]): Baseline => ({
  listed: new Map(connections.map((c) => [c.id, stampOf(c)])),
});

export function matchesRequest(connection: Connection, request: ConnectionRequest): boolean {
  if (request.mode === 'update') return connection.id === request.connectionId;
  return (
    connection.provider === request.provider &&
    (connection.providerWorkspaceRef ?? '') === (request.workspace ?? '') &&
    (!request.appId || connection.providerApp?.id === request.appId)
  );
}

export function changedSince(connection: Connection, baseline: Baseline): boolean {
  if ('listed' in baseline) return baseline.listed.get(connection.id) !== stampOf(connection);
  return baseline.clock !== undefined && Date.parse(stampOf(connection)) >= baseline.clock;
}

/** An update that names the connection's stamp at its start: the connection changed since. Any other: true. */
export const changedSinceStart = (connection: Connection, request: ConnectionRequest): boolean =>
  request.mode !== 'update' || request.stampAtStart === undefined || stampOf(connection) !== request.stampAtStart;
