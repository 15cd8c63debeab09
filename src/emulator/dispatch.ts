// The API's dispatcher: finds a request's operation in openapi.yaml (404, 405
// when none), checks its credentials, reads and validates its parameters and
// body (400 with the issues), and calls the operation's handler (operations.ts).
import { readJsonBody } from '../http/body-reader.js';
import { HttpProblem, invalidRequest, methodNotAllowed } from '../http/http-problem.js';
import { jsonResponse } from '../http/json-response.js';
import type { Auth } from './auth.js';
import type { Env, OperationContext, OperationId } from './context.js';
import { jsonBeyond } from '../shared/json.js';
import { boundIssue, LIMITS, limitIssues, storedBytesBound } from './limits.js';
import type { Contract, OperationInfo } from './openapi.js';
import { beforeValidation, handlers } from './operations.js';

export interface DispatchOptions {
  contract: Contract;
  auth: Auth;
  bodyLimit: number;
  /** How long a body may take to arrive whole (408 after). */
  bodyDeadlineMs: number;
  /** How oauth-connect and oauth-update answer the URL: a JSON string or text/plain. */
  urlFormat: 'json' | 'text';
}

/** Any operation's answer, as the dispatcher sees it. */
type AnyOperationResult = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * Answers a request under /v1 ('base') or /search/v1 ('search'); `subPath` is the path after that prefix. `env` is
 * asked once the request is checked (its `now` is the time its body arrived).
 */
export type Dispatch = (
  request: Request,
  subPath: string,
  server: 'base' | 'search',
  env: () => Env,
) => Promise<Response>;

function operationResponse(result: AnyOperationResult, urlFormat: 'json' | 'text'): Response {
  if (result.status === 204) return new Response(null, { status: 204, headers: result.headers });
  if (typeof result.body === 'string' && urlFormat === 'text') {
    return new Response(result.body, {
      status: result.status,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  return jsonResponse(result.body, result.status, result.headers);
}

/** How much of an operation's path template is literal text (its parameters left out). */
export function literalLength(op: Pick<OperationInfo, 'template'>): number {
  return op.template.replace(/\{\w+\}/g, '').length;
}

/** The operation of the request's method and path, with the path's parameters. */
function findOperation(
  operations: readonly OperationInfo[],
  request: Request,
  subPath: string,
  server: 'base' | 'search',
): { op: OperationInfo; params: Record<string, string> } {
  const matches = operations
    .filter((op) => op.server === server)
    .map((op) => ({ op, params: op.match(subPath) }))
    .filter((m): m is { op: OperationInfo; params: Record<string, string> } => m.params !== null);
  if (matches.length === 0)
    throw new HttpProblem({
      status: 404,
      detail: `no such route: ${request.method} ${new URL(request.url).pathname}`,
    });
  // Of two templates that match a path, the more literal one names it: PATCH …/{connectionId}:oauth-update is
  // oauth-update, not update connection with a connection ID ending in :oauth-update.
  const match = matches
    .filter((m) => m.op.method === request.method)
    .sort((a, b) => literalLength(b.op) - literalLength(a.op))[0];
  if (!match) {
    throw methodNotAllowed(request.method, [...new Set(matches.map((m) => m.op.method))].join(', '));
  }
  return match;
}

/** The 400 for a request's issues: at most LIMITS.problemIssues, each bounded (no answer much larger than its request). */
function invalidInput(issues: ReturnType<OperationInfo['validateBody']>['issues'], total: number, complete: boolean) {
  const shown = issues.slice(0, LIMITS.problemIssues).map(boundIssue);
  const details = shown.map((i) => i.detail).join('; ');
  let detail: string;
  if (!complete) detail = `the body is checked up to its first problem, being large: ${details}`;
  else if (total === 1) detail = shown[0].detail;
  else if (total > shown.length) detail = `${total} problems, the first ${shown.length}: ${details}`;
  else detail = `${total} problems: ${details}`;
  return invalidRequest(detail, shown);
}

/** The operations that store what their body holds (the others store nothing, or less than they remove). */
const STORING: ReadonlySet<OperationId> = new Set<OperationId>([
  'oauthConnect',
  'oauthUpdate',
  'generateConnection',
  'updateConnection',
  'createProject',
  'createNotificationEventTopicRoute',
]);

export function createDispatch({ contract, auth, bodyLimit, bodyDeadlineMs, urlFormat }: DispatchOptions): Dispatch {
  return async function dispatch(request, subPath, server, env) {
    const { op, params: pathParams } = findOperation(contract.operations, request, subPath, server);
    const bearer = auth.authenticate(request, op);
    const operationId = op.operationId as OperationId;
    let body: unknown;
    if (op.hasBody) {
      body = await readJsonBody(request, bodyLimit, { deadlineMs: bodyDeadlineMs });
      if (jsonBeyond(body, { depth: LIMITS.jsonDepth }) === 'depth') {
        throw new HttpProblem({
          status: 400,
          detail: `the JSON body is nested deeper than ${LIMITS.jsonDepth} levels`,
        });
      }
      beforeValidation[operationId]?.(body);
    }
    const params = op.validateParams(pathParams, new URL(request.url).searchParams);
    const checked = op.validateBody(body);
    const issues = [...params.issues, ...checked.issues];
    let total = params.issues.length + checked.total;
    if (issues.length === 0) {
      issues.push(...limitIssues(op.operationId, body));
      total = issues.length;
    }
    if (issues.length > 0) throw invalidInput(issues, total, checked.complete);
    // The one place an operationId from the document meets its typed handler; openapi.test.ts
    // checks that schema.ts (whose keys type `handlers`) is generated from that same document.
    // `handlers` has a key for every operationId of schema.ts, so an operation of the document always has one.
    const handler = handlers[operationId] as (ctx: OperationContext<OperationId>) => AnyOperationResult;
    const context = {
      ...env(),
      bearer,
      path: params.path,
      query: params.query,
      body,
    } as OperationContext<OperationId>;
    // What the operation may store takes room in the data file first (429 past LIMITS.dataFileBytes).
    if (STORING.has(operationId)) context.room(storedBytesBound(body));
    return operationResponse(handler(context), urlFormat);
  };
}
