// A fetch that checks every answer against the OpenAPI document on its way
// through, so tests that use it double as contract tests.
import { loadContract } from '../../../src/emulator/openapi.js';

export interface ContractFetch {
  fetch: typeof fetch;
  /** Every answer that did not conform, as "METHOD path status: error". */
  violations: string[];
  /** operationId -> status codes seen. */
  seen: Map<string, Set<number>>;
}

/** Wraps fetch; `prefixes` maps a URL prefix to the server it belongs to. */
export function contractFetch(prefixes: { base: string; search: string }): ContractFetch {
  const contract = loadContract();
  const violations: string[] = [];
  const seen = new Map<string, Set<number>>();
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const url = request.url.split('?')[0];
    let server: 'base' | 'search' | undefined;
    let subPath = '';
    if (url.startsWith(prefixes.search)) {
      server = 'search';
      subPath = url.slice(prefixes.search.length);
    } else if (url.startsWith(prefixes.base)) {
      server = 'base';
      subPath = url.slice(prefixes.base.length);
    }
    const op = contract.operations.find((o) => o.server === server && o.method === request.method && o.match(subPath));
    if (!op) return response;
    const copy = response.clone();
    const text = await copy.text();
    let body: unknown = text === '' ? undefined : text;
    const type = copy.headers.get('content-type');
    if (type && /json/.test(type) && text !== '') body = JSON.parse(text);
    const errors = contract.validateResponse(op.operationId, response.status, type, body);
    if (!seen.has(op.operationId)) seen.set(op.operationId, new Set());
    seen.get(op.operationId)!.add(response.status);
    for (const error of errors) violations.push(`${request.method} ${subPath} ${response.status}: ${error}`);
    return response;
  };
  return { fetch: wrapped, violations, seen };
}
