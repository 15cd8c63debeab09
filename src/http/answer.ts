// An HTTP answer before it becomes a Response: status, lower-case headers and a
// text body. Handlers build answers; the Web-standard entry turns each into a
// Response, and the Node adapter (node.ts) writes it to the socket directly,
// since on Node 20 a Response (with the stream behind its body) costs more than
// the rest of a connect request (npm run bench).

export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body's text; null for none. */
  body: string | null;
}

/** What answers a request as an Answer; `aborted` says whether the client went away. */
export type AnswerHandler = (request: Request, aborted: () => boolean) => Promise<Answer>;

// Internal: the answer handler behind a Web-standard handler, for toNodeListener to call in its place.
const answerHandlers = new WeakMap<object, AnswerHandler>();

/** Registers `answer` as what `handler` does, minus the Response; returns `handler`. */
export function withAnswerHandler<H extends object>(handler: H, answer: AnswerHandler): H {
  answerHandlers.set(handler, answer);
  return handler;
}

/** The answer handler registered for `handler`, if any. */
export function answerHandlerOf(handler: object): AnswerHandler | undefined {
  return answerHandlers.get(handler);
}

/** Header names, any case, to values: the only header form src/http takes (no caller needs Headers or pairs). */
export type HeaderMap = Record<string, string>;

/** A copy of the headers with lower-case names; later entries win. */
export function headerRecord(init: HeaderMap | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (init) for (const [name, value] of Object.entries(init)) out[name.toLowerCase()] = value;
  return out;
}

// Internal: the text of each Response made from an answer, so the Node adapter can write a Response built by
// answerResponse at once instead of reading its stream back.
const texts = new WeakMap<Response, string>();

/** The Response of an answer. */
export function answerResponse(answer: Answer): Response {
  const response = new Response(answer.body, { status: answer.status, headers: answer.headers });
  if (answer.body !== null) texts.set(response, answer.body);
  return response;
}

/** The body text of a Response made by answerResponse, while its stream is unread. */
export function bodyTextOf(response: Response): string | undefined {
  return response.bodyUsed ? undefined : texts.get(response);
}
