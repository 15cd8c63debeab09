// Bounds on what a request may store, so that no request, however crafted,
// can bloat the state, slow its writes or make its file unreadable.
import { jsonBeyond } from '../shared/json.js';
import type { ProblemIssue } from '../shared/types.js';

export const LIMITS = {
  /** Largest request body in bytes (JSON bodies; the consent form has its own, smaller one). */
  bodyBytes: 1024 * 1024,
  /** Largest consent form body in bytes. */
  formBytes: 4096,
  /** Milliseconds a request body (an operation's, the consent form's) may take to arrive whole: 408 after. */
  bodyDeadlineMs: 10_000,
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
  /**
   * Largest data file, in the bytes it stores (JSON.stringify's text as the file indents it, in UTF-8, escapes
   * included: a control character takes six): a change that might make it larger answers 429 (delete some first).
   */
  dataFileBytes: 8 * 1024 * 1024,
  /** Most issues a problem lists (the first ones; its detail says how many there are). */
  problemIssues: 20,
  /** Longest detail of a problem, in characters (longer ones are cut, ending with …). */
  problemDetailChars: 2000,
  /** Longest detail or name of an issue, in characters. */
  issueTextChars: 300,
  /** Longest value an issue echoes, as JSON characters: a longer string is cut, a larger object or array left out. */
  issueValueChars: 200,
  /** Largest body (as JSON) whose every schema problem is looked for; a larger one is checked up to its first. */
  allErrorsBytes: 64 * 1024,
} as const;

/**
 * At most what storing `value` (a request's body, a consent session) adds to the data file, in the bytes it stores:
 * its JSON text as the file indents it, in UTF-8 with its escapes, three times over (deeper in the file, each of its
 * lines is indented further; a ref may be kept in two fields), plus what the emulator adds (IDs, times, tokens).
 */
export function storedBytesBound(value: unknown): number {
  return 3 * Buffer.byteLength(JSON.stringify(value, null, 1) ?? '') + 4 * 1024;
}

/** `text` cut to `max` characters, ending with … when cut. */
export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * Whether a JSON value's text (JSON.stringify's, with its escapes and no spaces) is at most `max` characters, found
 * without serializing it whole and stopping as soon as it is past `max` (never listing a large array's or object's
 * members at once).
 */
export function jsonFits(value: unknown, max: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') {
      size += typeof item === 'string' ? JSON.stringify(item).length : String(item).length;
      if (size > max) return false;
      continue;
    }
    // The brackets or braces; a comma between two members.
    size += 2;
    if (Array.isArray(item)) {
      size += Math.max(item.length - 1, 0);
      if (size > max) return false;
      for (let i = 0; i < item.length; i++) stack.push(item[i]);
    } else {
      let comma = 0;
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        size += comma + JSON.stringify(key).length + 1;
        comma = 1;
        if (size > max) return false;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return size <= max;
}

/** An issue whose detail, name and value are bounded (LIMITS.issueTextChars, LIMITS.issueValueChars). */
export function boundIssue(issue: ProblemIssue): ProblemIssue {
  const out: ProblemIssue = { ...issue, detail: cut(issue.detail, LIMITS.issueTextChars) };
  if (typeof issue.name === 'string') out.name = cut(issue.name, LIMITS.issueTextChars);
  if ('value' in issue) {
    const { value } = issue;
    if (typeof value === 'string') out.value = cut(value, LIMITS.issueValueChars);
    else if (!jsonFits(value, LIMITS.issueValueChars)) delete out.value;
  }
  return out;
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
  }
  // providerMetadata where oauth-connect, generate connection and update connection carry it.
  const metadataAt: Record<string, [unknown, string]> = {
    oauthConnect: [record.providerMetadata, 'providerMetadata'],
    generateConnection: [record.providerMetadata, 'providerMetadata'],
    updateConnection: [
      (record.connection as Record<string, unknown> | undefined)?.providerMetadata,
      'connection.providerMetadata',
    ],
  };
  if (Object.hasOwn(metadataAt, operationId)) {
    const [metadata, name] = metadataAt[operationId];
    if (metadata !== undefined) {
      // Too deep, or too large as JSON in UTF-8 bytes (Buffer.byteLength's default encoding).
      if (jsonBeyond(metadata, { depth: LIMITS.metadataDepth }) === 'depth') {
        issues.push({
          detail: `${name} is nested deeper than ${LIMITS.metadataDepth} levels`,
          in: 'body',
          name,
        });
      } else if (Buffer.byteLength(JSON.stringify(metadata)) > LIMITS.metadataBytes) {
        issues.push({
          detail: `${name} is larger than ${LIMITS.metadataBytes} bytes as JSON`,
          in: 'body',
          name,
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
