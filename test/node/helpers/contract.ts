// A fetch that checks every answer against the OpenAPI document on its way
// through, so tests that use it double as contract tests. It checks any
// emulator it reaches (a fresh one started inside a test too): the operation is
// found from the path alone, /v1/... on the base server, /search/v1/... on search.
import { loadContract } from '../../../src/emulator/openapi.js';

export interface ContractFetch {
  fetch: typeof fetch;
  /** Every answer that did not conform, as "METHOD path status: error". */
  violations: string[];
  /** operationId -> status codes seen. */
  seen: Map<string, Set<number>>;
}

/** Where a URL belongs: its server and the path under that server's /v1, or undefined for other routes. */
export function serverPath(url: string): { server: 'base' | 'search'; subPath: string } | undefined {
  const { pathname } = new URL(url);
  if (pathname.startsWith('/search/v1/')) return { server: 'search', subPath: pathname.slice('/search/v1'.length) };
  if (pathname.startsWith('/v1/')) return { server: 'base', subPath: pathname.slice('/v1'.length) };
  return undefined;
}

/** Checks one answer; returns its violations (none when it conforms or is not an operation's). */
export async function checkAnswer(
  request: Request,
  response: Response,
  seen?: ContractFetch['seen'],
): Promise<string[]> {
  const contract = loadContract();
  const where = serverPath(request.url);
  if (!where) return [];
  const op = contract.operations.find(
    (o) => o.server === where.server && o.method === request.method && o.match(where.subPath),
  );
  if (!op) return [];
  const copy = response.clone();
  const text = await copy.text();
  let body: unknown = text === '' ? undefined : text;
  const type = copy.headers.get('content-type');
  if (type && /json/.test(type) && text !== '') body = JSON.parse(text);
  if (seen) {
    if (!seen.has(op.operationId)) seen.set(op.operationId, new Set());
    seen.get(op.operationId)!.add(response.status);
  }
  return contract
    .validateResponse(op.operationId, response.status, type, body)
    .map((error) => `${request.method} ${where.subPath} ${response.status}: ${error}`);
}

/** Wraps fetch so that every answer of an operation is checked against openapi.yaml. */
export function contractFetch(): ContractFetch {
  const violations: string[] = [];
  const seen = new Map<string, Set<number>>();
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    violations.push(...(await checkAnswer(request, response, seen)));
    return response;
  };
  return { fetch: wrapped, violations, seen };
}
