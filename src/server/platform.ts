// The handler's calls to the platform, one per platform operation it uses:
// each asks the platform client and turns its failures into the browser's
// problems (a 404 that can only mean wrong options into `misconfigured`).
import { createPlatformClient, type PlatformClient } from '../api/client.js';
import { PlatformRequestError, ProblemError } from '../api/errors.js';
import type { BrowserProvider } from '../shared/provider.js';
import type { Connection } from '../shared/types.js';
import { groupRefOf } from './connection.js';
import { isRecord } from '../shared/json.js';
import type { Credential, CredentialKind } from '../shared/sign-in.js';
import { secretForms } from './credential-input.js';
import { createSecretHider } from './secret-hider.js';
import type { ConnectFields } from './input.js';
import type { ConnectHandlerOptions, ConnectUser, ResolvedOptions } from './options.js';
import { HttpProblem } from '../http/http-problem.js';
import { misconfiguredProblem, notFound, ServerFault } from './handler-problems.js';
import { jsonBytes, PROVIDER_BYTES, toBrowserProvider } from './provider.js';
import { createProviderCache } from './provider-cache.js';
import type { Scrubber } from './scrub.js';
import { invalidAnswer, platformFault, upstreamProblem } from './upstream.js';

export interface Platform {
  /**
   * The caller's group's connection, of an allow-listed provider; any other is answered 404 exactly like a missing
   * one.
   */
  ownConnection(user: ConnectUser, connectionId: string, aborted: () => boolean): Promise<Connection>;
  deleteConnection(connectionId: string): Promise<void>;
  /** The group's connections (the consumer's own only, when `own`), as the platform answers them. */
  listConnections(user: ConnectUser, filter: { own: boolean; provider?: string }): Promise<unknown[]>;
  oauthConnect(user: ConnectUser, fields: ConnectFields): Promise<string>;
  oauthUpdate(connectionId: string): Promise<string>;
  /** A connection made with the user's credential (generate connection); the credential is hidden in any failure. */
  generateConnection(user: ConnectUser, fields: ConnectFields, credential: Credential): Promise<Connection>;
  /** New credentials for a connection of the caller's group (update connection, `updateMask` naming their kind). */
  updateCredential(
    user: ConnectUser,
    connectionId: string,
    kind: CredentialKind,
    credential: Credential,
  ): Promise<Connection>;
  /** A provider's info as the browser gets it, from the handler's memory when it can. */
  providerInfo(name: string): Promise<BrowserProvider>;
  /** The project's integrations, as the platform answers them (an array, its items unchecked). */
  listIntegrations(aborted: () => boolean): Promise<unknown[]>;
}

/** A provider's view over PROVIDER_BYTES.view: a 502 on its own route, left out (and told) of the integrations. */
export class ProviderTooLarge extends ServerFault {}

/** After a 404 for a connection, a known project is checked again only this long after it was last seen. */
const PROJECT_SEEN_MS = 5 * 60 * 1000;

// Internal: the request's signal is not handed to the platform client. Node 20's AbortSignal.any, which the client
// would combine it with its time-out through, costs more per request than the rest of the handler (npm run bench);
// a browser that goes away lets the platform call finish (timeoutMs at most), and nothing after it runs.
function stillWanted(aborted: () => boolean): void {
  if (aborted()) throw new DOMException('the browser went away', 'AbortError');
}

export function createPlatform(
  config: ResolvedOptions,
  scrub: Scrubber,
  fetch: ConnectHandlerOptions['fetch'],
): Platform {
  const { project } = config;
  const client: PlatformClient = createPlatformClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    retry: config.retry,
    ...(fetch ? { fetch } : {}),
  });
  const isNotFound = (error: unknown) => error instanceof ProblemError && error.status === 404;

  function misconfigured(operation: string, error: unknown): ServerFault {
    return new ServerFault(
      misconfiguredProblem(),
      'misconfigured',
      `the platform answered 404 to ${operation} for project ${JSON.stringify(project)} at ${config.baseUrl}: check baseUrl and project`,
      error,
    );
  }

  let projectSeenAt = -Infinity;
  /**
   * After a 404 for a connection: whether the platform knows the project (checked with a list of the caller's own
   * connections, remembered for PROJECT_SEEN_MS). Only a 404 to that list says no; any other failure is not a verdict.
   */
  async function projectKnown(user: ConnectUser): Promise<boolean> {
    if (Date.now() - projectSeenAt < PROJECT_SEEN_MS) return true;
    try {
      await client.listConnections({
        projectIdOrName: project,
        groupRef: user.groupRef,
        consumerRef: user.consumerRef,
      });
    } catch (error) {
      return !isNotFound(error);
    }
    projectSeenAt = Date.now();
    return true;
  }

  /**
   * A failure of a call that carried a credential, with every value of it hidden (in every encoding, and any run of 12
   * characters: secret-hider.ts) in the browser's problem, the log line and the error onError gets, even where the
   * platform's text repeats it.
   */
  function credentialFault(error: unknown, operation: string, credential: Credential): HttpProblem {
    const secrets = secretForms(credential);
    const hide = createSecretHider(secrets);
    const hiding = Object.assign((text: string) => scrub(hide(text)), {
      isClean: (text: string) => hide(text) === text && scrub.isClean(text),
    });
    let fault = platformFault(error, operation, { scrub: hiding });
    // A generate connection that timed out or lost its answer may have been made: the browser must not send the
    // credential again (the client does not resend it either). A 503 or 429 the platform did not act on stays retryable.
    const { status, retryable } = fault.init;
    if (operation === 'generate-connection' && retryable && (status === 504 || status === 502)) {
      const once = new HttpProblem({ ...fault.init, retryable: false }, fault.headers);
      fault = fault instanceof ServerFault ? new ServerFault(once, fault.kind, fault.logMessage, fault.error) : once;
    }
    if (!(fault instanceof ServerFault)) return fault;
    // The log line and onError's value are redacted where they are told (report.ts), the credential with the key.
    return new ServerFault(fault, fault.kind, fault.logMessage, fault.error, secrets);
  }

  /**
   * A connection the platform answered to a create or an update, checked like get and list check theirs: an object of
   * the Connection shape (an id and a provider), of the caller's group. Anything else is the platform's fault: a 502,
   * told to onError (without the answer, which may hold a credential).
   */
  function checkedConnection(answer: unknown, user: ConnectUser, operation: string): Connection {
    const shaped =
      isRecord(answer) && typeof answer.id === 'string' && answer.id !== '' && typeof answer.provider === 'string';
    if (!shaped) throw invalidAnswer(operation, 'a connection', scrub);
    if (groupRefOf(answer) !== user.groupRef)
      throw invalidAnswer(operation, "a connection of the caller's group", scrub);
    return answer as unknown as Connection;
  }

  async function fetchProvider(name: string): Promise<BrowserProvider> {
    let info: unknown;
    try {
      info = await client.getProvider({ provider: name });
    } catch (error) {
      if (isNotFound(error)) throw notFound('no such provider');
      throw platformFault(error, 'get-provider', { scrub });
    }
    if (typeof info !== 'object' || info === null || Array.isArray(info))
      throw invalidAnswer('get-provider', 'an object', scrub);
    const view = toBrowserProvider(info, name, config.platformIsLoopback);
    // Never kept nor sent: a view over its cap is the platform's fault (the cache never holds more than its cap).
    const bytes = jsonBytes(view);
    if (bytes > PROVIDER_BYTES.view) {
      const error = new PlatformRequestError(
        'invalid_response',
        `get-provider answered an info whose view is ${bytes} bytes, over ${PROVIDER_BYTES.view}`,
      );
      throw new ProviderTooLarge(
        upstreamProblem(error, { scrub }),
        'platform',
        `platform get-provider answered ${JSON.stringify(name)} with a view of ${bytes} bytes, over the ${PROVIDER_BYTES.view} a provider's view may take: left out`,
        error,
      );
    }
    return view;
  }

  return {
    async ownConnection(user, connectionId, aborted) {
      let connection: Connection;
      try {
        connection = await client.getConnection({ projectIdOrName: project, connectionId });
      } catch (error) {
        if (isNotFound(error) && !(await projectKnown(user))) throw misconfigured('get-connection', error);
        throw platformFault(error, 'get-connection', { scrub });
      }
      stillWanted(aborted);
      // Another group's connection, one with no group at all, or one of a provider the allow-list leaves out, is
      // answered exactly like a missing one: the browser cannot tell it exists.
      if (groupRefOf(connection) !== user.groupRef) throw notFound('no such connection');
      if (config.providers && !config.providers.has((connection as { provider?: unknown }).provider as string))
        throw notFound('no such connection');
      return connection;
    },

    async deleteConnection(connectionId) {
      try {
        await client.deleteConnection({ projectIdOrName: project, connectionId });
      } catch (error) {
        throw platformFault(error, 'delete-connection', { scrub });
      }
    },

    async listConnections(user, { own, provider }) {
      let answer: unknown;
      try {
        answer = await client.listConnections({
          projectIdOrName: project,
          groupRef: user.groupRef,
          ...(own ? { consumerRef: user.consumerRef } : {}),
          ...(provider ? { provider } : {}),
        });
      } catch (error) {
        // The list names no connection: its 404 can only mean a wrong baseUrl or project.
        if (isNotFound(error)) throw misconfigured('list-connections', error);
        throw platformFault(error, 'list-connections', { scrub });
      }
      if (!Array.isArray(answer)) throw invalidAnswer('list-connections', 'an array', scrub);
      return answer;
    },

    async oauthConnect(user, fields) {
      try {
        return await client.oauthConnect({
          projectId: project,
          ...fields,
          groupRef: user.groupRef,
          consumerRef: user.consumerRef,
          ...(user.groupName ? { groupName: user.groupName } : {}),
          ...(user.consumerName ? { consumerName: user.consumerName } : {}),
        });
      } catch (error) {
        // oauth-connect names no connection: its 404 can only mean a wrong baseUrl or project.
        if (isNotFound(error)) throw misconfigured('oauth-connect', error);
        throw platformFault(error, 'oauth-connect', { scrub, input: fields as unknown as Record<string, unknown> });
      }
    },

    async oauthUpdate(connectionId) {
      try {
        return await client.oauthUpdate({ projectIdOrName: project, connectionId });
      } catch (error) {
        throw platformFault(error, 'oauth-update', { scrub });
      }
    },

    async generateConnection(user, fields, credential) {
      let answer: unknown;
      try {
        answer = await client.generateConnection({
          projectIdOrName: project,
          body: {
            ...fields,
            ...credential,
            groupRef: user.groupRef,
            consumerRef: user.consumerRef,
            ...(user.groupName ? { groupName: user.groupName } : {}),
            ...(user.consumerName ? { consumerName: user.consumerName } : {}),
          },
        });
      } catch (error) {
        // Generate connection names no connection: its 404 can only mean a wrong baseUrl or project.
        if (isNotFound(error)) {
          const fault = misconfigured('generate-connection', error);
          throw new ServerFault(fault, fault.kind, fault.logMessage, fault.error, secretForms(credential));
        }
        throw credentialFault(error, 'generate-connection', credential);
      }
      return checkedConnection(answer, user, 'generate-connection');
    },

    async updateCredential(user, connectionId, kind, credential) {
      let answer: unknown;
      try {
        answer = await client.updateConnection({
          projectIdOrName: project,
          connectionId,
          body: { updateMask: [kind], connection: credential },
        });
      } catch (error) {
        throw credentialFault(error, 'update-connection', credential);
      }
      return checkedConnection(answer, user, 'update-connection');
    },

    providerInfo: createProviderCache(fetchProvider),

    async listIntegrations(aborted) {
      let answer: unknown;
      try {
        answer = await client.listIntegrations({ projectIdOrName: project });
      } catch (error) {
        // The list names no integration: its 404 can only mean a wrong baseUrl or project.
        if (isNotFound(error)) throw misconfigured('list-integrations', error);
        throw platformFault(error, 'list-integrations', { scrub });
      }
      if (!Array.isArray(answer)) throw invalidAnswer('list-integrations', 'an array', scrub);
      stillWanted(aborted);
      return answer;
    },
  };
}
