// What the browser may send: oauth-connect's body and the connection ID in the
// path, each checked and bounded, so nothing a browser sends reaches the
// platform unchecked or makes the handler fail.
import { HttpProblem, invalidRequest } from '../http/http-problem.js';
import { isRecord, jsonBeyond } from '../shared/json.js';
import { isProviderAppId, isWorkspaceRef } from '../shared/provider.js';
import { HANDLER_PROBLEM_TYPES, notFound } from './handler-problems.js';

/** Control characters, which no ID or provider name holds. */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

const HINTS = ['providerWorkspaceRef', 'providerAppId'] as const;

/** What each hint must be: a workspace is templated into the provider's hostnames; an app ID is an ID. */
const HINT_RULES = {
  providerWorkspaceRef: {
    valid: isWorkspaceRef,
    detail:
      'must be a hostname label: letters, digits, hyphens and dots, at most 253, starting and ending with a letter or digit',
  },
  providerAppId: { valid: isProviderAppId, detail: 'must be an ID: letters, digits, _ and -, at most 128' },
} as const;
const IGNORED_HINTS = ['groupRef', 'groupName', 'consumerRef', 'consumerName'] as const;
export const MAX_FIELD_LENGTH = 512;

/** Bounds of `providerMetadata`: serialized size in bytes, nesting depth, keys and array items in all. */
export const METADATA_LIMITS = { bytes: 4096, depth: 5, entries: 200 } as const;

/** The fields of oauth-connect's body the platform receives from the browser. */
export interface ConnectFields {
  provider: string;
  providerWorkspaceRef?: string;
  providerAppId?: string;
  providerMetadata?: Record<string, unknown>;
}

/** A 400 for a body field that breaks its rule; the value is echoed only when short and plain. */
export function invalidField(name: string, detail: string, value?: unknown): HttpProblem {
  const issue: { detail: string; in: string; name: string; value?: unknown } = { detail, in: 'body', name };
  if (
    typeof value === 'string'
      ? value.length <= MAX_FIELD_LENGTH
      : typeof value === 'number' || typeof value === 'boolean'
  )
    issue.value = value;
  return invalidRequest(`${name} ${detail}`, [issue]);
}

/** A 400 for a provider the `providers` allow-list does not hold, named where the browser sent it. */
function providerNotAllowed(provider: string, where: 'body' | 'query'): HttpProblem {
  return new HttpProblem({
    status: 400,
    type: HANDLER_PROBLEM_TYPES.providerNotAllowed,
    title: 'Provider not allowed',
    detail: `provider ${provider} is not offered by this app`,
    issues: [{ detail: 'is not offered by this app', in: where, name: 'provider', value: provider }],
  });
}

/** Checks providerMetadata's depth, entry count and size; returns a reason, or null when it fits. */
function metadataOverLimit(metadata: Record<string, unknown>): string | null {
  const beyond = jsonBeyond(metadata, METADATA_LIMITS);
  if (beyond === 'depth') return `is nested deeper than ${METADATA_LIMITS.depth} levels`;
  if (beyond === 'entries') return `has more than ${METADATA_LIMITS.entries} keys and items`;
  if (new TextEncoder().encode(JSON.stringify(metadata)).byteLength > METADATA_LIMITS.bytes) {
    return `is larger than ${METADATA_LIMITS.bytes} bytes`;
  }
  return null;
}

/** Checks the browser's oauth-connect body; returns the fields forwarded to the platform. */
export function parseConnectBody(body: unknown, providers: ReadonlySet<string> | undefined): ConnectFields {
  if (!isRecord(body)) throw invalidField('(root)', 'must be a JSON object');
  const { provider } = body;
  if (typeof provider !== 'string' || provider.trim() === '') throw invalidField('provider', 'is required', provider);
  if (provider.length > MAX_FIELD_LENGTH) throw invalidField('provider', 'is too long');
  // `.`, `..` or a slash would name another path of the platform: refused before any call, as a bad input.
  if (!isPlainProviderName(provider)) throw invalidField('provider', 'must be a provider name', provider);
  if (providers && !providers.has(provider)) throw providerNotAllowed(provider, 'body');
  const fields: ConnectFields = { provider };
  for (const key of HINTS) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalidField(key, 'must be a string', value);
    if (value.length > MAX_FIELD_LENGTH) throw invalidField(key, 'is too long');
    if (value === '') continue;
    if (!HINT_RULES[key].valid(value)) throw invalidField(key, HINT_RULES[key].detail, value);
    fields[key] = value;
  }
  for (const key of IGNORED_HINTS) {
    const value = body[key];
    if (value !== undefined && value !== null && typeof value !== 'string')
      throw invalidField(key, 'must be a string', value);
  }
  const metadata = body.providerMetadata;
  if (metadata !== undefined && metadata !== null) {
    if (!isRecord(metadata)) throw invalidField('providerMetadata', 'must be an object');
    const reason = metadataOverLimit(metadata);
    if (reason) throw invalidField('providerMetadata', reason);
    fields.providerMetadata = metadata;
  }
  return fields;
}

/** A path segment, percent-decoded; undefined when it does not decode. */
function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The connection ID of a route, decoded; anything unusable is answered like a missing connection. */
export function decodeConnectionId(raw: string): string {
  const id = decodeSegment(raw);
  // `.` and `..` name no connection: in the platform's URL they would resolve to another operation. (They arrive
  // through the update route, `/connections/..:oauth-update`; a decoded ID is never empty.)
  if (id === undefined || id === '.' || id === '..' || id.length > MAX_FIELD_LENGTH || CONTROL.test(id)) {
    throw notFound('no such connection');
  }
  return id;
}

/** The optional `provider` query of the list route: absent is any provider, empty or not offered is a 400. */
export function parseProviderQuery(
  value: string | null,
  providers: ReadonlySet<string> | undefined,
): string | undefined {
  if (value === null) return undefined;
  if (value.trim() === '' || value.length > MAX_FIELD_LENGTH || CONTROL.test(value)) {
    throw invalidRequest('provider must be a non-empty provider name', [
      { detail: 'must be a non-empty provider name', in: 'query', name: 'provider' },
    ]);
  }
  if (providers && !providers.has(value)) throw providerNotAllowed(value, 'query');
  return value;
}

/**
 * The optional `own` query of the list route: `true` or `1` narrows the list to the caller's own consumer; absent is
 * the caller's whole group; any other value (or the parameter given twice) is a 400 naming it.
 */
export function parseOwnQuery(values: readonly string[]): boolean {
  if (values.length === 0) return false;
  if (values.length === 1 && (values[0] === 'true' || values[0] === '1')) return true;
  throw invalidRequest('own must be true or 1 (or left out for the whole group)', [
    { detail: 'must be true or 1', in: 'query', name: 'own' },
  ]);
}

/**
 * Whether a name is a plain provider name, one that may name a provider in a platform path: not empty, at most
 * MAX_FIELD_LENGTH characters, no control characters, not `.` or `..`, no slash.
 */
export function isPlainProviderName(name: string): boolean {
  return (
    name.trim() !== '' &&
    name.length <= MAX_FIELD_LENGTH &&
    !CONTROL.test(name) &&
    name !== '.' &&
    name !== '..' &&
    !/[/\\]/.test(name)
  );
}

/**
 * The provider name of `/providers/{provider}`, decoded; anything that is no plain provider name (undecodable, empty,
 * too long, control characters, `.` or `..`, a slash) is answered like an unknown provider, with no platform call.
 */
export function decodeProviderName(raw: string): string {
  const name = decodeSegment(raw);
  if (name === undefined || !isPlainProviderName(name)) throw notFound('no such provider');
  return name;
}
