// An HTTP answer before it becomes a Response: status, lower-case headers and a
// text body. The handler's routes build answers; answerResponse turns each
// into the Response its Web-standard entry returns.

export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body's text; null for none. */
  body: string | null;
}

/** Header names, any case, to values: the only header form src/http takes (no caller needs Headers or pairs). */
export type HeaderMap = Record<string, string>;

/** A copy of the headers with lower-case names; later entries win. */
export function headerRecord(init: HeaderMap | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (init) for (const [name, value] of Object.entries(init)) out[name.toLowerCase()] = value;
  return out;
}

/** The Response of an answer. */
export function answerResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
