// Connections made with credentials instead of a consent page: generate
// connection and update connection, with the real service's paths and bodies.
// A provider's scheme takes one credential kind (CREDENTIAL_KINDS); a
// connection so made or changed is `created`, then, after the verify delay,
// `working`, or `bad_credentials` when a credential value it holds contains
// INVALID_MARKER. Credentials are kept like tokens: never in an answer but
// get-connection's with includeCreds, never echoed in a problem.
import type { Connection, ProblemIssue } from '../shared/types.js';
import {
  CREDENTIAL_KINDS,
  CREDENTIALS,
  fieldsToType,
  type Credential,
  type CredentialKind,
} from '../shared/sign-in.js';
import { HttpProblem, invalidRequest } from '../http/http-problem.js';
import { requestedProvider, missingInputs } from './connect.js';
import { settleConnection } from './connections.js';
import { refusal, type Env, type Handler } from './context.js';
import { LIMITS } from './limits.js';
import { catalogProvider, findConnection, findProject } from './lookup.js';
import { authSchemeOf, credentialKindOf, type CatalogEntry } from './providers.js';
import { newId } from './ids.js';
import type { StoredConnection } from './state.js';

/** A credential value holding this makes the connection end `bad_credentials` (so demos and tests can show both). */
export const INVALID_MARKER = 'invalid';

/** Every string inside a value (a credential's fields, its scopes...). */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(stringsIn);
}

/** What verifying credentials finds: `bad_credentials` when any of their values contains INVALID_MARKER. */
export function verdictOf(credentials: Credential): 'working' | 'bad_credentials' {
  return stringsIn(credentials).some((s) => s.includes(INVALID_MARKER)) ? 'bad_credentials' : 'working';
}

/** Sets a connection `created`, verified `--verify-delay` ms later by the rule of verdictOf. */
function startVerification(ctx: Pick<Env, 'now' | 'verifyDelayMs'>, connection: StoredConnection): void {
  connection.status = 'created';
  connection.updateTime = ctx.now.toISOString();
  connection.pending = {
    status: verdictOf(connection.credentials ?? {}),
    at: new Date(ctx.now.getTime() + ctx.verifyDelayMs).toISOString(),
  };
}

/** What each credential kind is, in words (for problems). */
const KIND_WORDS: Record<CredentialKind, string> = {
  apiKey: 'an API key',
  basicAuth: 'a username and password',
  oauth2ClientCredentials: 'a client ID and secret',
  oauth2PasswordCredentials: 'a username, password, client ID and secret',
  customAuth: 'its custom inputs',
};

/** What a provider's scheme takes, in words (for problems). */
function describeKind(kind: CredentialKind): string {
  return `${KIND_WORDS[kind]} (${kind})`;
}

const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/**
 * What is wrong with the credential of the provider's kind, as issues named `${prefix}${field}` (never with the
 * value): a blank field, a custom input missing, unknown or not one of its options.
 */
function valueIssues(
  provider: CatalogEntry,
  kind: CredentialKind,
  credential: unknown,
  prefix: string,
): ProblemIssue[] {
  const issue = (name: string, detail: string): ProblemIssue => ({
    detail: `${prefix}${name} ${detail}`,
    in: 'body',
    name: `${prefix}${name}`,
  });
  const fields = credential as Record<string, unknown>;
  const required = (names: readonly string[]) =>
    names.filter((n) => blank(fields[n])).map((n) => issue(`${kind}.${n}`, 'is required: a non-blank string'));
  // What the kind holds, and its fields: shared/sign-in.ts's CREDENTIALS.
  switch (CREDENTIALS[kind].holds) {
    case 'text':
      return blank(credential) ? [issue(kind, 'is required: a non-blank string')] : [];
    case 'fields':
      // With apiKeyAsBasic the key is in the field fieldUsed names; the other is an empty string.
      return required(fieldsToType(kind, provider.basicOpts));
    case 'inputs': {
      const inputs = provider.customOpts?.inputs ?? [];
      const issues: ProblemIssue[] = [];
      for (const input of inputs) {
        const value = Object.hasOwn(fields, input.name) ? fields[input.name] : undefined;
        if (blank(value)) {
          issues.push(issue(`${kind}.${input.name}`, `is required: ${input.displayName}, a non-blank string`));
        } else if (input.fieldType === 'fieldTypeSelect' && !input.options?.some((o) => o.value === value)) {
          issues.push(issue(`${kind}.${input.name}`, `must be one of its options`));
        }
      }
      for (const name of Object.keys(fields)) {
        if (!inputs.some((i) => i.name === name)) {
          issues.push(issue(`${kind}.${name}`, `is not an input of ${provider.displayName}`));
        }
      }
      return issues;
    }
  }
}

/**
 * The credential of a request for the provider: refused (400, an issue naming each field) when it carries a kind the
 * provider's scheme does not take, lacks the one it takes, or has a blank or unknown value. `prefix` is where the
 * credential fields are in the body ('' or 'connection.').
 */
export function checkedCredentials(
  provider: CatalogEntry,
  body: Record<string, unknown>,
  given: readonly CredentialKind[],
  prefix: string,
): Credential {
  const expected = credentialKindOf(provider);
  const issues: ProblemIssue[] = [];
  const takes = expected
    ? `${provider.displayName} signs in with ${describeKind(expected)}`
    : `${provider.displayName} signs in on a consent page (oauth-connect, oauth-update), with no credential`;
  for (const kind of given) {
    if (kind !== expected)
      issues.push({ detail: `${prefix}${kind} is not taken: ${takes}`, in: 'body', name: `${prefix}${kind}` });
  }
  if (issues.length > 0) throw refusal(issues);
  // Every kind given is the one expected now: that one, or none.
  const [kind] = given;
  if (kind === undefined) return {};
  const problems = valueIssues(provider, kind, body[kind], prefix);
  if (problems.length > 0) throw refusal(problems);
  return { [kind]: structuredClone(body[kind]) };
}

/** The credential kinds a body carries (its fields of CREDENTIAL_KINDS that are set). */
function kindsIn(body: Record<string, unknown>): CredentialKind[] {
  return CREDENTIAL_KINDS.filter((kind) => body[kind] !== undefined);
}

/** A connection as generate and update connection answer it: no credential, no verification in progress. */
function answered(connection: StoredConnection): Connection {
  const { tokens: _tokens, pending: _pending, credentials: _credentials, ...rest } = connection;
  return rest;
}

export const serveGenerateConnection: Handler<'generateConnection'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const body = ctx.body;
  const provider = requestedProvider(body.provider);
  const record = body as Record<string, unknown>;
  const given = kindsIn(record);
  if (!credentialKindOf(provider) && given.length === 0) {
    throw invalidRequest(`${provider.displayName} signs in on a consent page: use oauth-connect`, [
      { detail: 'signs in on a consent page: use oauth-connect', in: 'body', name: 'provider', value: provider.name },
    ]);
  }
  const expected = credentialKindOf(provider);
  if (expected && !given.includes(expected)) {
    const detail = `${expected} is required: ${provider.displayName} signs in with ${describeKind(expected)}`;
    const wrong = given.map((kind) => ({ detail: `${kind} is not taken`, in: 'body', name: kind }));
    throw invalidRequest(detail, [{ detail, in: 'body', name: expected }, ...wrong]);
  }
  const credentials = checkedCredentials(provider, record, given, '');
  const missing = missingInputs(provider, body);
  if (missing.length > 0) throw refusal(missing, `${provider.displayName}: `);
  const now = ctx.now.toISOString();
  // One connection per project, provider and group, as with consent: generating again changes that connection.
  let connection = ctx.state.connections.find(
    (c) => c.projectId === project.id && c.provider === provider.name && c.group.groupRef === body.groupRef,
  );
  if (!connection) {
    if (ctx.state.connections.length >= LIMITS.connections) {
      throw new HttpProblem({
        status: 429,
        detail: `the emulator holds ${LIMITS.connections} connections, its most; delete some first`,
      });
    }
    connection = {
      id: newId('conn'),
      projectId: project.id,
      provider: provider.name,
      group: {
        groupRef: body.groupRef,
        groupName: body.groupName || body.groupRef,
        projectId: project.id,
        createTime: now,
      },
      consumer: {
        consumerRef: body.consumerRef,
        consumerName: body.consumerName || body.consumerRef,
        projectId: project.id,
        createTime: now,
      },
      createTime: now,
      authScheme: authSchemeOf(provider),
      status: 'created',
    };
    ctx.state.connections.push(connection);
  } else {
    connection.group = { ...connection.group, groupName: body.groupName || connection.group.groupName };
    connection.consumer = {
      ...connection.consumer,
      consumerRef: body.consumerRef,
      consumerName: body.consumerName || body.consumerRef,
      updateTime: now,
    };
  }
  delete connection.tokens;
  connection.credentials = credentials;
  if (body.providerWorkspaceRef !== undefined) connection.providerWorkspaceRef = body.providerWorkspaceRef;
  if (body.providerMetadata !== undefined) connection.providerMetadata = body.providerMetadata;
  startVerification(ctx, connection);
  ctx.changed();
  return { status: 201, body: answered(connection) };
};

export const serveUpdateConnection: Handler<'updateConnection'> = (ctx) => {
  const project = findProject(ctx, ctx.path.projectIdOrName);
  const connection = findConnection(ctx, project, ctx.path.connectionId);
  // A verification whose time has come is applied first: the answer says where the connection is.
  settleConnection(ctx, connection);
  const { updateMask, connection: fields } = ctx.body;
  const record = fields as Record<string, unknown>;
  const absent = updateMask.filter((name) => record[name] === undefined);
  if (absent.length > 0) {
    throw invalidRequest(
      `updateMask names ${absent.join(', ')}, which connection does not hold`,
      absent.map((name) => ({
        detail: `connection.${name} is named in updateMask: give its new value`,
        in: 'body',
        name: `connection.${name}`,
      })),
    );
  }
  // Only the fields updateMask names change; a provider leaving the catalog keeps its connections unchangeable.
  const provider = catalogProvider(connection.provider);
  const given = CREDENTIAL_KINDS.filter((kind) => updateMask.includes(kind));
  const credentials = given.length > 0 ? checkedCredentials(provider, record, given, 'connection.') : undefined;
  if (updateMask.includes('providerWorkspaceRef')) connection.providerWorkspaceRef = fields.providerWorkspaceRef;
  if (updateMask.includes('providerMetadata')) connection.providerMetadata = fields.providerMetadata;
  if (credentials) {
    connection.credentials = credentials;
    startVerification(ctx, connection);
  } else {
    connection.updateTime = ctx.now.toISOString();
  }
  ctx.changed();
  return { status: 200, body: answered(connection) };
};
