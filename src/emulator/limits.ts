// Bounds on what a request may store, so that no request, however crafted,
// can bloat the state, slow its writes or make its file unreadable.
import type { ProblemIssue } from '../shared/types.js';

export const LIMITS = {
  /** Largest request body in bytes (JSON bodies; the consent form has its own, smaller one). */
  bodyBytes: 1024 * 1024,
  /** Largest consent form body in bytes. */
  formBytes: 4096,
  /** Deepest nesting of arrays and objects in any JSON body. */
  jsonDepth: 32,
  /** Deepest nesting inside providerMetadata ({} is 1, {"a": {}} is 2). */
  metadataDepth: 8,
  /** Largest providerMetadata, as JSON, in bytes. */
  metadataBytes: 4 * 1024,
  /** Longest string field of oauth-connect (refs, names, IDs). */
  refLength: 1024,
  /** Most field filters in one search. */
  searchFilters: 64,
  /** Pending consent links per project and group: a group's new link forgets that group's oldest. */
  consentsPerGroup: 50,
  /** Pending consent links in all: beyond it, oauth-connect answers 429 until some expire. */
  consents: 2_000,
  /** Connections in all: beyond it, a consent that would create one answers 429 (delete some first). */
  connections: 5_000,
} as const;

/** Nesting depth of a parsed JSON value, without recursion (a scalar is 0, [] is 1); stops counting past `stopAt`. */
export function jsonDepth(value: unknown, stopAt = Infinity): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    const here = depth + 1;
    if (here > max) max = here;
    if (max > stopAt) return max;
    for (const child of Object.values(item)) stack.push([child, here]);
  }
  return max;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

const OAUTH_CONNECT_STRINGS = [
  'projectId',
  'projectIdOrName',
  'provider',
  'groupRef',
  'consumerRef',
  'groupName',
  'consumerName',
  'providerWorkspaceRef',
  'providerAppId',
] as const;

/** Issues for a validated body that stays within the schema but beyond what the emulator stores. */
export function limitIssues(operationId: string, body: unknown): ProblemIssue[] {
  const issues: ProblemIssue[] = [];
  if (!body || typeof body !== 'object') return issues;
  const record = body as Record<string, unknown>;
  if (operationId === 'oauthConnect') {
    for (const name of OAUTH_CONNECT_STRINGS) {
      const value = record[name];
      if (typeof value === 'string' && value.length > LIMITS.refLength) {
        issues.push({ detail: `${name} is longer than ${LIMITS.refLength} characters`, in: 'body', name });
      }
    }
    const metadata = record.providerMetadata;
    if (metadata !== undefined) {
      const depth = jsonDepth(metadata, LIMITS.metadataDepth);
      if (depth > LIMITS.metadataDepth) {
        issues.push({
          detail: `providerMetadata is nested deeper than ${LIMITS.metadataDepth} levels`,
          in: 'body',
          name: 'providerMetadata',
        });
      } else if (byteLength(JSON.stringify(metadata)) > LIMITS.metadataBytes) {
        issues.push({
          detail: `providerMetadata is larger than ${LIMITS.metadataBytes} bytes as JSON`,
          in: 'body',
          name: 'providerMetadata',
        });
      }
    }
  }
  if (
    operationId === 'searchRecords' &&
    Array.isArray(record.fieldFilters) &&
    record.fieldFilters.length > LIMITS.searchFilters
  ) {
    issues.push({
      detail: `fieldFilters has more than ${LIMITS.searchFilters} filters`,
      in: 'body',
      name: 'fieldFilters',
    });
  }
  return issues;
}
