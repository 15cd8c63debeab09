// JSON answers: the parts of a JSON Response (for a route that builds answers) and the Response itself.
import { lowerCaseHeaders, toResponse, type HeaderMap, type ResponseParts } from './response-parts.js';

/** A JSON answer. */
export function jsonParts(body: unknown, status = 200, headers?: HeaderMap): ResponseParts {
  const h = lowerCaseHeaders(headers);
  h['content-type'] = 'application/json';
  h['cache-control'] = 'no-store';
  return { status, headers: h, body: JSON.stringify(body) };
}

/** A JSON Response. */
export function jsonResponse(body: unknown, status = 200, headers: HeaderMap = {}): Response {
  return toResponse(jsonParts(body, status, headers));
}
