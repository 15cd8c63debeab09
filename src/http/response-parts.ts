// The parts of an HTTP Response before it is built: status, lower-case headers
// and a text body. The handler's routes build them; toResponse turns them into
// the Response its Web-standard entry returns.

export interface ResponseParts {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body's text; null for none. */
  body: string | null;
}

/** Header names, any case, to values: the only header form src/http takes (no caller needs Headers or pairs). */
export type HeaderMap = Record<string, string>;

/** A copy of the headers with lower-case names; later entries win. */
export function lowerCaseHeaders(init: HeaderMap | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (init) for (const [name, value] of Object.entries(init)) out[name.toLowerCase()] = value;
  return out;
}

/** The Response of its parts. */
export function toResponse(parts: ResponseParts): Response {
  return new Response(parts.body, { status: parts.status, headers: parts.headers });
}
