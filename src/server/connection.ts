// What of a platform Connection reaches the browser: an allow-list of its
// non-secret fields, each kept only with the type the spec gives it (status
// and authScheme only with one of the spec's values). Anything
// else the platform sends (credentials under any name, free-form metadata,
// fields a future version adds) stays on the server.
import type { Connection } from '../shared/types.js';

type Shape = 'string' | 'timestamp' | 'scopes' | readonly string[] | { readonly [field: string]: Shape };

const TIMESTAMPED = { createTime: 'timestamp', updateTime: 'timestamp' } as const;

/** The fields the browser receives, from the spec's Connection (credentials and providerMetadata left out). */
export const BROWSER_CONNECTION_SHAPE = {
  id: 'string',
  projectId: 'string',
  provider: 'string',
  group: { groupRef: 'string', groupName: 'string', projectId: 'string', ...TIMESTAMPED },
  consumer: { consumerRef: 'string', consumerName: 'string', projectId: 'string', ...TIMESTAMPED },
  ...TIMESTAMPED,
  authScheme: [
    'none',
    'apiKey',
    'basic',
    'oauth2/authorizationCode',
    'oauth2/authorizationCodePKCE',
    'oauth2/clientCredentials',
    'oauth2/password',
    'custom',
  ],
  status: ['created', 'working', 'bad_credentials'],
  providerApp: {
    id: 'string',
    projectId: 'string',
    provider: 'string',
    clientId: 'string',
    externalRef: 'string',
    scopes: 'scopes',
    ...TIMESTAMPED,
  },
  providerWorkspaceRef: 'string',
  providerConsumerRef: 'string',
} as const satisfies Record<string, Shape>;

const MAX_STRING = 2048;
const MAX_SCOPES = 256;

function pick(value: unknown, shape: Shape): unknown {
  if (shape === 'string') return typeof value === 'string' && value.length <= MAX_STRING ? value : undefined;
  if (shape === 'timestamp')
    return typeof value === 'string' && value.length <= 64 && !Number.isNaN(Date.parse(value)) ? value : undefined;
  if (Array.isArray(shape)) return typeof value === 'string' && shape.includes(value) ? value : undefined;
  if (shape === 'scopes') {
    if (!Array.isArray(value) || value.length > MAX_SCOPES) return undefined;
    const lists = value.filter(
      (l): l is string[] =>
        Array.isArray(l) && l.length <= MAX_SCOPES && l.every((s) => typeof s === 'string' && s.length <= 256),
    );
    return lists.map((l) => [...l]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [field, inner] of Object.entries(shape as { readonly [field: string]: Shape })) {
    if (!Object.prototype.hasOwnProperty.call(value, field)) continue;
    const kept = pick((value as Record<string, unknown>)[field], inner);
    if (kept !== undefined) out[field] = kept;
  }
  return out;
}

/** The browser's view of a connection: only the allow-listed fields, with their spec types. */
export function toBrowserConnection(connection: unknown): Connection {
  return pick(connection, BROWSER_CONNECTION_SHAPE) as Connection;
}

/** A connection's groupRef when it is a string; undefined for anything else (no group, null, another type). */
export function groupRefOf(connection: unknown): string | undefined {
  const group =
    typeof connection === 'object' && connection !== null ? (connection as { group?: unknown }).group : undefined;
  const groupRef = typeof group === 'object' && group !== null ? (group as { groupRef?: unknown }).groupRef : undefined;
  return typeof groupRef === 'string' ? groupRef : undefined;
}

/** A connection's consumerRef when it is a string; undefined for anything else. */
export function consumerRefOf(connection: unknown): string | undefined {
  const consumer =
    typeof connection === 'object' && connection !== null ? (connection as { consumer?: unknown }).consumer : undefined;
  const ref =
    typeof consumer === 'object' && consumer !== null ? (consumer as { consumerRef?: unknown }).consumerRef : undefined;
  return typeof ref === 'string' ? ref : undefined;
}
